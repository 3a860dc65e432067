"""Cuts photograph-like card crops out of a `bullseye synth --dataset --kind setcards` folder.

Each card's box (COCO) is cropped tightly (jittered by a few per cent), scaled so its width is 60-120 px,
and saved as JPEG at quality 60-85 under OUT/<number>-<colour>-<shape>-<fill>/, the layout that
`bullseye eval card-crops OUT` reads. Seeded: the same dataset and seed give the same files.

    python Training/make_card_crops.py --data data/cards_holdout_crops_src --out data/card_crops_holdout --limit 1000
"""
import argparse
import io
import json
import os
import random

from PIL import Image

NUMBERS = {"one": "1", "two": "2", "three": "3"}


def overlap(a, b):
    """Intersection area of two xywh boxes."""
    ix = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    iy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, ix) * max(0, iy)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True, help="a synth --dataset folder (COCO annotations)")
    p.add_argument("--out", required=True)
    p.add_argument("--limit", type=int, default=1000, help="stop after this many crops")
    p.add_argument("--width", default="60,120", help="crop width range in pixels")
    p.add_argument("--quality", default="60,85", help="JPEG quality range")
    p.add_argument("--max-overlap", type=float, default=0.03,
                   help="skip a card whose box shares more than this part of its area with another card's (it may be covered)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    rng = random.Random(a.seed)
    w_lo, w_hi = (int(v) for v in a.width.split(","))
    q_lo, q_hi = (int(v) for v in a.quality.split(","))
    count = 0
    for split in ("train", "val"):
        path = os.path.join(a.data, "annotations", f"instances_{split}.json")
        if not os.path.exists(path):
            continue
        d = json.load(open(path))
        files = {im["id"]: im["file_name"] for im in d["images"]}
        by_image = {}
        for ann in d["annotations"]:
            by_image.setdefault(ann["image_id"], []).append(ann["bbox"])
        for ann in d["annotations"]:
            if count >= a.limit:
                break
            at = ann["attributes"]
            x, y, w, h = ann["bbox"]
            # Cards cut by the frame have a short box on one side; a whole card is 0.64:1 in some rotation.
            ratio = min(w, h) / max(w, h)
            if ratio < 0.5 or w < 20 or h < 20:
                continue
            if max((overlap(ann["bbox"], b) for b in by_image[ann["image_id"]] if b != ann["bbox"]), default=0) > a.max_overlap * w * h:
                continue
            img = Image.open(os.path.join(a.data, "images", files[ann["image_id"]])).convert("RGB")
            jx, jy = rng.uniform(-0.03, 0.03) * w, rng.uniform(-0.03, 0.03) * h
            sx, sy = rng.uniform(0.97, 1.04), rng.uniform(0.97, 1.04)
            x1, y1 = max(0, x + jx + w * (1 - sx) / 2), max(0, y + jy + h * (1 - sy) / 2)
            x2, y2 = min(img.width, x1 + w * sx), min(img.height, y1 + h * sy)
            c = img.crop((int(x1), int(y1), int(round(x2)), int(round(y2))))
            tw = rng.randint(w_lo, w_hi)
            th = max(1, round(c.height * tw / c.width))
            c = c.resize((tw, th), Image.BILINEAR)
            label = f"{NUMBERS.get(at['number'], at['number'])}-{at['color']}-{at['shape']}-{at['fill']}"
            folder = os.path.join(a.out, label)
            os.makedirs(folder, exist_ok=True)
            buf = io.BytesIO()
            c.save(buf, "JPEG", quality=rng.randint(q_lo, q_hi))
            with open(os.path.join(folder, f"{split}-{ann['image_id']:06d}-{ann['id']:05d}.jpg"), "wb") as f:
                f.write(buf.getvalue())
            count += 1
    print(f"wrote {count} crops to {a.out}")


if __name__ == "__main__":
    main()
