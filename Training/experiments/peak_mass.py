"""Does a peak's neighbourhood mass tell real entries from false peaks better than its max?
Detector candidates, the refiner's gate and map on each window, every local maximum scored by its
own probability, the 3x3 and 5x5 sums around it, and the 3x3 sum times the gate's square root;
the best F1 of each over thresholds (merge 1 input px). Training/experiments/README.md has the figures.

  python Training/experiments/peak_mass.py --data data/target_rsel_zoom --detector Models/arrow-detector.onnx \
      --refiner Models/arrow-refiner.onnx
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy as np
import detector as D, peaks as P
from refiner import candidates, crop, scenes, window_side
from refiner_eval import match

ap = argparse.ArgumentParser()
ap.add_argument("--data"); ap.add_argument("--detector"); ap.add_argument("--refiner")
ap.add_argument("--limit", type=int, default=0); ap.add_argument("--gate", type=float, default=0.2)
ap.add_argument("--threads", type=int, default=1); ap.add_argument("--dump")
args = ap.parse_args()
det = D.ort_session(args.detector, args.threads); ref = D.ort_session(args.refiner, args.threads)
names = [o.name for o in ref.get_outputs()]
per = []
for img, truths, _, _ in scenes(args):
    h, w = img.shape[:2]
    cands, gain = candidates(det, img, 0.03)
    side = window_side(w, h)
    looked = []
    for s, x, y, _ in cands:
        c = crop(img, x, y, side)
        outs = dict(zip(names, ref.run(None, {"crop": c[None]})))
        g = float(outs["window"][0][0])
        if g < args.gate: continue
        o = outs["refined"][0]; prob = o[0]; H = prob.shape[0]
        for px, py, p, reach, pair in P.peaks(o, 0.03, 12, 1.1):
            # cell index of this peak
            cc = (np.arange(H) + 0.5 - H / 2) * (P.WINDOW / H)
            j = int(np.argmin(np.abs(cc - (px - 0)))) ; i = int(np.argmin(np.abs(cc - py)))
            # find actual local max cell nearest
            best = None
            for ii in range(max(0,i-2), min(H,i+3)):
                for jj in range(max(0,j-2), min(H,j+3)):
                    if abs(prob[ii,jj]-p) < 1e-7: best=(ii,jj)
            i, j = best if best else (i, j)
            m3 = float(prob[max(0,i-1):i+2, max(0,j-1):j+2].sum())
            m5 = float(prob[max(0,i-2):i+3, max(0,j-2):j+3].sum())
            looked.append((x + px / gain, y + py / gain, p, m3, m5, g, s))
    per.append((truths, gain, looked))
if args.dump:
    import pickle; pickle.dump(per, open(args.dump, "wb"))
def run(key, thr, merge=1.0):
    tp=fp=fn=0
    for truths, gain, lk in per:
        pts = [(x, y, key(r)) for r in lk for x, y in [(r[0], r[1])] if key(r) >= thr]
        pts = P.merge(pts, merge / gain)
        a,b,c,_,_ = match(pts, truths, gain); tp+=a; fp+=b; fn+=c
    return tp/max(1,tp+fn), tp/max(1,tp+fp)
keys = {"max": lambda r: r[2], "m3": lambda r: r[3], "m5": lambda r: r[4], "m3g": lambda r: r[3]*r[5]**0.5}
for name, k in keys.items():
    vals = sorted(k(r) for _,_,lk in per for r in lk)
    qs = [np.quantile(vals, q) for q in np.linspace(0.5, 0.99, 25)]
    out = []
    for t in qs:
        rc, pr = run(k, t); out.append((round(t,3), round(rc,3), round(pr,3), round(2*rc*pr/max(1e-9,rc+pr),3)))
    print(name, "best F1", max(out, key=lambda z: z[3]))
    print("  ", [o for o in out][::2])
