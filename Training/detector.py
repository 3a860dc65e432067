#!/usr/bin/env python3
"""Small anchor-free detector for Bullseye (plain PyTorch, written for this repo).

Output layout matches an Ultralytics YOLOv8 export: [1, 4 + nc, 8400] with
(cx, cy, w, h) in input pixels followed by per-class sigmoid scores, anchor
points at strides 8/16/32 (80² + 40² + 20²). The box decoding is part of the
graph, so the exported ONNX needs no post-processing beyond NMS.

Usage:
  python detector.py train --data DIR [--data DIR ...] --nc 2 --steps N --out run.pt [--init W.pt --decay]
  python detector.py export --weights run.pt --out model.onnx
  python detector.py eval --weights model.onnx --data HELDOUT --nc 2 --mode letterbox|stretch
  python detector.py sweep --weights model.onnx --data SELECT --nc 2   (threshold → --logit-shift)
  python detector.py export --weights run.pt --out model.onnx --logit-shift 0:0.48
"""
import argparse
import glob
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

INPUT = 640
STRIDES = (8, 16, 32)
WH_SCALE = 6.0  # w, h = (2*sigmoid)^2 * WH_SCALE * stride  (0 .. 24 strides)
OFFSET = 2.0    # cx, cy = anchor + (2*OFFSET*sigmoid - OFFSET) * stride


def seed_all(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


# ----------------------------------------------------------------------------- model

class CBS(nn.Sequential):
    """Conv + BatchNorm + SiLU (exports as Conv, Sigmoid, Mul once BN is folded)."""

    def __init__(self, c1, c2, k=3, s=1):
        super().__init__(nn.Conv2d(c1, c2, k, s, k // 2, bias=False), nn.BatchNorm2d(c2), nn.SiLU())


class Res(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a = CBS(c, c, 1)
        self.b = CBS(c, c, 3)

    def forward(self, x):
        return x + self.b(self.a(x))


class Pool(nn.Module):
    """Spatial pyramid pooling: three chained 5x5 max pools, concatenated."""

    def __init__(self, c):
        super().__init__()
        h = c // 2
        self.a = CBS(c, h, 1)
        self.m = nn.MaxPool2d(5, 1, 2)
        self.b = CBS(h * 4, c, 1)

    def forward(self, x):
        x = self.a(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        y3 = self.m(y2)
        return self.b(torch.cat([x, y1, y2, y3], 1))


class Detector(nn.Module):
    def __init__(self, nc, input_size=INPUT, w=(8, 24, 32, 64, 96), depth3=1, extra3=0, depth2=0):
        super().__init__()
        self.nc = nc
        c0, c1, c2, c3, c4 = w
        self.stem = nn.Sequential(CBS(3, c0, 3, 2), CBS(c0, c1, 3, 2), *[Res(c1) for _ in range(depth2)])  # /4
        self.s3 = nn.Sequential(CBS(c1, c2, 3, 2), *[Res(c2) for _ in range(depth3)])  # /8
        self.s4 = nn.Sequential(CBS(c2, c3, 3, 2), Res(c3))                       # /16
        self.s5 = nn.Sequential(CBS(c3, c4, 3, 2), Res(c4), Pool(c4))             # /32
        self.lat5 = CBS(c4, c3, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.td4 = nn.Sequential(CBS(c3 * 2, c3, 1), CBS(c3, c3, 3))
        self.lat4 = CBS(c3, c2, 1)
        self.td3 = nn.Sequential(CBS(c2 * 2, c2, 1), CBS(c2, c2, 3), *[Res(c2) for _ in range(extra3)])
        self.dn3 = CBS(c2, c2, 3, 2)
        self.bu4 = nn.Sequential(CBS(c2 + c2, c3, 1), CBS(c3, c3, 3))
        self.dn4 = CBS(c3, c3, 3, 2)
        self.bu5 = nn.Sequential(CBS(c3 + c3, c4, 1), CBS(c4, c4, 3))
        no = 4 + nc
        self.heads = nn.ModuleList(nn.Conv2d(c, no, 1) for c in (c2, c3, c4))
        for conv in self.heads:
            nn.init.zeros_(conv.bias)
            nn.init.normal_(conv.weight, std=0.01)
            conv.bias.data[4:] = -math.log(99.0)  # prior 0.01
        self.set_grid(input_size)

    def set_grid(self, input_size):
        anchors, strides = [], []
        for s in STRIDES:
            n = input_size // s
            ys, xs = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
            anchors.append(torch.stack([xs.flatten(), ys.flatten()], 0).float().add(0.5).mul(s))
            strides.append(torch.full((1, n * n), float(s)))
        self.register_buffer("anchors", torch.cat(anchors, 1).unsqueeze(0), persistent=False)  # 1,2,A
        self.register_buffer("strides", torch.cat(strides, 1).unsqueeze(0), persistent=False)  # 1,1,A

    def raw(self, x):
        x = self.stem(x)
        p3 = self.s3(x)
        p4 = self.s4(p3)
        p5 = self.s5(p4)
        l5 = self.lat5(p5)
        n4 = self.td4(torch.cat([self.up(l5), p4], 1))
        l4 = self.lat4(n4)
        o3 = self.td3(torch.cat([self.up(l4), p3], 1))
        o4 = self.bu4(torch.cat([self.dn3(o3), l4], 1))
        o5 = self.bu5(torch.cat([self.dn4(o4), l5], 1))
        outs = [h(o) for h, o in zip(self.heads, (o3, o4, o5))]
        b = x.shape[0]
        return torch.cat([o.reshape(b, 4 + self.nc, -1) for o in outs], 2)  # B, 4+nc, A

    def decode(self, r):
        s = torch.sigmoid(r)
        xy = (s[:, 0:2] * (2 * OFFSET) - OFFSET) * self.strides + self.anchors
        t = s[:, 2:4] * 2.0
        wh = t * t * (self.strides * WH_SCALE)
        return torch.cat([xy, wh, s[:, 4:4 + self.nc]], 1)

    def forward(self, x):
        return self.decode(self.raw(x))


# ----------------------------------------------------------------------------- data

def read_labels(path, w, h):
    """A YOLO txt label file as float32 [n, 5] (class, cx, cy, w, h) in pixels of a w x h image."""
    lab = np.loadtxt(path, ndmin=2).astype(np.float32) if os.path.getsize(path) else np.zeros((0, 5), np.float32)
    lab[:, [1, 3]] *= w
    lab[:, [2, 4]] *= h
    return lab


def load_split(root, split="train"):
    """Returns list of (uint8 HxWx3 array, labels float32 [n,5] class cx cy w h in pixels)."""
    from PIL import Image
    cache = os.path.join(root, f"cache_{split}.npz")
    files = sorted(glob.glob(os.path.join(root, "images", split, "*.png")))
    if os.path.exists(cache.replace(".npz", "_images.npy")):
        ims = np.load(cache.replace(".npz", "_images.npy"), mmap_mode="r")
        labs = np.load(cache.replace(".npz", "_labels.npy"), allow_pickle=True)
        return [ims[i] for i in range(len(ims))], list(labs)
    images, labels = [], []
    for f in files:
        im = np.asarray(Image.open(f).convert("RGB"))
        h, w = im.shape[:2]
        lf = os.path.join(root, "labels", split, os.path.basename(f)[:-4] + ".txt")
        lab = read_labels(lf, w, h)
        images.append(im)
        labels.append(lab)
    if len({im.shape for im in images}) == 1:
        lab_arr = np.empty(len(labels), dtype=object)
        lab_arr[:] = labels
        np.save(cache.replace(".npz", "_images.npy"), np.stack(images))
        np.save(cache.replace(".npz", "_labels.npy"), lab_arr, allow_pickle=True)
    return images, labels


def letterbox_geometry(w, h, size=INPUT):
    gain = min(size / h, size / w)
    nw, nh = int(round(w * gain)), int(round(h * gain))
    dw, dh = (size - nw) / 2, (size - nh) / 2
    left, top = int(round(dw - 0.1)), int(round(dh - 0.1))
    return gain, nw, nh, left, top


def to_input(im_t, lab, mode, rng, train):
    """im_t: 3xHxW float tensor in [0,1]. Returns 3xSxS tensor and labels mapped to input pixels."""
    _, h, w = im_t.shape
    lab = lab.copy()
    if mode == "stretch":
        out = F.interpolate(im_t[None], size=(INPUT, INPUT), mode="bilinear", align_corners=False, antialias=not train)[0]
        lab[:, [1, 3]] *= INPUT / w
        lab[:, [2, 4]] *= INPUT / h
        return out, lab
    gain, nw, nh, left, top = letterbox_geometry(w, h)
    if train:
        # Scale jitter and random placement so the model sees other aspect ratios / sizes.
        sc = rng.uniform(0.7, 1.0) if rng.random() < 0.5 else 1.0
        sx = sc * (rng.uniform(0.85, 1.0) if rng.random() < 0.3 else 1.0)
        sy = sc * (rng.uniform(0.85, 1.0) if rng.random() < 0.3 else 1.0)
        nw, nh = int(round(nw * sx)), int(round(nh * sy))
        left = rng.randint(0, INPUT - nw)
        top = rng.randint(0, INPUT - nh)
    out = torch.full((3, INPUT, INPUT), 114 / 255.0)
    out[:, top:top + nh, left:left + nw] = F.interpolate(
        im_t[None], size=(nh, nw), mode="bilinear", align_corners=False, antialias=not train)[0]
    lab[:, [1, 3]] *= nw / w
    lab[:, [2, 4]] *= nh / h
    lab[:, 1] += left
    lab[:, 2] += top
    return out, lab


def make_sample(images, labels, i, rng, size):
    """One training sample of side `size` (640: whole input; 320: a native-scale crop or the
    whole input halved). Returns (3xSxS tensor, labels [n,5] px, class weights [nc])."""
    im = torch.from_numpy(np.array(images[i])).permute(2, 0, 1).float().div(255)
    mode = "stretch" if rng.random() < 0.5 else "letterbox"
    x, lab = to_input(im, labels[i], mode, rng, True)
    cw = np.ones(NC_MAX, np.float32)
    if size != INPUT:
        if rng.random() < 0.3:
            # whole input at half scale: large objects only (small ones ignored)
            x = F.avg_pool2d(x[None], 2)[0]
            lab = lab.copy()
            lab[:, 1:5] *= 0.5
            small = lab[:, 3:5].max(1) < 48
            for c in np.unique(lab[small, 0]).astype(int):
                cw[c] = 0
            lab = lab[~small]
        else:
            # native-scale crop, usually around an object of a small class
            small = lab[lab[:, 3:5].max(1) < 96]
            if len(small) and rng.random() < 0.7:
                c = small[rng.randrange(len(small))]
                x0 = int(np.clip(c[1] - rng.uniform(0.15, 0.85) * size, 0, INPUT - size))
                y0 = int(np.clip(c[2] - rng.uniform(0.15, 0.85) * size, 0, INPUT - size))
            else:
                x0, y0 = rng.randint(0, INPUT - size), rng.randint(0, INPUT - size)
            x = x[:, y0:y0 + size, x0:x0 + size]
            lab = lab.copy()
            lab[:, 1] -= x0
            lab[:, 2] -= y0
            x1, y1 = lab[:, 1] - lab[:, 3] / 2, lab[:, 2] - lab[:, 4] / 2
            x2, y2 = lab[:, 1] + lab[:, 3] / 2, lab[:, 2] + lab[:, 4] / 2
            inside = (lab[:, 1] >= 0) & (lab[:, 1] < size) & (lab[:, 2] >= 0) & (lab[:, 2] < size)
            whole = (x1 >= -2) & (y1 >= -2) & (x2 <= size + 2) & (y2 <= size + 2)
            big = lab[:, 3:5].max(1) >= 96
            # a big object cut by the crop: ignore its class in this sample
            for c in np.unique(lab[big & ~whole & (x2 > 0) & (y2 > 0) & (x1 < size) & (y1 < size), 0]).astype(int):
                cw[c] = 0
            keep = np.where(big, whole, inside)
            keep &= cw[lab[:, 0].astype(int)] > 0
            lab = lab[keep]
    if rng.random() < 0.5:
        x = x.flip(2)
        lab[:, 1] = size - lab[:, 1]
    if rng.random() < 0.5:
        x = x.flip(1)
        lab[:, 2] = size - lab[:, 2]
    a = rng.uniform(0.75, 1.25)
    b = rng.uniform(-0.08, 0.08)
    x = (x * a + b).clamp(0, 1)
    if rng.random() < 0.3:
        x = (x + torch.randn_like(x) * rng.uniform(0.0, 0.03)).clamp(0, 1)
    return x, torch.from_numpy(np.ascontiguousarray(lab)), torch.from_numpy(cw)


NC_MAX = 8


def make_batch(images, labels, idx, rng, size):
    xs, ls, ws = zip(*(make_sample(images, labels, i, rng, size) for i in idx))
    return torch.stack(xs), list(ls), torch.stack(ws)


# ----------------------------------------------------------------------------- loss

def box_iou_cxcywh(a, b, giou=False):
    ax1, ay1, ax2, ay2 = a[..., 0] - a[..., 2] / 2, a[..., 1] - a[..., 3] / 2, a[..., 0] + a[..., 2] / 2, a[..., 1] + a[..., 3] / 2
    bx1, by1, bx2, by2 = b[..., 0] - b[..., 2] / 2, b[..., 1] - b[..., 3] / 2, b[..., 0] + b[..., 2] / 2, b[..., 1] + b[..., 3] / 2
    iw = (torch.min(ax2, bx2) - torch.max(ax1, bx1)).clamp(min=0)
    ih = (torch.min(ay2, by2) - torch.max(ay1, by1)).clamp(min=0)
    inter = iw * ih
    union = a[..., 2] * a[..., 3] + b[..., 2] * b[..., 3] - inter + 1e-7
    iou = inter / union
    if not giou:
        return iou
    cw = torch.max(ax2, bx2) - torch.min(ax1, bx1)
    ch = torch.max(ay2, by2) - torch.min(ay1, by1)
    c = cw * ch + 1e-7
    return iou - (c - union) / c


def level_ok(size, stride):
    if stride == 8:
        return size <= 64
    if stride == 16:
        return (size >= 32) & (size <= 256)
    return size >= 128


def anchor_candidates(model, gts, radius=1.0):
    """Anchors each truth may take: within `radius` strides on each axis, on a level
    its size suits, plus always its nearest anchor on such a level. Returns
    (candidate mask [M, A], squared distance in strides [M, A], valid-level mask [M, A])."""
    anc = model.anchors[0].T  # A,2
    st = model.strides[0, 0]  # A
    size = gts[:, 3:5].max(1).values  # M
    d = (anc[None] - gts[:, None, 1:3]).abs() / st[None, :, None]  # M,A,2
    lv = torch.zeros(len(gts), anc.shape[0], dtype=torch.bool)
    for s in STRIDES:
        lv |= level_ok(size, s)[:, None] & (st[None] == s)
    cand = (d < radius).all(2) & lv
    dist = d.pow(2).sum(2)
    cand[torch.arange(len(gts)), dist.masked_fill(~lv, 1e9).argmin(1)] = True
    return cand, dist, lv


def assign(model, gts, radius=1.0):
    """Centre sampling per level. Returns (pos_mask [A], gt index [A])."""
    A = model.anchors.shape[2]
    if len(gts) == 0:
        return torch.zeros(A, dtype=torch.bool), torch.zeros(A, dtype=torch.long)
    cand, dist, _ = anchor_candidates(model, gts, radius)
    best = dist.masked_fill(~cand, 1e9).argmin(0)
    return cand.any(0), best


def assign_unique(model, gts, pos, gi, classes, radius=1.0):
    """Gives every truth of `classes` exactly one anchor (and every anchor at most one
    such truth): pairs within `radius` strides on a valid level, nearest first. The other
    anchors near it become negatives, so the score peaks once per object and two touching
    objects keep two peaks (with centre sampling, NMS had to merge 2-4 positives per
    object, and with boxes large enough for that it merged touching neighbours too)."""
    if len(gts) == 0:
        return pos, gi
    uq = torch.zeros(len(gts), dtype=torch.bool)
    for c in classes:
        uq |= gts[:, 0] == c
    if not uq.any():
        return pos, gi
    pos = pos & ~uq[gi]
    idx = uq.nonzero()[:, 0]
    cand, dist, lv = anchor_candidates(model, gts[idx], radius)
    dist = dist.masked_fill(~lv, 1e9)
    m, a = cand.nonzero(as_tuple=True)
    taken, done = set(), set()
    for k in torch.argsort(dist[m, a]).tolist():
        mi, ai = int(m[k]), int(a[k])
        if mi in done or ai in taken or pos[ai]:
            continue
        done.add(mi)
        taken.add(ai)
        pos[ai] = True
        gi[ai] = idx[mi]
    return pos, gi


def compute_loss(model, raw, labels, cw, iou_target=False, unique=()):
    pred = model.decode(raw)  # B, 4+nc, A
    B = raw.shape[0]
    cls_t = torch.zeros_like(raw[:, 4:])
    lbox, lcen, npos = raw.new_zeros(()), raw.new_zeros(()), 0
    for b in range(B):
        g = labels[b]
        pos, gi = assign(model, g)
        if unique:
            pos, gi = assign_unique(model, g, pos, gi, unique)
        if pos.any():
            gt = g[gi[pos]]
            pb = pred[b, :4, pos].T
            tb = gt[:, 1:5]
            st = model.strides[0, 0, pos]
            if iou_target:
                # score target = IoU of the predicted box: a poorly placed duplicate learns a low score
                q = box_iou_cxcywh(pb.detach(), tb).clamp(min=0.05)
                cls_t[b, gt[:, 0].long(), pos.nonzero()[:, 0]] = q
            else:
                cls_t[b, gt[:, 0].long(), pos.nonzero()[:, 0]] = 1.0
            lbox = lbox + (1 - box_iou_cxcywh(pb, tb, giou=True)).sum()
            lcen = lcen + F.smooth_l1_loss((pb[:, :2] - tb[:, :2]) / st[:, None], torch.zeros_like(tb[:, :2]),
                                           reduction="sum", beta=0.1)
            npos += int(pos.sum())
    npos = max(npos, 1)
    w = cw[:, :model.nc, None].expand_as(cls_t)
    lcls = F.binary_cross_entropy_with_logits(raw[:, 4:], cls_t, weight=w, reduction="sum") / npos
    return lcls + 2.0 * lbox / npos + 2.0 * lcen / npos, (lcls.item(), (lbox / npos).item(), (lcen / npos).item())


# ----------------------------------------------------------------------------- train

def detector_from(nc, arch):
    """The Detector an architecture record describes (the keys a checkpoint stores;
    records written before a key existed get its old default)."""
    return Detector(nc, w=tuple(arch.get("widths", (8, 24, 32, 64, 96))), depth3=arch.get("depth3", 1),
                    extra3=arch.get("extra3", 0), depth2=arch.get("depth2", 0))


def grow(model, state):
    """Loads `state` into `model`, which may have more residual blocks than the
    checkpoint (--depth2, --depth3, --extra3). A new block starts as the identity (the gain
    of its last BatchNorm is zero), so the grown model computes exactly what the
    checkpoint did and training continues from there."""
    missing, unexpected = model.load_state_dict(state, strict=False)
    if unexpected:
        raise SystemExit(f"checkpoint has weights this model lacks: {unexpected[:3]}")
    new = {k.rsplit(".", 3)[0] for k in missing if not k.startswith(("anchors", "strides"))}
    for name, mod in model.named_modules():
        if isinstance(mod, Res) and any(n.startswith(name + ".") or n == name for n in new):
            nn.init.zeros_(mod.b[1].weight)
            print(f"grown: {name} starts as the identity", flush=True)


class EMA:
    def __init__(self, model, decay=0.999, tau=500):
        import copy
        self.m = copy.deepcopy(model).eval()
        self.decay, self.tau, self.n = decay, tau, 0
        for p in self.m.parameters():
            p.requires_grad_(False)

    def update(self, model):
        self.n += 1
        d = self.decay * (1 - math.exp(-self.n / self.tau))
        with torch.no_grad():
            msd = model.state_dict()
            for k, v in self.m.state_dict().items():
                if v.dtype.is_floating_point:
                    v.mul_(d).add_(msd[k].detach(), alpha=1 - d)
                else:
                    v.copy_(msd[k])


def train(args):
    torch.set_num_threads(args.threads)
    seed_all(args.seed)
    rng = random.Random(args.seed)
    images, labels = [], []
    for d in args.data:
        im, lb = load_split(d, "train")
        images += im
        labels += lb
        im, lb = load_split(d, "val")
        images += im
        labels += lb
    for spec in args.box_scale or []:
        # a class's boxes drawn smaller about the same centre (labels stay as written on disk)
        c, k = spec.split(":")
        for lab in labels:
            sel = lab[:, 0] == int(c)
            lab[sel, 3:5] = np.maximum(lab[sel, 3:5] * float(k), args.box_min)
    print(f"{len(images)} training images", flush=True)
    arch = {"widths": list(args.widths), "depth3": args.depth3, "extra3": args.extra3, "depth2": args.depth2}
    model = detector_from(args.nc, arch)
    if args.init:
        grow(model, torch.load(args.init, map_location="cpu")["model"])
    ema = EMA(model)

    def freeze_bn():
        # an imported (BN-folded) model keeps its BatchNorms as fixed affine maps
        for mod in model.modules():
            if isinstance(mod, nn.BatchNorm2d):
                mod.eval()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    warm = 200
    t0 = time.time()
    model.train()
    if args.freeze_bn:
        freeze_bn()
    order, pos = [], 0
    for step in range(1, args.steps + 1):
        # constant learning rate after warm-up (EMA weights are saved), so a run stopped
        # at step k equals a run with --steps k
        lr = args.lr * min(1.0, step / warm)
        if args.decay:
            # fine-tuning phase: linear decay to zero over the whole run
            lr = args.lr * min(1.0, step / 20) * (1 - (step - 1) / args.steps)
        elif args.cosine:
            lr = args.lr * min(1.0, step / warm) * 0.5 * (1 + math.cos(math.pi * (step - 1) / args.steps))
        for g in opt.param_groups:
            g["lr"] = lr
        size = INPUT if step % args.full_every == 0 else args.crop
        bs = args.batch // 2 if size == INPUT else args.batch
        if pos + bs > len(order):
            order, pos = list(range(len(images))), 0
            rng.shuffle(order)
        idx = order[pos:pos + bs]
        pos += bs
        x, ls, cw = make_batch(images, labels, idx, rng, size)
        model.set_grid(size)
        raw = model.raw(x)
        loss, parts = compute_loss(model, raw, ls, cw, args.iou_target, tuple(args.unique))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
        ema.update(model)
        if step % 10 == 0:
            print(f"step {step} size {size} loss {loss.item():.3f} cls {parts[0]:.3f} "
                  f"box {parts[1]:.3f} cen {parts[2]:.3f} lr {lr:.5f} {time.time() - t0:.0f}s", flush=True)
        if step % args.save_every == 0 or step == args.steps:
            ck = {"model": ema.m.state_dict(), "nc": args.nc, "step": step, "args": vars(args), **arch}
            torch.save(ck, args.out)
            torch.save(ck, args.out.replace(".pt", f"_{step}.pt"))
            print(f"saved {args.out} at step {step} ({time.time() - t0:.0f}s)", flush=True)


# ----------------------------------------------------------------------------- shared by the training scripts

def ort_session(path, threads):
    """An onnxruntime CPU session with `threads` intra-op threads."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def export_onnx(model, example, out, input_name, output_name):
    """Exports `model` (eval mode) at opset 17 with static shapes, checks the file
    and prints its operators."""
    torch.onnx.export(model, example, out, opset_version=17, do_constant_folding=True,
                      input_names=[input_name], output_names=[output_name], dynamo=False)
    import onnx
    m = onnx.load(out)
    onnx.checker.check_model(m)
    print("ops:", sorted({n.op_type for n in m.graph.node}), "nodes:", len(m.graph.node))


def near_impact(distance, box_size):
    """The impact match rule: within half the true box size, at least 4 px."""
    return distance <= max(4.0, 0.5 * box_size)


def greedy_match(pairs):
    """pairs: (distance, truth index, prediction index), any order. One-to-one,
    nearest first. Returns (matched truths, matched predictions, their distances)."""
    mt, mp, dists = set(), set(), []
    for d, ti, pi in sorted(pairs):
        if ti in mt or pi in mp:
            continue
        mt.add(ti)
        mp.add(pi)
        dists.append(d)
    return mt, mp, dists


# ----------------------------------------------------------------------------- export

def export(args):
    ck = torch.load(args.weights, map_location="cpu")
    model = detector_from(ck["nc"], ck)
    model.load_state_dict(ck["model"])
    model.set_grid(INPUT)
    model.eval()
    # Score calibration: a constant added to one class's logit (folded into the
    # bias of that class's output channel in every head), chosen on the
    # selection set so the operating threshold falls where precision and
    # recall balance. Sigmoid is monotone, so the ranking is unchanged.
    for spec in args.logit_shift or []:
        c, v = spec.split(":")
        with torch.no_grad():
            for conv in model.heads:
                conv.bias[4 + int(c)] += float(v)
        print(f"class {c} logit shifted by {float(v):+.4f}")
    export_onnx(model, torch.zeros(1, 3, INPUT, INPUT), args.out, "images", "output0")


def import_onnx(args):
    """A checkpoint from a shipped ONNX detector, to fine-tune when the training
    checkpoint is gone. The exporter folded each BatchNorm into its Conv and names
    every Conv node by its module path ('/stem/stem.0/stem.0.0/Conv'), so each
    folded Conv goes back into its module with the BatchNorm after it set to the
    identity (train such a model with --freeze-bn). --logit-shift undoes the export's."""
    import onnx
    from onnx import numpy_helper
    arch = {"widths": list(args.widths), "depth3": args.depth3, "extra3": args.extra3, "depth2": args.depth2}
    model = detector_from(args.nc, arch)
    m = onnx.load(args.onnx)
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    modules = dict(model.named_modules())
    done = 0
    with torch.no_grad():
        for n in m.graph.node:
            if n.op_type != "Conv":
                continue
            # '/stem/stem.2/a/a.0/Conv': each scope extends its parent's or names a child of it
            parts = []
            for comp in n.name.strip("/").split("/")[:-1]:
                if parts and comp.startswith(prev + "."):
                    parts[-1] = comp
                else:
                    parts.append(comp)
                prev = comp
            name = ".".join(parts)
            conv = modules[name]
            conv.weight.copy_(torch.from_numpy(init[n.input[1]].copy()))
            bias = torch.from_numpy(init[n.input[2]].copy())
            if conv.bias is not None:
                conv.bias.copy_(bias)
            else:
                parent, idx = name.rsplit(".", 1)
                bn = modules[f"{parent}.{int(idx) + 1}"]
                bn.weight.fill_(1.0)
                bn.bias.copy_(bias)
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
            done += 1
        for spec in args.logit_shift or []:
            c, v = spec.split(":")
            for conv in model.heads:
                conv.bias[4 + int(c)] -= float(v)
    print(f"imported {done} convolutions from {args.onnx}", flush=True)
    torch.save({"model": model.state_dict(), "nc": args.nc, "step": 0, "args": vars(args), **arch}, args.out)


# ----------------------------------------------------------------------------- eval

def nms(boxes, scores, iou=0.5):
    """boxes cxcywh tensor [n,4]; greedy NMS."""
    order = scores.argsort(descending=True)
    keep = []
    while len(order):
        i = order[0]
        keep.append(int(i))
        if len(order) == 1:
            break
        ious = box_iou_cxcywh(boxes[i][None], boxes[order[1:]])
        order = order[1:][ious < iou]
    return keep


def postprocess(out, conf=0.35, iou=0.5):
    """out: [4+nc, A] numpy -> list of (cls, score, cx, cy, w, h)."""
    out = torch.from_numpy(out)
    sc, cl = out[4:].max(0)
    m = sc >= conf
    boxes, sc, cl = out[:4, m].T, sc[m], cl[m]
    dets = []
    for c in cl.unique():
        k = cl == c
        b, s = boxes[k], sc[k]
        for i in nms(b, s, iou):
            dets.append((int(c), float(s[i]), *[float(v) for v in b[i]]))
    return dets


def hidden_entries(root):
    """{image file name: [entry_hidden per class-0 label, in label order]} from the
    COCO attributes (datasets written before the attribute existed: empty)."""
    out = {}
    for split in ("train", "val"):
        path = os.path.join(root, "annotations", f"instances_{split}.json")
        if not os.path.exists(path):
            continue
        d = json.load(open(path))
        names = {im["id"]: im["file_name"] for im in d["images"]}
        for a in sorted(d["annotations"], key=lambda a: a["id"]):
            if a["category_id"] == 0 and "entry_hidden" in a.get("attributes", {}):
                out.setdefault(names[a["image_id"]], []).append(bool(a["attributes"]["entry_hidden"]))
    return out


def predictions(args):
    """(labels in input pixels, raw [4+nc, A] output, hidden-entry flags or None)
    per image: one inference pass."""
    from PIL import Image
    sess = ort_session(args.weights, args.threads)
    files = sorted(glob.glob(os.path.join(args.data, "images", "*", "*.png")))
    if args.limit:
        files = files[:args.limit]
    hidden = hidden_entries(args.data)
    preds = []
    for f in files:
        img = Image.open(f).convert("RGB")
        w, h = img.size
        split = os.path.basename(os.path.dirname(f))
        lf = os.path.join(args.data, "labels", split, os.path.basename(f)[:-4] + ".txt")
        lab = read_labels(lf, w, h)
        if args.mode == "stretch":
            x = np.asarray(img.resize((INPUT, INPUT), Image.BILINEAR), np.float32) / 255
            lab[:, [1, 3]] *= INPUT / w
            lab[:, [2, 4]] *= INPUT / h
        else:
            gain, nw, nh, left, top = letterbox_geometry(w, h)
            canvas = np.full((INPUT, INPUT, 3), 114, np.uint8)
            canvas[top:top + nh, left:left + nw] = np.asarray(img.resize((nw, nh), Image.BILINEAR))
            x = canvas.astype(np.float32) / 255
            lab[:, 1:5] *= gain
            lab[:, 1] += left
            lab[:, 2] += top
        out = sess.run(None, {"images": x.transpose(2, 0, 1)[None].copy()})[0][0]
        flags = hidden.get(f"{split}/{os.path.basename(f)}")
        preds.append((lab, out, flags))
    return preds


def metrics(preds, conf, args):
    """Class-0 recall, precision and impact error (and faces found) at `conf`."""
    tp = fp = fn = 0
    vis_found = vis_total = 0
    errs = []
    face_found = face_total = 0
    for lab, out, flags in preds:
        dets = postprocess(out, conf, args.iou)
        # class 0: points matched greedily by distance (within half the box size, at least 4 px)
        gts = lab[lab[:, 0] == 0]
        pr = [d for d in dets if d[0] == 0]
        used = set()
        pairs = []
        for gi, g in enumerate(gts):
            for pi, p in enumerate(pr):
                dd = math.hypot(p[2] - g[1], p[3] - g[2])
                if args.match == "iou":
                    iou = float(box_iou_cxcywh(torch.tensor(p[2:6]), torch.tensor(g[1:5])))
                    if iou >= 0.5:
                        pairs.append((dd, gi, pi))
                elif near_impact(dd, max(g[3], g[4])):
                    pairs.append((dd, gi, pi))
        mg, mp, dists = greedy_match(pairs)
        errs += dists
        tp += len(mg)
        fn += len(gts) - len(mg)
        if flags is not None and len(flags) == len(gts):
            vis = [gi for gi in range(len(gts)) if not flags[gi]]
            vis_total += len(vis)
            vis_found += sum(gi in mg for gi in vis)
        fp += len(pr) - len(mp)
        if args.nc > 1:
            faces = lab[lab[:, 0] == 1]
            for fc in faces:
                face_total += 1
                cand = [d for d in dets if d[0] == 1]
                if cand:
                    ious = box_iou_cxcywh(torch.tensor([d[2:6] for d in cand]), torch.tensor(fc[1:5])[None])
                    if ious.max() >= 0.5:
                        face_found += 1
    rec = tp / max(1, tp + fn)
    prec = tp / max(1, tp + fp)
    res = {"model": os.path.basename(args.weights), "data": args.data, "images": len(preds), "mode": args.mode,
           "match": args.match,
           "conf": conf, "nms_iou": args.iou, "class0_gt": tp + fn, "tp": tp, "fp": fp, "fn": fn,
           "recall": round(rec, 4), "precision": round(prec, 4),
           "median_center_error_px": round(float(np.median(errs)), 3) if errs else None,
           "p90_center_error_px": round(float(np.percentile(errs, 90)), 3) if errs else None}
    if args.nc > 1:
        res.update({"faces": face_total, "faces_found_iou50": face_found})
    if vis_total:
        # recall over impacts whose entry point is not painted over (the rest can only be guessed)
        res.update({"visible_entries": vis_total, "recall_visible_entries": round(vis_found / vis_total, 4)})
    return res


def evaluate(args):
    print(json.dumps(metrics(predictions(args), args.conf, args)))




def ceiling(args):
    """Class-0 recall of a perfect detector (the labelled boxes, confidences drawn
    with a fixed seed) after greedy NMS at --iou: what the label boxes alone allow.
    With boxes wider than the spacing of touching arrows it is below 1."""
    from PIL import Image
    rng = np.random.RandomState(0)
    kept = total = 0
    for split in ("train", "val"):
        for f in sorted(glob.glob(os.path.join(args.data, "images", split, "*.png"))):
            w, h = Image.open(f).size  # reads the header only
            lab = read_labels(os.path.join(args.data, "labels", split, os.path.basename(f)[:-4] + ".txt"), w, h)
            b = torch.from_numpy(lab[lab[:, 0] == 0, 1:5]).double()
            if len(b):
                kept += len(nms(b, torch.tensor(rng.rand(len(b))), args.iou))
                total += len(b)
    print(json.dumps({"data": args.data, "nms_iou": args.iou, "class0_gt": total, "kept": kept,
                      "recall_ceiling": round(kept / max(1, total), 4)}))


def sweep(args):
    """Recall, precision and F1 of class 0 at several confidence thresholds (for
    choosing a calibration on a selection set, never on the held-out set); the
    model runs once per image, each threshold reuses its outputs."""
    preds = predictions(args)
    best = None
    for t in [float(v) for v in args.thresholds.split(",")]:
        r = metrics(preds, t, args)
        f1 = 2 * r["recall"] * r["precision"] / max(1e-9, r["recall"] + r["precision"])
        vis = f" (visible entries {r['recall_visible_entries']:.3f})" if "recall_visible_entries" in r else ""
        print(f"conf {t:.2f} recall {r['recall']:.3f}{vis} precision {r['precision']:.3f} f1 {f1:.3f} "
              f"median error {r['median_center_error_px']}", flush=True)
        if best is None or f1 > best[1]:
            best = (t, f1)
    shift = math.log(args.target / (1 - args.target)) - math.log(best[0] / (1 - best[0]))
    print(f"best F1 {best[1]:.3f} at conf {best[0]:.2f}: --logit-shift 0:{shift:.4f} moves it to {args.target}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--data", action="append", required=True)
    t.add_argument("--nc", type=int, required=True)
    t.add_argument("--steps", type=int, default=3000)
    t.add_argument("--crop", type=int, default=320)
    t.add_argument("--init", help="start from these (EMA) weights")
    t.add_argument("--decay", action="store_true", help="linear learning-rate decay to zero")
    t.add_argument("--cosine", action="store_true", help="cosine learning-rate decay to zero after warm-up")
    t.add_argument("--widths", type=lambda v: [int(c) for c in v.split(",")], default=[8, 24, 32, 64, 96],
                   help="channels at /2, /4, /8, /16, /32")
    t.add_argument("--depth3", type=int, default=1, help="residual blocks at stride 8")
    t.add_argument("--extra3", type=int, default=0, help="residual blocks on the stride-8 output path")
    t.add_argument("--depth2", type=int, default=0, help="residual blocks at stride 4")
    t.add_argument("--iou-target", action="store_true",
                   help="class target of a positive anchor = IoU of its predicted box (quality-aware score)")
    t.add_argument("--unique", type=int, action="append", default=[], metavar="CLASS",
                   help="one positive anchor per object of this class (the rest negatives)")
    t.add_argument("--box-scale", action="append", metavar="CLASS:K",
                   help="train this class's boxes K times their labelled size (same centre)")
    t.add_argument("--box-min", type=float, default=6.0, help="smallest side a --box-scale box gets, pixels")
    t.add_argument("--full-every", type=int, default=5)
    t.add_argument("--save-every", type=int, default=100)
    t.add_argument("--batch", type=int, default=8)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--freeze-bn", action="store_true", help="BatchNorms stay fixed affine maps (for a model imported from ONNX)")
    t.add_argument("--out", required=True)
    e = sub.add_parser("export")
    e.add_argument("--weights", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--logit-shift", action="append", metavar="CLASS:VALUE",
                   help="add VALUE to CLASS's logit before the sigmoid (score calibration)")
    v = sub.add_parser("eval")
    w = sub.add_parser("sweep")
    for q in (v, w):  # what both measure on
        q.add_argument("--weights", required=True)
        q.add_argument("--data", required=True)
        q.add_argument("--nc", type=int, required=True)
        q.add_argument("--mode", default="letterbox", choices=["letterbox", "stretch"])
        q.add_argument("--iou", type=float, default=0.5)
        q.add_argument("--limit", type=int, default=0)
        q.add_argument("--match", default="center", choices=["center", "iou"],
                       help="class 0 match rule: centre within half the box size (>= 4 px), or IoU >= 0.5")
        q.add_argument("--threads", type=int, default=2)
    v.add_argument("--conf", type=float, default=0.35)
    w.add_argument("--thresholds", default="0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5")
    w.add_argument("--target", type=float, default=0.35, help="the threshold the calibrated model is used at")
    i = sub.add_parser("import-onnx")
    i.add_argument("--onnx", required=True)
    i.add_argument("--nc", type=int, required=True)
    i.add_argument("--widths", type=lambda v: [int(c) for c in v.split(",")], required=True)
    i.add_argument("--depth3", type=int, default=1)
    i.add_argument("--extra3", type=int, default=0)
    i.add_argument("--depth2", type=int, default=0)
    i.add_argument("--logit-shift", action="append", metavar="CLASS:VALUE", help="the export's shift, taken back out")
    i.add_argument("--out", required=True)
    c = sub.add_parser("ceiling")
    c.add_argument("--data", required=True)
    c.add_argument("--iou", type=float, default=0.5)
    a = ap.parse_args()
    {"train": train, "export": export, "eval": evaluate, "sweep": sweep, "ceiling": ceiling, "import-onnx": import_onnx}[a.cmd](a)


if __name__ == "__main__":
    main()
