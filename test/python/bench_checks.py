"""The `datasets` library and each benchmark's own reading code take Arbiter's vision benchmark exports.

    python test/python/bench_checks.py MANIFEST.json

The manifest names the exported files and the original images (files the test wrote) they must decode to:
    {"pickapic": "p.parquet", "pickapic_rows": [{"caption": "...", "jpg_0": "a.png", "jpg_1": "b.png", "label": "0"}],
     "vlrb": "v.jsonl", "vlrb_rows": [{"id": "...", "image": "a.png", "preferred": 1}],
     "mmrb": "m.jsonl", "mmrb_rows": [{"ID": "...", "image": "a.png", "label": "B"}]}

Checks:
  pickapic  `load_dataset("parquet")`: jpg_0 / jpg_1 are `Value("binary")` and label_0 / label_1 float64, as
            yuvalkirstain/pickapic_v2's features say; each image opened the way PickScore's
            clip_hf_dataset.py process_image does (PIL from the bytes, RGB) has its original's pixels; the
            label read as PickScore's evaluation get_label does ("0", "1" or "tie").
  vlrb      `load_dataset("json")`, each image opened as VL_RewardBench's inference.py does
            (os.path.join(images_parent_dir, image_path), the parent being the file's folder), the expected
            answer `human_ranking.index(0) + 1` as it computes it.
  vlrb_hub  `load_dataset("parquet")` of the Parquet export (the Hub's MMInstruction/VL-RewardBench shape):
            `image` is an `Image` feature that decodes to the original's pixels; the same expected answers.
  mmrb      `load_dataset("json")`, the image at f"{image_folder}/{Image}", the label as its judge script
            makes it ('B' if Better == 'Output2' else 'A').
Prints one line per check and a last line "bench checks: N of M passed"; exits 1 when any failed.
"""

import io
import json
import os
import sys
import traceback
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
warnings.filterwarnings("ignore")

import datasets  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

datasets.disable_progress_bars()


def pixels(image):
    return np.asarray(image.convert("RGB"))


def same_pixels(opened, original_path):
    with Image.open(original_path) as original:
        a, b = pixels(opened), pixels(original)
    return a.shape == b.shape and bool((a == b).all())


def get_label(example):
    # PickScore's evaluation (trainer/scripts/eval_preference_predictor.py and its copies).
    if example["label_0"] == 0.5:
        return "tie"
    if example["label_0"] == 1:
        return "0"
    return "1"


def check_pickapic(path, rows):
    ds = datasets.load_dataset("parquet", data_files=path, split="train")
    features = ds.features
    assert features["jpg_0"] == datasets.Value("binary"), features["jpg_0"]
    assert features["jpg_1"] == datasets.Value("binary"), features["jpg_1"]
    assert features["label_0"] == datasets.Value("float64"), features["label_0"]
    assert len(ds) == len(rows), (len(ds), len(rows))
    for example, want in zip(ds, rows):
        assert example["caption"] == want["caption"], (example["caption"], want["caption"])
        for column in ("jpg_0", "jpg_1"):
            image = Image.open(io.BytesIO(example[column])).convert("RGB")
            assert same_pixels(image, want[column]), f"{want['caption']}: {column} differs from {want[column]}"
        assert get_label(example) == want["label"], (want["caption"], get_label(example), want["label"])
    return f"pickapic: {len(ds)} rows, binary images decode to the originals, labels {[get_label(e) for e in ds]}"


def check_vlrb(path, rows):
    ds = datasets.load_dataset("json", data_files=path, split="train")
    parent = os.path.dirname(path)
    for example, want in zip(ds, rows):
        assert example["id"] == want["id"], (example["id"], want["id"])
        with Image.open(os.path.join(parent, example["image_path"])) as image:
            assert same_pixels(image, want["image"]), f"{want['id']}: image differs"
        expected = example["human_ranking"].index(0) + 1
        assert expected == want["preferred"], (want["id"], expected, want["preferred"])
    return f"vlrb: {len(ds)} lines, images at their relative paths, preferred answers {[e['human_ranking'].index(0) + 1 for e in ds]}"


def check_vlrb_hub(path, rows):
    ds = datasets.load_dataset("parquet", data_files=path, split="train")
    assert isinstance(ds.features["image"], datasets.Image), ds.features["image"]
    for example, want in zip(ds, rows):
        assert example["id"] == want["id"], (example["id"], want["id"])
        assert same_pixels(example["image"], want["image"]), f"{want['id']}: image differs"
        assert example["human_ranking"].index(0) + 1 == want["preferred"], want["id"]
    return f"vlrb_hub: {len(ds)} rows, Image feature decodes to the originals"


def check_mmrb(path, rows):
    ds = datasets.load_dataset("json", data_files=path, split="train")
    image_folder = os.path.dirname(path)
    for example, want in zip(ds, rows):
        assert example["ID"] == want["ID"], (example["ID"], want["ID"])
        with Image.open(f"{image_folder}/{example['Image']}") as image:
            assert same_pixels(image, want["image"]), f"{want['ID']}: image differs"
        label = "B" if example["Better"] == "Output2" else "A"
        assert label == want["label"], (want["ID"], label, want["label"])
    return f"mmrb: {len(ds)} lines, images at their relative paths"


def main():
    manifest = json.load(open(sys.argv[1]))
    checks = [("pickapic", check_pickapic), ("vlrb", check_vlrb), ("vlrb_hub", check_vlrb_hub), ("mmrb", check_mmrb)]
    passed = 0
    for name, check in checks:
        try:
            print(check(manifest[name], manifest[f"{name}_rows"]))
            passed += 1
        except Exception:
            print(f"{name}: FAILED")
            traceback.print_exc(file=sys.stdout)
    print(f"bench checks: {passed} of {len(checks)} passed")
    sys.exit(0 if passed == len(checks) else 1)


if __name__ == "__main__":
    main()
