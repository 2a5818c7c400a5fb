"""Pixel values from transformers' own CLIP image processor (the PIL backend, the reference Arbiter's
electron/core/scorer/imageInputs.ts follows), for test/scorer/image-preprocess-python.test.ts.

    python image_preprocess_check.py JOBS.json

JOBS.json: a list of {"config": {...preprocessor_config.json...}, "images": ["a.png", ...], "out": "dir"}.
Each image is opened with PIL as `datasets` decodes an Image feature (EXIF orientation applied), run
through the processor made from the config, and written to dir/<index>.f32 (float32, [3, H, W],
little-endian). Prints the processor's class and transformers' version as JSON.
"""
import json
import sys

import numpy as np
import PIL.Image
import PIL.ImageOps
import transformers

try:  # transformers 5: the PIL backend has its own class; CLIPImageProcessor may be the torchvision one
    from transformers import CLIPImageProcessorPil as Processor
except ImportError:  # transformers 4: CLIPImageProcessor is the PIL/numpy one
    from transformers import CLIPImageProcessor as Processor


def main() -> None:
    processor = None
    for job in json.load(open(sys.argv[1])):
        config = {k: v for k, v in job["config"].items() if k not in ("image_processor_type", "_valid_processor_keys")}
        processor = Processor(**config)
        for index, path in enumerate(job["images"]):
            image = PIL.Image.open(path)
            image.load()
            if image.getexif().get(PIL.Image.ExifTags.Base.Orientation) is not None:
                image = PIL.ImageOps.exif_transpose(image)
            pixels = processor(images=image, return_tensors="np")["pixel_values"][0]
            np.ascontiguousarray(pixels, dtype="<f4").tofile(f"{job['out']}/{index}.f32")
    print(json.dumps({"processor": type(processor).__name__, "transformers": transformers.__version__}))


if __name__ == "__main__":
    main()
