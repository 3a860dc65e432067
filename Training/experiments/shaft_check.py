"""Shaft evidence after the refiner: an experiment that did not ship.

Arrows in one face were shot from one place, so their shafts stand roughly
parallel and leave their entries the same way in the photo; a nock's shaft runs
back the other way, an old hole has none. This reads, around every detection,
how much a thin line leaves it along 48 rays (at each step the smaller colour
difference from the two points 2.5 shaft widths to either side), finds the
photo's shaft direction by a vote of each point's strongest ray, and fits a
logistic model on twelve band features (towards / away, tolerance ±1/2/4 rays,
near / far band, divided by the photo's typical evidence) plus the refiner's
probability. Results: Training/experiments/README.md ("Shaft evidence").

Photos and records come from

  bullseye eval archery --seed 7400000 --images 150 --profile best --style realistic \
      --size 4032x3024 --accept 0.2 --photos DIR

(eval-<i>.png and eval-<i>.json: true entries, shafts, detections and what each
matched, the fitted face). Then

  python shaft_check.py features --photos DIR --out train.json
  python shaft_check.py features --photos DIR2 --out test.json
  python shaft_check.py fit --train train.json [--test test.json]
"""
import argparse, glob, json, math, os
import numpy as np
from PIL import Image

ANGLES, RADII = 48, 30
NEAREST, FARTHEST, NEAR_BELOW, WIDTH_SHARE = 0.015, 0.3, 0.08, 0.009


def integral(im):
    ii = np.zeros((im.shape[0] + 1, im.shape[1] + 1, im.shape[2]))
    ii[1:, 1:] = im.astype(np.float64).cumsum(0).cumsum(1)
    return ii


def box_means(ii, X, Y, half):
    """Mean colour of the (2·half+1)² square around the nearest pixel, cut to the image."""
    H, W = ii.shape[0] - 1, ii.shape[1] - 1
    xi, yi = np.rint(X).astype(int), np.rint(Y).astype(int)
    x0, x1 = np.clip(xi - half, 0, W - 1), np.clip(xi + half, 0, W - 1) + 1
    y0, y1 = np.clip(yi - half, 0, H - 1), np.clip(yi + half, 0, H - 1) + 1
    s = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    return s / ((x1 - x0) * (y1 - y0))[..., None]


def ray_map(ii, x, y, a):
    """[angle, radius] line evidence around (x, y); a is the face radius in pixels."""
    w = max(1.5, WIDTH_SHARE * a); half = int(math.floor(w / 2 + 0.5)); off = 2.5 * w
    t = np.arange(ANGLES) * 2 * np.pi / ANGLES; ux, uy = np.cos(t)[:, None], np.sin(t)[:, None]
    r = a * (NEAREST + (FARTHEST - NEAREST) * np.arange(RADII) / (RADII - 1))[None, :]
    px, py = x + r * ux, y + r * uy
    c = box_means(ii, px, py, half)
    left = box_means(ii, px - uy * off, py + ux * off, half)
    right = box_means(ii, px + uy * off, py - ux * off, half)
    return np.minimum(np.linalg.norm(c - left, axis=-1), np.linalg.norm(c - right, axis=-1))


def photo_features(maps, confidences):
    t = np.arange(ANGLES) * 2 * np.pi / ANGLES
    near = (NEAREST + (FARTHEST - NEAREST) * np.arange(RADII) / (RADII - 1)) < NEAR_BELOW
    vote = np.zeros(ANGLES)
    for m, c in zip(maps, confidences):
        p = m.mean(1); k = p.argmax()
        vote += c * (p.max() - np.median(p)) * np.exp((np.cos(t - t[k]) - 1) / (20 / 180 * np.pi) ** 2)
    k = int(vote.argmax()); out = []
    for m in maps:
        base = np.median(m.mean(1))
        out.append([max(m[(side + o) % ANGLES, band].mean() for o in range(-tol, tol + 1)) - base
                    for side in (k, k + ANGLES // 2) for tol in (1, 2, 4) for band in (near, ~near)])
    out = np.array(out)
    return out / np.median(np.maximum(out[:, 4], 0.02))


def features(a):
    rows, truths = [], 0
    for f in sorted(glob.glob(os.path.join(a.photos, "eval-*.json"))):
        rec = json.load(open(f)); truths += len(rec["truth"])
        if rec.get("face") is None or not rec["detections"]:
            continue
        im = np.asarray(Image.open(f[:-5] + ".png").convert("RGB"), dtype=np.float32) / 255
        ii = integral(im); radius = max(rec["face"]["a"], rec["face"]["b"])
        dets = rec["detections"]
        fs = photo_features([ray_map(ii, q["x"], q["y"], radius) for q in dets], [q["confidence"] for q in dets])
        rows += [dict(photo=rec["image"], f=fs[j].tolist(), p=q["confidence"], arrow=q["truth"] is not None) for j, q in enumerate(dets)]
    json.dump(dict(rows=rows, truths=truths), open(a.out, "w"))
    print(f"{len(rows)} detections, {truths} true arrows -> {a.out}")


def design(rows):
    X = np.array([r["f"] + [r["p"], math.log(max(r["p"], 1e-6))] for r in rows])
    return X, np.array([r["arrow"] for r in rows])


def fit_logistic(X, y, l2=1.0):
    A = np.hstack([X, np.ones((len(X), 1))]); w = np.zeros(A.shape[1]); pen = np.full(A.shape[1], l2); pen[-1] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-A @ w))
        step = np.linalg.solve((A * (p * (1 - p))[:, None]).T @ A + np.diag(pen), A.T @ (p - y) + pen * w)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def trade(p, y, truths, label):
    print(label)
    for t in (0.2, 0.3, 0.4, 0.5, 0.6):
        keep = p >= t; tp = int((keep & y).sum())
        print(f"  keep above {t:.1f}: recall {tp / truths:.3f}, precision {tp / max(int(keep.sum()), 1):.3f}")


def fit(a):
    tr = json.load(open(a.train)); X, y = design(tr["rows"])
    photos = np.array([r["photo"] for r in tr["rows"]]); p = np.zeros(len(y))
    for i in range(6):
        te = photos % 6 == i
        w = fit_logistic(X[~te], y[~te]); p[te] = 1 / (1 + np.exp(-(X[te] @ w[:-1] + w[-1])))
    trade(p, y, tr["truths"], "cross-validated on the training photos (6 folds by photo):")
    w = fit_logistic(X, y)
    if a.test:
        te = json.load(open(a.test)); Xt, yt = design(te["rows"])
        trade(1 / (1 + np.exp(-(Xt @ w[:-1] + w[-1]))), yt, te["truths"], "fitted on all training photos, read on the test photos:")
        trade(Xt[:, -2], yt, te["truths"], "the refiner's probability alone, on the test photos:")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("features"); f.add_argument("--photos", required=True); f.add_argument("--out", required=True)
    g = sub.add_parser("fit"); g.add_argument("--train", required=True); g.add_argument("--test")
    a = ap.parse_args()
    {"features": features, "fit": fit}[a.cmd](a)


if __name__ == "__main__":
    main()
