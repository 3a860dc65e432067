#!/usr/bin/env python3
"""Second stage for the arrow detector (plain PyTorch, written for this repo).

The detector sees the photo at 640x640; at that scale a 5 mm shaft is two pixels
wide and its two ends look alike. The refiner looks again at each candidate at
the photo's own resolution: a square window WINDOW input pixels wide (in the
detector's 640 scale) around the candidate, resampled to CROP x CROP from the
original image. It answers whether an entry point lies near the window centre
and where (offset in input pixels), so the pipeline can ask the detector for
more candidates (a low threshold) and keep the real ones, better placed.

Models (refiner_nets.py): input 1x3xCROPxCROP RGB in [0,1]; a one-answer refiner
gives (1, 3) = [probability, dx, dy], dx and dy in 640-input pixels from the window
centre to the entry point; an entry-map refiner (--arch peak, peakpair, peakpair96, peakpair96w, peakpair96u)
gives a 48x48 (or 96x96) map of every entry in the window (peaks.py). `bundle` puts an entry-map
refiner and a one-answer gate in one file (refiner_eval.py, with `eval`).

Usage:
  python refiner.py mine   --data DIR --detector Models/arrow-detector.onnx --out crops.npz [--conf 0.03] [--nocks K --along K]
  python refiner.py train  --crops crops.npz [--crops more.npz] --steps N --out run.pt
  python refiner.py export --weights run.pt --out Models/arrow-refiner.onnx
  python refiner.py hard   --weights run.pt --crops crops.npz --out hard.npz
  python refiner.py bundle --peaks peaks.onnx --gate one-answer.onnx --out Models/arrow-refiner.onnx
  python refiner.py recover --onnx Models/arrow-refiner.onnx --crops crops.npz --out run.pt
  python refiner.py eval   --data HELDOUT --detector D.onnx --refiner R.onnx [--conf 0.03]
"""
import argparse
import glob
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn.functional as F

import detector as D
import peaks as P

from halve_dataset import has_shaft_ends, shaft_ends
from refiner_nets import ARCHS, MAP_ARCHS, CROP, from_checkpoint, OFFSET_SCALE, WINDOW  # the nets and their window geometry


# ----------------------------------------------------------------------------- crops

def window_side(w, h):
    """Window side in original pixels: WINDOW input pixels at the letterbox gain."""
    return WINDOW * max(w, h) / D.INPUT


def crop(img, cx, cy, side, out=CROP):
    """img: HxWx3 uint8; (cx, cy) window centre in original pixel coordinates
    (pixel p covers [p, p+1)). Each output pixel averages k x k bilinear samples,
    k = ceil(side / out), edges clamped, rounded to an 8-bit level (floor(v + 1/2)),
    then / 255: 3 x out x out float32. ModelInput.window (Sources/Imaging/
    ModelInput+Window.swift) computes the same."""
    h, w = img.shape[:2]
    s = side / out
    k = max(1, int(math.ceil(s - 1e-9)))
    t = (np.arange(out * k) + 0.5) / k  # sub-sample positions in output-pixel units
    xs = cx - side / 2 + t * s - 0.5
    ys = cy - side / 2 + t * s - 0.5
    x0 = np.floor(xs).astype(np.int64)
    y0 = np.floor(ys).astype(np.int64)
    fx = (xs - x0).astype(np.float32)
    fy = (ys - y0).astype(np.float32)
    xa, xb = np.clip(x0, 0, w - 1), np.clip(x0 + 1, 0, w - 1)
    ya, yb = np.clip(y0, 0, h - 1), np.clip(y0 + 1, 0, h - 1)
    im = img.astype(np.float32)
    top = im[ya][:, xa] * (1 - fx)[None, :, None] + im[ya][:, xb] * fx[None, :, None]
    bot = im[yb][:, xa] * (1 - fx)[None, :, None] + im[yb][:, xb] * fx[None, :, None]
    v = top * (1 - fy)[:, None, None] + bot * fy[:, None, None]
    v = v.astype(np.float32).reshape(out, k, out, k, 3)
    acc = np.zeros((out, out, 3), np.float32)
    for sy in range(k):          # summed in this order, like the Swift loop
        for sx in range(k):
            acc += v[:, sy, :, sx]
    v = acc / np.float32(k * k)
    return (np.floor(v + np.float32(0.5)) / np.float32(255)).transpose(2, 0, 1).astype(np.float32)


# ----------------------------------------------------------------------------- mining

def candidates(sess, img, conf):
    """Class-0 detections (after NMS) of the letterboxed image, in original pixels:
    list of (score, x, y, half box in input px)."""
    h, w = img.shape[:2]
    gain, nw, nh, left, top = D.letterbox_geometry(w, h)
    from PIL import Image
    canvas = np.full((D.INPUT, D.INPUT, 3), 114, np.uint8)
    canvas[top:top + nh, left:left + nw] = np.asarray(Image.fromarray(img).resize((nw, nh), Image.BILINEAR))
    x = canvas.astype(np.float32).transpose(2, 0, 1)[None] / 255
    out = sess.run(None, {"images": x})[0][0]
    dets = [d for d in D.postprocess(out, conf, 0.5) if d[0] == 0]
    return [(d[1], (d[2] - left) / gain, (d[3] - top) / gain, max(d[4], d[5]) / 2) for d in dets], gain


def truth_points(root, split, name, w, h):
    lf = os.path.join(root, "labels", split, name + ".txt")
    lab = D.read_labels(lf, w, h)
    lab = lab[lab[:, 0] == 0]
    return lab[:, 1:4].copy() if len(lab) else np.zeros((0, 3), np.float32)


def label(cx, cy, truths, gain):
    """(is positive, dx, dy in input px) for a window centred at (cx, cy): the
    nearest true entry within max(4 px, half its box) at input scale."""
    best = None
    for tx, ty, tw in truths:
        d = math.hypot(tx - cx, ty - cy) * gain
        if D.near_impact(d, tw * gain) and (best is None or d < best[0]):
            best = (d, (tx - cx) * gain, (ty - cy) * gain)
    return (0, 0.0, 0.0) if best is None else (1, best[1], best[2])


def scenes(args):
    """(image HxWx3 uint8, true entries [x, y, box side] in pixels, split, name) of every
    image under args.data (the first args.limit when set), in file-name order."""
    from PIL import Image
    files = sorted(glob.glob(os.path.join(args.data, "images", "*", "*.png")))
    for f in files[:args.limit] if args.limit else files:
        img = np.asarray(Image.open(f).convert("RGB"))
        h, w = img.shape[:2]
        split, name = os.path.basename(os.path.dirname(f)), os.path.basename(f)[:-4]
        yield img, truth_points(args.data, split, name, w, h), split, name


def shaft_centres(rng, ends, w, h, gain, nocks, along):
    """Window centres showing what an entry is not: `nocks` per nock (jittered up to
    2 input px) and `along` per shaft at a random point from 30 % to 95 % of the
    way from its entry to its nock; only centres inside the picture. (x, y, kind),
    kind 1 a nock and 2 a shaft."""
    out = []
    for x0, y0, x1, y1 in ends:
        for _ in range(nocks):
            r, a = rng.uniform(0, 2) / gain, rng.uniform(0, 2 * math.pi)
            out.append((x1 + r * math.cos(a), y1 + r * math.sin(a), 1))
        for _ in range(along):
            t = rng.uniform(0.3, 0.95)
            out.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0), 2))
    return [c for c in out if 0 <= c[0] < w and 0 <= c[1] < h]


MAX_ENTRIES = 16  # entries stored per crop (the window holds far fewer)


def entries_near(cx, cy, truths, gain):
    """(MAX_ENTRIES, 2) offsets in input px from (cx, cy) of every true entry within
    the window and one input px beyond (so a heatmap's edge cells see their tail),
    nearest first, NaN-padded."""
    e = np.full((MAX_ENTRIES, 2), np.nan, np.float32)
    lim = WINDOW / 2 + 1
    near = sorted(((tx - cx) * gain, (ty - cy) * gain) for tx, ty, _ in truths
                  if abs(tx - cx) * gain <= lim and abs(ty - cy) * gain <= lim)
    near.sort(key=lambda o: math.hypot(*o))
    for i, o in enumerate(near[:MAX_ENTRIES]):
        e[i] = o
    return e


def mine(args):
    if (args.nocks or args.along) and not has_shaft_ends(args.data):
        raise SystemExit(f"--nocks/--along: {args.data} records no shaft ends (draw it again with a current `bullseye synth --dataset`)")
    sess = D.ort_session(args.detector, args.threads)
    rng = random.Random(args.seed)
    xs, ys, es, ks = [], [], [], []
    t0 = time.time()
    for n, (img, truths, split, name) in enumerate(scenes(args)):
        h, w = img.shape[:2]
        cands, gain = candidates(sess, img, args.conf)
        side = window_side(w, h)
        centres = [(x, y, 0) for _, x, y, _ in cands]
        # every true entry also from a few jittered centres (up to 6 input px away)
        for tx, ty, _ in truths:
            for _ in range(args.jitter):
                r, a = rng.uniform(0, 6) / gain, rng.uniform(0, 2 * math.pi)
                centres.append((tx + r * math.cos(a), ty + r * math.sin(a), 0))
        if args.nocks or args.along:
            centres += shaft_centres(rng, shaft_ends(args.data, split, name), w, h, gain, args.nocks, args.along)
        for cx, cy, kind in centres:
            p, dx, dy = label(cx, cy, truths, gain)
            xs.append(np.round(crop(img, cx, cy, side) * 255).astype(np.uint8))  # exact: crops are 8-bit levels
            ys.append((p, dx, dy))
            es.append(entries_near(cx, cy, truths, gain))
            ks.append(kind)
        if (n + 1) % 50 == 0:
            print(f"{n + 1} images, {len(xs)} crops ({sum(y[0] for y in ys)} positive) "
                  f"{time.time() - t0:.0f}s", flush=True)
    k = np.array(ks, np.uint8)
    np.savez(args.out, x=np.stack(xs), y=np.array(ys, np.float32), e=np.stack(es), k=k)
    print(f"wrote {len(xs)} crops, {int(sum(y[0] for y in ys))} positive, "
          f"{int((k == 1).sum())} at nocks, {int((k == 2).sum())} along shafts, to {args.out}")


# ----------------------------------------------------------------------------- training

def train(args):
    if not 0 <= args.max_offset <= 4:
        raise SystemExit(f"--max-offset {args.max_offset}: expected 0 (off) to 4 input px")
    torch.set_num_threads(args.threads)
    D.seed_all(args.seed)
    rng = np.random.default_rng(args.seed)
    peak = args.arch in MAP_ARCHS
    xs, ys, es, ks = [], [], [], []
    for c in args.crops:
        z = np.load(c)
        ks.append(z["k"] if "k" in z else np.zeros(len(z["y"]), np.uint8))
        if peak and "e" not in z:
            raise SystemExit(f"--crops {c}: no entry lists ('e'); --arch peak needs crops mined by this refiner.py")
        xs.append(z["x"])
        ys.append(z["y"])
        es.append(z["e"] if peak else np.zeros((len(z["y"]), 0, 2), np.float32))
    X, Y, E, K = np.concatenate(xs), np.concatenate(ys), np.concatenate(es), np.concatenate(ks)
    E = E[:, :int((~np.isnan(E[..., 0])).sum(1).max(initial=0))]  # entries are nearest-first, NaN-padded
    if args.max_offset:
        # a tighter positive radius than mining's max(4 px, half the box): an entry
        # farther than this from the window centre makes the crop a negative
        # (exact for radii <= 4 px, where the nearest entry is the one labelled)
        far = (Y[:, 0] > 0) & (np.hypot(Y[:, 1], Y[:, 2]) > args.max_offset)
        Y[far] = 0
        print(f"--max-offset {args.max_offset}: {int(far.sum())} positives made negative", flush=True)
    print(f"{len(X)} crops, {int(Y[:, 0].sum())} positive", flush=True)
    model = ARCHS[args.arch]()
    if args.init:
        state = torch.load(args.init, map_location="cpu")["model"]
        if args.init_partial:
            # a different --arch: take every tensor whose name and shape match; one that
            # gained output channels (peak -> peakpair) keeps its old ones first
            own = model.state_dict()
            for k, v in list(state.items()):
                if k in own and own[k].shape != v.shape and own[k].shape[1:] == v.shape[1:] and own[k].shape[0] > v.shape[0]:
                    grown = own[k].clone()
                    grown[:v.shape[0]] = v
                    state[k] = grown
            state = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
            print(f"--init-partial: {len(state)} of {len(own)} tensors from {args.init}", flush=True)
        model.load_state_dict(state, strict=not args.init_partial)
    if not 0 < args.oversample_shafts <= 10:
        raise SystemExit(f"--oversample-shafts {args.oversample_shafts}: expected 0 < k <= 10")
    # each crop's draw weight: nock and shaft windows, then touching pairs
    weight = np.where(K > 0, args.oversample_shafts, 1.0)
    if args.oversample_shafts != 1:
        print(f"--oversample-shafts {args.oversample_shafts}: {int((K > 0).sum())} nock and shaft windows", flush=True)
    if args.oversample_pairs != 1:
        if not peak or not 0 < args.oversample_pairs <= 10:
            raise SystemExit(f"--oversample-pairs {args.oversample_pairs}: expected 0 < k <= 10 with --arch peak or peakpair")
        # crops with two entries touching (within peaks.PAIR_R) near the centre drawn k times as often
        d = np.hypot(E[:, 0, 0] - E[:, 1, 0], E[:, 0, 1] - E[:, 1, 1]) if E.shape[1] > 1 else np.full(len(E), np.nan)
        central = (np.abs(np.nan_to_num(E[:, :2], nan=1e9)) <= P.WINDOW / 4).all((1, 2)) if E.shape[1] > 1 else np.zeros(len(E), bool)
        paired = np.nan_to_num(d, nan=1e9) <= P.PAIR_R
        weight = weight * np.where(paired & central, args.oversample_pairs, 1.0)
        print(f"--oversample-pairs {args.oversample_pairs}: {int((paired & central).sum())} paired crops", flush=True)
    oversampled = args.oversample_shafts != 1 or args.oversample_pairs != 1
    cdf = np.cumsum(weight) if oversampled else None
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        lr = args.lr * min(1.0, step / 100) * 0.5 * (1 + math.cos(math.pi * (step - 1) / args.steps))
        for g in opt.param_groups:
            g["lr"] = lr
        if cdf is not None:  # weighted draw: the cumulative weights are summed once, before the loop
            idx = np.minimum(np.searchsorted(cdf, rng.random(args.batch) * cdf[-1], side="right"), len(X) - 1)
        else:
            idx = rng.integers(0, len(X), args.batch)
        x = torch.from_numpy(X[idx]).float().div(255)
        y = torch.from_numpy(Y[idx]).clone()
        e = torch.from_numpy(E[idx]).clone()
        # flips (offsets and entries follow), brightness/contrast, noise
        if rng.random() < 0.5:
            x = x.flip(3)
            y[:, 1] = -y[:, 1]
            e[..., 0] = -e[..., 0]
        if rng.random() < 0.5:
            x = x.flip(2)
            y[:, 2] = -y[:, 2]
            e[..., 1] = -e[..., 1]
        if args.transpose and rng.random() < 0.5:  # the other four of the eight symmetries of a square
            x = x.transpose(2, 3)
            y = y[:, [0, 2, 1]]
            e = e[..., [1, 0]]
        a = torch.from_numpy(rng.uniform(0.8, 1.2, (len(idx), 1, 1, 1)).astype(np.float32))
        b = torch.from_numpy(rng.uniform(-0.06, 0.06, (len(idx), 1, 1, 1)).astype(np.float32))
        x = (x * a + b + torch.randn_like(x) * 0.01).clamp(0, 1)
        r = model.raw(x)
        if peak:
            lcls, loff = P.loss(r, e)
            loss = lcls + loff
        else:
            lcls = F.binary_cross_entropy_with_logits(r[:, 0], y[:, 0])
            pos = y[:, 0] > 0
            loff = F.smooth_l1_loss(r[pos, 1:], y[pos, 1:] / OFFSET_SCALE, beta=0.05) if pos.any() else r.sum() * 0
            loss = lcls + 2 * loff
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f} cls {lcls.item():.4f} off {loff.item():.4f} lr {lr:.5f} "
                  f"{time.time() - t0:.0f}s", flush=True)
        if step % args.save_every == 0 and step < args.steps:
            torch.save({"model": model.state_dict(), "args": vars(args), "arch": args.arch, "step": step},
                       args.out.replace(".pt", f"_{step}.pt"))
    torch.save({"model": model.state_dict(), "args": vars(args), "arch": args.arch}, args.out)
    print(f"saved {args.out}")


def export(args):
    model, _ = from_checkpoint(args.weights)
    D.export_onnx(model, torch.zeros(1, 3, CROP, CROP), args.out, "crop", "refined")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("mine")
    m.add_argument("--data", required=True)
    m.add_argument("--detector", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--conf", type=float, default=0.03)
    m.add_argument("--jitter", type=int, default=2, help="extra jittered windows per true entry")
    m.add_argument("--nocks", type=int, default=0, help="extra windows centred on each shaft's nock (needs shaft ends: halve_dataset.shaft_ends)")
    m.add_argument("--along", type=int, default=0, help="extra windows centred along each shaft, away from its entry")
    m.add_argument("--limit", type=int, default=0)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--threads", type=int, default=1)
    t = sub.add_parser("train")
    t.add_argument("--crops", action="append", required=True)
    t.add_argument("--steps", type=int, default=3000)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--arch", default="fc", choices=sorted(ARCHS), help="fc: offsets from a fully connected head; "
                   "heat: soft-argmax of a 24x24 heatmap; heat2: of a 48x48 one; peak: every entry "
                   "as a 48x48 map's local maxima (peaks.py); peakpair: peak plus each entry's touching partner; "
                   "peakpair96: peakpair's map at 96x96 (0.5 px cells); peakpair96w: peakpair96 with a wider context path; "
                   "peakpair96u: peakpair96 plus a full-resolution encoder-decoder correction")
    t.add_argument("--save-every", type=int, default=500)
    t.add_argument("--init", help="start from these weights (same --arch)")
    t.add_argument("--init-partial", action="store_true",
                   help="--init from another --arch: load the tensors whose names and shapes match")
    t.add_argument("--max-offset", type=float, default=0.0,
                   help="input px; positives whose entry is farther from the centre become negatives (at most 4)")
    t.add_argument("--transpose", action="store_true", help="also swap the crop's axes (x <-> y) half the time")
    t.add_argument("--oversample-pairs", type=float, default=1.0,
                   help="peak archs: draw crops whose two nearest entries touch (within 2.5 input px, both within 12 px of the centre) k times as often")
    t.add_argument("--oversample-shafts", type=float, default=1.0,
                   help="draw the windows `mine --nocks/--along` centred on nocks and shafts k times as often")
    t.add_argument("--out", required=True)
    e = sub.add_parser("export")
    e.add_argument("--weights", required=True)
    e.add_argument("--out", required=True)
    h = sub.add_parser("hard")
    h.add_argument("--weights", required=True, help="a peak refiner's checkpoint (.pt)")
    h.add_argument("--crops", required=True, help="a set written by `mine`")
    h.add_argument("--out", required=True)
    h.add_argument("--accept", type=float, default=0.35, help="peak probability the pipeline keeps")
    h.add_argument("--centre", type=float, default=4.0, help="input px from the window centre (both axes) an entry or peak is judged within")
    h.add_argument("--radius", type=float, default=1.5, help="input px a peak may be from its entry")
    h.add_argument("--threads", type=int, default=1)
    b = sub.add_parser("bundle")
    b.add_argument("--peaks", required=True, help="a peak refiner's ONNX (output [1, 3 or 6, H, W])")
    b.add_argument("--gate", required=True, help="a one-answer refiner's ONNX (output [1, 3]), read as the gate, or a bundle (its gate is taken)")
    b.add_argument("--out", required=True)
    r = sub.add_parser("recover", help="a trainable checkpoint from a shipped ONNX (refiner_recover.py)")
    r.add_argument("--onnx", required=True, help="a peak refiner's ONNX or a bundle (its `refined` map)")
    r.add_argument("--arch", default="peakpair96", choices=sorted(ARCHS))
    r.add_argument("--crops", required=True, help="a set written by `mine`: BatchNorm statistics come from its crops")
    r.add_argument("--gate", action="store_true", help="rebuild a bundle's gate (`window`) instead of its map; --arch heat")
    r.add_argument("--count", type=int, default=1024, help="crops drawn for the statistics")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", required=True)
    v = sub.add_parser("eval")
    v.add_argument("--data", required=True)
    v.add_argument("--detector", required=True)
    v.add_argument("--refiner", required=True)
    v.add_argument("--conf", type=float, default=0.03)
    v.add_argument("--accept", default="0.5", help="refiner probability thresholds, comma-separated")
    v.add_argument("--trust", default="12", help="peak refiner: input px from the window centre a peak may lie (comma-separated)")
    v.add_argument("--gate-accept", type=float, default=0.2, help="gated refiner ('window' output): window probability its peaks need")
    v.add_argument("--pair-accept", type=float, default=1.1, help="peakpair refiner: partner probability to report it (over 1: off)")
    v.add_argument("--views", type=int, default=1, choices=(1, 2, 4, 8),
                   help="read each window in the first N of peaks.VIEWS, outputs averaged; the gate reads the first (as the pipeline)")
    v.add_argument("--merge", default="1.5", help="peak refiner: merge radius in input px (comma-separated)")
    v.add_argument("--limit", type=int, default=0)
    v.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    if a.cmd == "hard":
        import refiner_hard
        refiner_hard.hard(a)
    elif a.cmd == "recover":
        import refiner_recover
        refiner_recover.recover(a)
    elif a.cmd in ("bundle", "eval"):
        import refiner_eval as E  # imports this module's crop helpers, so not at the top
        {"bundle": E.bundle, "eval": E.evaluate}[a.cmd](a)
    else:
        {"mine": mine, "train": train, "export": export}[a.cmd](a)


if __name__ == "__main__":
    main()
