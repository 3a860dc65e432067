#!/usr/bin/env python3
"""Writes Models/fixtures/<name>.input.npy (or <name>.input-u8.npy: the 8-bit levels
of an image input, 4x smaller; the model ran on levels / 255) and <name>.output.npy:
a fixed input built from one synthesized scene and onnxruntime's output on it
(default session options, 1 thread); a model with more outputs also gets
<name>.output-<output name>.npy for each later one. Tests/InferenceTests/ShippedModelTests.swift
compares the Swift backend against these.

  python make_fixtures.py detector  --model ../Models/arrow-detector.onnx --image scene.png --out-dir ../Models/fixtures
  python make_fixtures.py refiner   --model ../Models/arrow-refiner.onnx --coco DIR --out-dir ../Models/fixtures
  python make_fixtures.py classifier --model ../Models/setcards-classifier.onnx --coco DIR --out-dir ../Models/fixtures
"""
import argparse
import json
import os

import numpy as np
from PIL import Image

from detector import INPUT, letterbox_geometry, ort_session


def run(model, x):
    """Every output, as (name, array), in the model's order."""
    s = ort_session(model, 1)
    return list(zip([o.name for o in s.get_outputs()], s.run(None, {s.get_inputs()[0].name: x})))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["detector", "refiner", "classifier"])
    ap.add_argument("--model", required=True)
    ap.add_argument("--image")
    ap.add_argument("--coco", help="dataset dir; the first card / arrow of the first train image is used")
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()
    name = os.path.basename(a.model)[:-5]
    if a.kind == "detector":
        img = Image.open(a.image).convert("RGB")
        w, h = img.size
        gain, nw, nh, left, top = letterbox_geometry(w, h)
        canvas = np.full((INPUT, INPUT, 3), 114, np.uint8)
        canvas[top:top + nh, left:left + nw] = np.asarray(img.resize((nw, nh), Image.BILINEAR))
        levels = canvas.transpose(2, 0, 1)[None].copy()
        x = levels.astype(np.float32) / 255
    elif a.kind == "refiner":
        from refiner import crop, window_side
        d = json.load(open(os.path.join(a.coco, "annotations", "instances_train.json")))
        im = d["images"][0]
        ann = next(t for t in d["annotations"] if t["image_id"] == im["id"] and t["category_id"] == 0)
        img = np.asarray(Image.open(os.path.join(a.coco, "images", im["file_name"])).convert("RGB"))
        bx, by, bw, bh = ann["bbox"]
        # a window a few pixels off the entry, as a detector candidate would be
        x = crop(img, bx + bw / 2 + 3.5, by + bh / 2 - 2.25, window_side(img.shape[1], img.shape[0]))[None]
        levels = np.round(x * 255).astype(np.uint8)
    else:
        from classifier import crop
        d = json.load(open(os.path.join(a.coco, "annotations", "instances_train.json")))
        im = d["images"][0]
        ann = next(t for t in d["annotations"] if t["image_id"] == im["id"])
        img = np.asarray(Image.open(os.path.join(a.coco, "images", im["file_name"])).convert("RGB"))
        x = crop(img, ann["bbox"])[None].astype(np.float32).copy()
        levels = None  # ImageNet-normalized: not 8-bit levels
    ys = run(a.model, x)
    os.makedirs(a.out_dir, exist_ok=True)
    if levels is not None:
        assert np.array_equal(levels.astype(np.float32) / 255, x)
        np.save(os.path.join(a.out_dir, f"{name}.input-u8.npy"), levels)
    else:
        np.save(os.path.join(a.out_dir, f"{name}.input.npy"), x)
    for k, (out, y) in enumerate(ys):  # the first output's file is <name>.output.npy, a later one's <name>.output-<out>.npy
        y = y.astype(np.float32)
        np.save(os.path.join(a.out_dir, f"{name}.output.npy" if k == 0 else f"{name}.output-{out}.npy"), y)
        print(name, out, x.shape, y.shape, "max|y|", float(np.abs(y).max()))


if __name__ == "__main__":
    main()
