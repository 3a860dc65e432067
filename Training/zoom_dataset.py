#!/usr/bin/env python3
"""Copies a `bullseye synth --dataset` folder as `--profile best`'s closer look sees it:
each image cropped to its face box x MARGIN in the image's aspect, at least INPUT px on
the long side, when that region is at most SHARE of the image's side (else the whole
image), with the YOLO labels moved into the crop (boxes whose centre leaves it are
dropped) and the shafts' ends moved into shafts.json. Mining refiner crops on the result gives windows at the closer look's scale
(refiner.py mine sizes a window from the image it reads). The region follows
ArcheryPipeline.zoomRegion (Sources/Pipelines/ArcheryPipeline+Zoom.swift), here from the
true face box instead of the detected one.

  python zoom_dataset.py data/target_rhr1 data/target_rhr1_zoom
"""
import math
import os

import numpy as np
from PIL import Image

from halve_dataset import shaft_ends, source_and_images, write_shafts

MARGIN, SHARE, INPUT = 1.3, 0.75, 640


def region(face, W, H):
    """(x, y, w, h) in pixels, or None when the closer look would not be taken."""
    cx, cy, fw, fh = face
    aspect = W / H
    w = max(fw * MARGIN, fh * MARGIN * aspect)
    h = w / aspect
    long = max(w, h)
    if long < INPUT:
        w, h = w * INPUT / long, h * INPUT / long
    if w > W * SHARE or h > H * SHARE:
        return None
    wi, hi = min(W, math.ceil(w)), min(H, math.ceil(h))
    x = min(max(int(round(cx - w / 2)), 0), W - wi)
    y = min(max(int(round(cy - h / 2)), 0), H - hi)
    return x, y, wi, hi


def main():
    src, dst, files = source_and_images(__doc__)
    zoomed, shafts = 0, {}
    for f in files:
        img = np.asarray(Image.open(f).convert("RGB"))
        H, W = img.shape[:2]
        split, name = os.path.basename(os.path.dirname(f)), os.path.basename(f)[:-4]
        lf = os.path.join(src, "labels", split, name + ".txt")
        rows = [line.split() for line in open(lf)] if os.path.exists(lf) else []
        boxes = [(int(r[0]), float(r[1]) * W, float(r[2]) * H, float(r[3]) * W, float(r[4]) * H) for r in rows if r]
        faces = [b for b in boxes if b[0] == 1]
        reg = region(max(faces, key=lambda b: b[3] * b[4])[1:], W, H) if faces else None
        x, y, w, h = reg if reg else (0, 0, W, H)
        zoomed += reg is not None
        out = os.path.join(dst, "images", split, name + ".png")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        Image.fromarray(img[y:y + h, x:x + w]).save(out, compress_level=1)
        shafts[f"{split}/{name}"] = [[e[0] - x, e[1] - y, e[2] - x, e[3] - y] for e in shaft_ends(src, split, name)]
        lo = os.path.join(dst, "labels", split, name + ".txt")
        os.makedirs(os.path.dirname(lo), exist_ok=True)
        with open(lo, "w") as g:
            for c, bx, by, bw, bh in boxes:
                if x <= bx < x + w and y <= by < y + h:
                    g.write(f"{c} {(bx - x) / w:.6f} {(by - y) / h:.6f} {bw / w:.6f} {bh / h:.6f}\n")
    write_shafts(dst, shafts)
    print(f"{len(files)} images into {dst}, {zoomed} cropped to the face")


if __name__ == "__main__":
    main()
