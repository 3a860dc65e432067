"""`refiner.py hard`: the crops of a mined set that a trained peak refiner gets wrong,
written as a crop set of their own, so a later run can draw them more often (pass it
to `train --crops` beside the set it came from).

A crop is hard when, at the pipeline's threshold, the refiner's map (peaks.peaks,
as ArrowRefinement+Peaks.swift decodes it)
- misses: a true entry within `--centre` input px of the window centre (on both axes:
  the entry its candidate window is there for) has no peak within `--radius`; or
- invents: a peak within `--centre` px has no true entry within `--radius`.
Entries farther out are left to their own windows, which the pipeline also reads."""
import time

import numpy as np
import torch

import peaks as P
from refiner_nets import MAP_ARCHS, from_checkpoint


def verdicts(out, entries, accept, centre, radius):
    """out: one window's map (6 or 3, n, n); entries: (k, 2) true entries in input px
    from the window centre. Returns (missed, invented) counts."""
    found = np.array([(x, y) for x, y, *_ in P.peaks(out, accept, P.WINDOW / 2)], np.float32).reshape(-1, 2)
    d = np.hypot(entries[:, None, 0] - found[None, :, 0], entries[:, None, 1] - found[None, :, 1])
    near_entry = (np.abs(entries) <= centre).all(1)
    near_peak = (np.abs(found) <= centre).all(1)
    missed = int((near_entry & ~(d <= radius).any(1)).sum())
    invented = int((near_peak & ~(d <= radius).any(0)).sum())
    return missed, invented


def hard(args):
    if not 0 < args.radius <= 4 or not 0 < args.centre <= P.WINDOW / 2:
        raise SystemExit(f"--radius {args.radius} / --centre {args.centre}: expected 0 < radius <= 4 and 0 < centre <= {P.WINDOW / 2}")
    torch.set_num_threads(args.threads)
    model, arch = from_checkpoint(args.weights)
    if arch not in MAP_ARCHS:
        raise SystemExit(f"--weights {args.weights}: arch {arch!r}, expected an entry-map refiner ({', '.join(MAP_ARCHS)})")
    z = np.load(args.crops)
    X, Y, E = z["x"], z["y"], z["e"]
    keep = np.zeros(len(X), bool)
    missed = invented = 0
    t0 = time.time()
    for s in range(0, len(X), 256):
        with torch.no_grad():
            out = model(torch.from_numpy(X[s:s + 256]).float().div(255)).numpy()
        for b, o in enumerate(out):
            e = E[s + b]
            m, i = verdicts(o, e[~np.isnan(e[:, 0])], args.accept, args.centre, args.radius)
            missed, invented = missed + m, invented + i
            keep[s + b] = m + i > 0
        if (s // 256) % 20 == 19:
            print(f"{s + len(out)} crops, {int(keep.sum())} hard {time.time() - t0:.0f}s", flush=True)
    np.savez(args.out, x=X[keep], y=Y[keep], e=E[keep])
    print(f"wrote {int(keep.sum())} of {len(X)} crops to {args.out}: {missed} entries missed, {invented} peaks invented")
