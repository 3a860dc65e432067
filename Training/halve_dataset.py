#!/usr/bin/env python3
"""Copies a `bullseye synth --dataset` folder at half size: each output pixel is the
mean of a 2x2 block (rounded), which is what the letterbox does to a 1280x960 photo
on its way to the 640x640 detector input. Labels and COCO files are normalized or
per-image metadata and are copied unchanged; the shafts' ends, in pixels, are halved
into the copy's shafts.json (see shaft_ends).

  python halve_dataset.py data/target_hr data/target_hr_half
"""
import glob
import json
import os
import shutil
import sys

import numpy as np
from PIL import Image


def halve(rgb):
    """HxWx3 uint8 (H, W even) -> (H/2)x(W/2)x3 uint8, 2x2 mean."""
    a = rgb.astype(np.float32)
    a = a.reshape(a.shape[0] // 2, 2, a.shape[1] // 2, 2, 3).mean((1, 3))
    return np.round(a).astype(np.uint8)


def source_and_images(doc):
    """(source folder, destination folder, the source's images/<split>/*.png) from argv."""
    if len(sys.argv) != 3:
        raise SystemExit(doc)
    src, dst = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(src, "images", "*", "*.png")))
    if not files:
        raise SystemExit(f"{src}: no images/<split>/*.png")
    return src, dst, files


_SHAFTS = {}


def _records(root):
    """The dataset's COCO image records, both splits."""
    for split in ("train", "val"):
        cf = os.path.join(root, "annotations", f"instances_{split}.json")
        if os.path.exists(cf):
            with open(cf) as f:
                yield from json.load(f)["images"]


def shaft_ends(root, split, name):
    """[[entryX, entryY, nockX, nockY], ...] in the image's pixels, one per visible shaft:
    from the dataset's shafts.json ({"split/name": [...]}, written by this script and
    zoom_dataset.py) or else its COCO image records (`bullseye synth --dataset`)."""
    if root not in _SHAFTS:
        sj = os.path.join(root, "shafts.json")
        if os.path.exists(sj):
            with open(sj) as f:
                _SHAFTS[root] = json.load(f)
        else:
            _SHAFTS[root] = {r["file_name"].rsplit(".", 1)[0]: r.get("shafts", []) for r in _records(root)}
    return _SHAFTS[root].get(f"{split}/{name}", [])


def has_shaft_ends(root):
    """Whether the dataset records shaft ends at all (older `synth --dataset` folders do not)."""
    return os.path.exists(os.path.join(root, "shafts.json")) or any("shafts" in r for r in _records(root))


def write_shafts(dst, table):
    """Writes {"split/name": [[x0, y0, x1, y1], ...]} as dst/shafts.json."""
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, "shafts.json"), "w") as f:
        json.dump(table, f, sort_keys=True)


def main():
    src, dst, files = source_and_images(__doc__)
    shafts = {}
    for f in files:
        img = np.asarray(Image.open(f).convert("RGB"))
        if img.shape[0] % 2 or img.shape[1] % 2:
            raise SystemExit(f"{f}: {img.shape[1]}x{img.shape[0]} is not even on both sides")
        out = os.path.join(dst, os.path.relpath(f, src))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        Image.fromarray(halve(img)).save(out, compress_level=1)
        key = os.path.relpath(f, os.path.join(src, "images"))[:-4]
        shafts[key] = [[v / 2 for v in e] for e in shaft_ends(src, *key.split("/"))]
    for sub in ("labels", "annotations"):
        shutil.copytree(os.path.join(src, sub), os.path.join(dst, sub), dirs_exist_ok=True)
    write_shafts(dst, shafts)
    print(f"{len(files)} images halved into {dst}")


if __name__ == "__main__":
    main()
