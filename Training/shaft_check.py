"""Fit the shaft check's logistic model (Sources/Pipelines/ShaftCheckWeights.swift).

Its inputs are computed by Bullseye itself, so the fitted weights read exactly
what the pipeline gives them. Run

  bullseye eval archery --seed 7400000 --images 120 --profile best --style realistic \\
      --size 4032x3024 --shaft-check on --shaft-keep 0 --photos DIR
  bullseye eval archery --seed 7400000 --images 100 --profile best \\
      --shaft-check on --shaft-keep 0 --photos DIR2

(the check weighs every point the refiner keeps and keeps them all) and each
eval-<i>.json beside the photos lists every detection with its `shaft_evidence`
and the true arrow it matched (null: none). Then

  python shaft_check.py fit --records DIR --records DIR2

prints the cross-validated trade (six folds by photo) and the Swift array, and

  python shaft_check.py score --records DIR --weights "w0,w1,..."

reads other photos (the selection photos, seeds 7100000...) with given weights.
"""
import argparse, glob, json, math, os
import numpy as np

NAMES = ["e1near", "e1far", "e2near", "e2far", "e4near", "e4far",
         "n1near", "n1far", "n2near", "n2far", "n4near", "n4far", "p", "log_p"]


def match(truth, found, radius):
    """The indices of `found` matched one-to-one to `truth` within `radius`, closest pair first (as eval does)."""
    pairs = sorted((math.hypot(t["x"] - q["x"], t["y"] - q["y"]), ti, j) for ti, t in enumerate(truth) for j, q in enumerate(found))
    used_t, used_j = set(), set()
    for d, ti, j in pairs:
        if d <= radius and ti not in used_t and j not in used_j:
            used_t.add(ti); used_j.add(j)
    return used_j


def records(dirs, min_confidence=0.0):
    """Inputs, whether each detection matched an arrow, its photo, and the number of true arrows.
    Detections below `min_confidence` are left out and the rest matched again, as a run keeping only them would
    (the records of a refiner run at a lower accept)."""
    X, y, photo, truths = [], [], [], 0
    for d in dirs:
        files = sorted(glob.glob(os.path.join(d, "eval-*.json")))
        if not files:
            raise SystemExit(f"{d}: no eval-<i>.json records (expected `bullseye eval archery ... --photos {d}`)")
        for f in files:
            r = json.load(open(f))
            truths += len(r["truth"])
            found = [q for q in r["detections"] if q["confidence"] >= min_confidence]
            matched = match(r["truth"], found, 0.015 * math.hypot(r["width"], r["height"]))
            for j, q in enumerate(found):
                if q.get("shaft_evidence") is None:
                    continue  # no face fitted: the check leaves these alone
                c = q["confidence"]
                X.append(q["shaft_evidence"] + [c, math.log(max(c, 1e-6))])
                y.append(j in matched)
                photo.append(f"{d}:{r['image']}")
    return np.array(X, np.float64), np.array(y, bool), np.array(photo), truths


def fit_logistic(X, y, l2=1.0, iters=50):
    """L2-penalised logistic regression by Newton steps; the intercept is not penalised."""
    A = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(A.shape[1])
    pen = np.full(A.shape[1], l2); pen[-1] = 0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-A @ w))
        step = np.linalg.solve((A * (p * (1 - p))[:, None]).T @ A + np.diag(pen), A.T @ (p - y) + pen * w)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def probability(X, w):
    return 1 / (1 + np.exp(-(X @ w[:-1] + w[-1])))


def trade(p, y, truths, label):
    print(label)
    for t in (0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        keep = p >= t; tp = int((keep & y).sum())
        print(f"  keep above {t:.2f}: recall {tp / max(truths, 1):.3f}, precision {tp / max(int(keep.sum()), 1):.3f}, "
              f"arrows lost {int((~keep & y).sum())}, extras left {int((keep & ~y).sum())} of {int((~y).sum())}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--records", action="append", required=True)
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--min-confidence", type=float, default=0.0, help="leave out detections below this refiner probability")
    s = sub.add_parser("score")
    s.add_argument("--records", action="append", required=True)
    s.add_argument("--weights", required=True, help="comma-separated, the feature order then the intercept")
    s.add_argument("--min-confidence", type=float, default=0.0, help="leave out detections below this refiner probability")
    a = ap.parse_args()
    X, y, photo, truths = records(a.records, a.min_confidence)
    if len(X) == 0:
        raise SystemExit("no detections with shaft_evidence under " + ", ".join(a.records))
    print(f"{len(X)} detections, {int(y.sum())} on arrows, {truths} true arrows")
    if a.cmd == "score":
        w = np.array([float(v) for v in a.weights.split(",")])
        if len(w) != len(NAMES) + 1:
            raise SystemExit(f"--weights has {len(w)} numbers: expected {len(NAMES) + 1}")
        trade(probability(X, w), y, truths, "with these weights:")
        return
    keys = sorted(set(photo)); fold = {k: i % 6 for i, k in enumerate(keys)}
    folds = np.array([fold[k] for k in photo]); p = np.zeros(len(y))
    for i in range(6):
        te = folds == i
        p[te] = probability(X[te], fit_logistic(X[~te], y[~te], a.l2))
    trade(p, y, truths, "cross-validated (six folds by photo):")
    w = fit_logistic(X, y, a.l2)
    for n, v in zip(NAMES + ["intercept"], w):
        print(f"  {n:>9} {v:+.4f}")
    print("static let shipped: [Double] = [" + ", ".join(f"{v:.6g}" for v in w) + "]")
    print("--weights " + ",".join(f"{v:.6g}" for v in w))


if __name__ == "__main__":
    main()
