"""The `datasets` library reads Arbiter's TRL vision exports and decodes their images to the original pixels.

    python test/python/vision_checks.py --report out.json MANIFEST.json

The manifest names the files and, per row (found by a piece of its prompt's text), the original image files
in placeholder order:
    {"parquet": "x.parquet", "jsonl": "x.jsonl", "rows": [{"prompt": "What animal", "images": ["a.png", ...]}]}

Checks:
  parquet  `load_dataset("parquet")`: the features say `images` is a list of `Image` (read from the file's
           `huggingface` metadata, nothing cast by hand), each image decodes (PIL) to the pixels of its
           original, and TRL's `prepare_multimodal_messages` fills the prompt's placeholders with them.
  jsonl    `load_dataset("json")` then `cast_column("images", List(Image()))`, run from the file's folder
           (the paths are relative to it): the same pixels.
Prints one line per check and a last line "vision checks: N of M passed"; exits 1 when any failed.
"""

import argparse
import json
import os
import sys
import traceback
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
warnings.filterwarnings("ignore")

import datasets  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image as PILImage  # noqa: E402
from trl.data_utils import prepare_multimodal_messages  # noqa: E402

datasets.disable_progress_bars()


def image_list_feature():
    """`List(Image())` where datasets has it (4.0 and later), else `Sequence(Image())`."""
    return datasets.List(datasets.Image()) if hasattr(datasets, "List") else datasets.Sequence(datasets.Image())


def is_image_list(feature):
    inner = feature[0] if isinstance(feature, list) else getattr(feature, "feature", None)
    return isinstance(inner, datasets.Image)


def pixels(image):
    return np.asarray(image.convert("RGBA"))


def prompt_text(row):
    return " ".join(part.get("text") or "" for message in row["prompt"] for part in message["content"])


def compare(ds, manifest, base):
    """Each manifest row's images decode to its originals' pixels; returns how many images were compared."""
    compared = 0
    for expected in manifest["rows"]:
        rows = [r for r in ds if expected["prompt"] in prompt_text(r)]
        if len(rows) != 1:
            raise AssertionError(f'{len(rows)} rows hold the prompt text {expected["prompt"]!r}')
        images = rows[0]["images"]
        if len(images) != len(expected["images"]):
            raise AssertionError(f'{expected["prompt"]!r}: {len(images)} images, expected {len(expected["images"])}')
        for got, original in zip(images, expected["images"]):
            want = PILImage.open(os.path.join(base, original))
            if got.size != want.size:
                raise AssertionError(f"{original}: decoded size {got.size}, original {want.size}")
            if not np.array_equal(pixels(got), pixels(want)):
                raise AssertionError(f"{original}: the decoded pixels differ from the original's")
            compared += 1
    return compared


def check_parquet(manifest, base):
    ds = datasets.load_dataset("parquet", data_files=manifest["parquet"], split="train")
    if not is_image_list(ds.features["images"]):
        raise AssertionError(f'features["images"] is {ds.features["images"]!r}, not a list of Image')
    compared = compare(ds, manifest, base)
    filled = 0
    for row in ds:
        messages = prepare_multimodal_messages(row["prompt"], images=row["images"])
        filled += sum(1 for m in messages for p in m["content"] if p["type"] == "image" and p.get("image") is not None)
    return {"rows": len(ds), "features": repr(ds.features["images"]), "images": compared, "trl_filled": filled}


def check_jsonl(manifest, base):
    jsonl = os.path.abspath(manifest["jsonl"])
    here = os.getcwd()
    os.chdir(os.path.dirname(jsonl))
    try:
        ds = datasets.load_dataset("json", data_files=jsonl, split="train")
        ds = ds.cast_column("images", image_list_feature())
        compared = compare(ds, manifest, base)
    finally:
        os.chdir(here)
    return {"rows": len(ds), "images": compared}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", required=True)
    parser.add_argument("manifest")
    args = parser.parse_args()
    with open(args.manifest) as f:
        manifest = json.load(f)
    base = os.path.dirname(os.path.abspath(args.manifest))
    checks = []
    for kind, run in (("parquet", check_parquet), ("jsonl", check_jsonl)):
        if kind not in manifest:
            continue
        try:
            figures = run(manifest, base)
            checks.append({"kind": kind, "ok": True, **figures})
            print(f"ok   {kind}: {json.dumps(figures)}")
        except Exception as error:  # noqa: BLE001 - every failure is reported with its words
            checks.append({"kind": kind, "ok": False, "error": f"{type(error).__name__}: {error}"})
            print(f"FAIL {kind}: {type(error).__name__}: {error}")
            traceback.print_exc()
    with open(args.report, "w") as f:
        json.dump({"versions": {"datasets": datasets.__version__}, "checks": checks}, f)
    passed = sum(1 for c in checks if c["ok"])
    print(f"vision checks: {passed} of {len(checks)} passed")
    sys.exit(0 if passed == len(checks) and checks else 1)


if __name__ == "__main__":
    main()
