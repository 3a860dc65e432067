"""A pair verifier (`bullseye eval archery --pair-verifier`; none ships, see
Training/experiments/README.md, "Pair verifier"): does the entry at the centre of this window
have a touching partner?

The refiner's partner channel answers that question from a window centred on the
detector's candidate, and answers it badly both ways on the selection photos:
it adds a partner to single arrows (half the detections that land near an arrow)
and misses the second arrow of a V, two shafts leaving one point. What tells the
two apart is the shafts: a touching pair has two leaving the entry, a single
arrow one. This network reads a window centred on the entry the refiner found,
twice the refiner's side (64 input px, 128 photo px at 1280x960), so both shafts
are in sight well away from the point where they meet.

Input 1x3x128x128 RGB levels / 255 (`refiner.crop`, the same resampling as the
Swift `ModelInput.window`); output `pair` (1, 1): the probability that another
counted arrow's entry lies within PAIR_R input px of the centre's entry.

  python Training/experiments/pairs.py mine   --data DIR [--data DIR ...] --out pairs.npz [--seed S]
  python Training/experiments/pairs.py train  --crops pairs.npz [--crops ...] --steps N --out run.pt
  python Training/experiments/pairs.py eval   --weights run.pt --crops pairs_select.npz
  python Training/experiments/pairs.py export --weights run.pt --out pairs.onnx

It imports the shipped training modules (detector, peaks, refiner, refiner_nets)
from Training/, which import nothing from experiments/.
"""
import argparse
import glob
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))  # Training/
import detector as D  # noqa: E402
import peaks as P  # noqa: E402
from refiner import crop  # noqa: E402
from refiner_nets import CBR  # noqa: E402

SIDE = 64.0        # window side in 640-input px
CROP = 128         # crop side fed to the network
JITTER = 1.5       # input px: how far from the true entry the refiner's peak may sit
PAIR_R = 3.0       # input px: an entry with another this close is one of a touching pair
                   # (the Swift PairVerifier.pairInputPx; the refiner's pair channel uses 2.5)


class PairNet(nn.Module):
    """Five stride-2 stages (128 → 4) and a small fully connected head; the
    flattened 4x4 map keeps where things are, so the centre counts."""

    def __init__(self, w=(16, 32, 48, 64, 96)):
        super().__init__()
        a, b, c, d, e = w
        self.f = nn.Sequential(CBR(3, a, 2), CBR(a, a),    # 64
                               CBR(a, b, 2), CBR(b, b),    # 32
                               CBR(b, c, 2), CBR(c, c),    # 16
                               CBR(c, d, 2), CBR(d, d),    # 8
                               CBR(d, e, 2))               # 4
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(e * 16, 64), nn.ReLU(), nn.Linear(64, 1))

    def logit(self, x):
        return self.fc(self.f(x))

    def forward(self, x):
        return torch.sigmoid(self.logit(x))


# ----------------------------------------------------------------------------- mining

def entries(root, split, name, w, h):
    """(n, 2) pixel positions of the counted arrows' entries (class 0 of the labels)."""
    lab = D.read_labels(os.path.join(root, "labels", split, name + ".txt"), w, h)
    return lab[lab[:, 0] == 0][:, 1:3].astype(np.float64)


def mine(args):
    """Crops centred near true entries: each entry once (label: has it a partner
    within PAIR_R; one of a pair --pair-repeat times, each from its own jittered
    centre), each pair once more from its midpoint (label 1), and one window
    3-12 input px from an entry that has no entry near its centre (label 0)."""
    from PIL import Image
    rng = random.Random(args.seed)
    xs, ys = [], []
    t0 = time.time()
    files = [f for d in args.data for f in sorted(glob.glob(os.path.join(d, "images", "*", "*.png")))]
    for n, f in enumerate(files):
        img = np.asarray(Image.open(f).convert("RGB"))
        h, w = img.shape[:2]
        gain = D.INPUT / max(w, h)
        root = os.path.dirname(os.path.dirname(os.path.dirname(f)))
        e = entries(root, os.path.basename(os.path.dirname(f)), os.path.basename(f)[:-4], w, h)
        side = SIDE / gain

        def near(x, y, r):
            return [k for k in range(len(e)) if math.hypot(e[k, 0] - x, e[k, 1] - y) * gain <= r]

        def take(x, y, label):
            r, a = rng.uniform(0, JITTER) / gain, rng.uniform(0, 2 * math.pi)
            xs.append(np.round(crop(img, x + r * math.cos(a), y + r * math.sin(a), side, CROP) * 255).astype(np.uint8))
            ys.append(label)

        for k, (x, y) in enumerate(e):
            partners = [j for j in near(x, y, PAIR_R) if j != k]
            for _ in range(args.pair_repeat if partners else 1):
                take(x, y, 1 if partners else 0)
            for j in partners:
                if j > k:
                    take((x + e[j, 0]) / 2, (y + e[j, 1]) / 2, 1)
            for _ in range(8):  # a window with no entry near its centre
                r, a = rng.uniform(3, 12) / gain, rng.uniform(0, 2 * math.pi)
                cx, cy = x + r * math.cos(a), y + r * math.sin(a)
                if not near(cx, cy, 2.5):
                    take(cx, cy, 0)
                    break
        if (n + 1) % 100 == 0:
            print(f"{n + 1} images, {len(xs)} crops ({sum(ys)} pairs) {time.time() - t0:.0f}s", flush=True)
    np.savez(args.out, x=np.stack(xs), y=np.array(ys, np.float32))
    print(f"wrote {len(xs)} crops, {int(sum(ys))} pairs, to {args.out}")


# ----------------------------------------------------------------------------- training

def load(paths):
    xs, ys = [], []
    for p in paths:
        z = np.load(p)
        xs.append(z["x"])
        ys.append(z["y"])
    return np.concatenate(xs), np.concatenate(ys)


def train(args):
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    X, Y = load(args.crops)
    pos, neg = np.flatnonzero(Y > 0.5), np.flatnonzero(Y < 0.5)
    print(f"{len(X)} crops, {len(pos)} pairs", flush=True)
    model = PairNet()
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu")["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    t0 = time.time()
    run = 0.0
    for step in range(1, args.steps + 1):
        lr = args.lr * min(1.0, step / 100) * 0.5 * (1 + math.cos(math.pi * step / args.steps))
        for g in opt.param_groups:
            g["lr"] = lr
        npos = int(round(args.batch * args.pair_share))
        idx = np.concatenate([rng.choice(pos, npos), rng.choice(neg, args.batch - npos)])
        # the batch in one of the eight symmetries of the square (the refiner's views)
        x = torch.from_numpy(P.view_crop(X[idx], P.VIEWS[int(rng.integers(8))]).astype(np.float32) / 255)
        y = torch.from_numpy(Y[idx])[:, None]
        x = (x * float(rng.uniform(0.85, 1.15)) + float(rng.uniform(-0.05, 0.05))).clamp(0, 1)
        model.train()
        loss = F.binary_cross_entropy_with_logits(model.logit(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run = 0.98 * run + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 100 == 0:
            print(f"step {step} loss {run:.4f} lr {lr:.2e} {time.time() - t0:.0f}s", flush=True)
        if step % args.save_every == 0 or step == args.steps:
            out = args.out if step == args.steps else args.out.replace(".pt", f"_{step}.pt")
            torch.save({"model": model.state_dict()}, out)


def predict(model, X, batch=256):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(X), batch):
            out.append(model(torch.from_numpy(X[i:i + batch].astype(np.float32) / 255))[:, 0].numpy())
    return np.concatenate(out)


def evaluate(args):
    torch.set_num_threads(args.threads)
    model = PairNet()
    model.load_state_dict(torch.load(args.weights, map_location="cpu")["model"])
    X, Y = load(args.crops)
    p = predict(model, X)
    pos, neg = Y > 0.5, Y < 0.5
    # AUC as the share of (pair, single) couples ranked right
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    auc = (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / max(1, pos.sum() * neg.sum())
    print(f"{len(Y)} crops, {int(pos.sum())} pairs; AUC {auc:.4f}")
    for t in [float(v) for v in args.accept.split(",")]:
        tp, fp = int((p[pos] >= t).sum()), int((p[neg] >= t).sum())
        print(f"at {t}: pairs found {tp}/{int(pos.sum())} ({tp / max(1, pos.sum()):.3f}), "
              f"singles called pairs {fp}/{int(neg.sum())} ({fp / max(1, neg.sum()):.4f})")


def export(args):
    model = PairNet()
    model.load_state_dict(torch.load(args.weights, map_location="cpu")["model"])
    model.eval()
    D.export_onnx(model, torch.zeros(1, 3, CROP, CROP), args.out, "crop", "pair")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("mine")
    m.add_argument("--data", action="append", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--pair-repeat", type=int, default=3, help="windows per entry that has a partner")
    t = sub.add_parser("train")
    t.add_argument("--crops", action="append", required=True)
    t.add_argument("--steps", type=int, default=2000)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--pair-share", type=float, default=0.3, help="share of each batch drawn from the pairs")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--init")
    t.add_argument("--save-every", type=int, default=500)
    t.add_argument("--out", required=True)
    v = sub.add_parser("eval")
    v.add_argument("--weights", required=True)
    v.add_argument("--crops", action="append", required=True)
    v.add_argument("--accept", default="0.3,0.5,0.7")
    v.add_argument("--threads", type=int, default=2)
    x = sub.add_parser("export")
    x.add_argument("--weights", required=True)
    x.add_argument("--out", required=True)
    args = ap.parse_args()
    {"mine": mine, "train": train, "eval": evaluate, "export": export}[args.cmd](args)


if __name__ == "__main__":
    main()
