#!/usr/bin/env python3
"""Writes Models/fixtures/<name>.input.npy and <name>.output.npy: a fixed input built
from one synthesized scene and onnxruntime's output on it (default session options,
1 thread). Tests/InferenceTests/ShippedModelTests.swift compares the Swift backend
against these.

  python make_fixtures.py detector  --model ../Models/arrow-detector.onnx --image scene.png --out-dir ../Models/fixtures
  python make_fixtures.py classifier --model ../Models/setcards-classifier.onnx --coco DIR --out-dir ../Models/fixtures
"""
import argparse
import json
import os

import numpy as np
import onnxruntime as ort
from PIL import Image

from detector import INPUT, letterbox_geometry


def run(model, x):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    return s.run(None, {s.get_inputs()[0].name: x})[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["detector", "classifier"])
    ap.add_argument("--model", required=True)
    ap.add_argument("--image")
    ap.add_argument("--coco", help="dataset dir; the first card of the first train image is used")
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()
    name = os.path.basename(a.model)[:-5]
    if a.kind == "detector":
        img = Image.open(a.image).convert("RGB")
        w, h = img.size
        gain, nw, nh, left, top = letterbox_geometry(w, h)
        canvas = np.full((INPUT, INPUT, 3), 114, np.uint8)
        canvas[top:top + nh, left:left + nw] = np.asarray(img.resize((nw, nh), Image.BILINEAR))
        x = (canvas.astype(np.float32) / 255).transpose(2, 0, 1)[None].copy()
    else:
        from classifier import crop
        d = json.load(open(os.path.join(a.coco, "annotations", "instances_train.json")))
        im = d["images"][0]
        ann = next(t for t in d["annotations"] if t["image_id"] == im["id"])
        img = np.asarray(Image.open(os.path.join(a.coco, "images", im["file_name"])).convert("RGB"))
        x = crop(img, ann["bbox"])[None].astype(np.float32).copy()
    y = run(a.model, x).astype(np.float32)
    os.makedirs(a.out_dir, exist_ok=True)
    np.save(os.path.join(a.out_dir, f"{name}.input.npy"), x)
    np.save(os.path.join(a.out_dir, f"{name}.output.npy"), y)
    print(name, x.shape, y.shape, "max|y|", float(np.abs(y).max()))


if __name__ == "__main__":
    main()
