"""`refiner.py bundle` and `refiner.py eval`: one ONNX file from a peak refiner and
its gate, and the detector + refiner measured on held-out images."""
import json
import math

import numpy as np

import detector as D
import peaks as P
from refiner import candidates, crop, scenes, window_side


def bundle(args):
    """One ONNX file holding a peak refiner and a one-answer refiner side by side on
    the same `crop`: outputs `refined` (the peak map) and `window` (the one-answer
    refiner's [probability, dx, dy], which the pipeline reads as the gate). The
    gate's nodes and tensors are renamed under `gate/`, so the two graphs share
    nothing but the input."""
    import onnx
    from onnx import helper
    peaks, gate = onnx.load(args.peaks), onnx.load(args.gate)
    if [o.name for o in gate.graph.output] == ["refined", "window"]:
        gate = gate_of_bundle(gate)
    for m, want in ((peaks, 4), (gate, 2)):
        dims = len(m.graph.output[0].type.tensor_type.shape.dim)
        if len(m.graph.output) != 1 or dims != want:
            raise SystemExit(f"{m.graph.name or 'model'}: expected one output of rank {want}, got {len(m.graph.output)} of rank {dims}")
    inp = peaks.graph.input[0].name
    if gate.graph.input[0].name != inp:
        raise SystemExit(f"inputs differ: '{inp}' vs '{gate.graph.input[0].name}'")
    old_out = gate.graph.output[0].name
    rename = {}
    for t in gate.graph.initializer:
        rename[t.name] = "gate/" + t.name
    for n in gate.graph.node:
        for o in n.output:
            rename[o] = "window" if o == old_out else "gate/" + o
    for t in gate.graph.initializer:
        t.name = rename[t.name]
    nodes = []
    for n in gate.graph.node:
        n.name = "gate/" + n.name
        n.input[:] = [rename.get(i, i) for i in n.input]
        n.output[:] = [rename[o] for o in n.output]
        nodes.append(n)
    out = helper.make_tensor_value_info("window", onnx.TensorProto.FLOAT, [1, 3])
    g = peaks.graph
    g.node.extend(nodes)
    g.initializer.extend(gate.graph.initializer)
    g.output.append(out)
    onnx.checker.check_model(peaks)
    onnx.save(peaks, args.out)
    print("outputs:", [o.name for o in peaks.graph.output], "nodes:", len(g.node))


def gate_of_bundle(m):
    """A bundle's gate alone (its `gate/` nodes and tensors, prefix dropped, output
    `window`), so a new peak map can be bundled with the gate a shipped file holds."""
    from onnx import helper
    strip = lambda n: n[len("gate/"):] if n.startswith("gate/") else n
    g = m.graph
    nodes = [n for n in g.node if n.name.startswith("gate/")]
    for n in nodes:
        n.name = strip(n.name)
        n.input[:] = [strip(i) for i in n.input]
        n.output[:] = [strip(o) for o in n.output]
    inits = [t for t in g.initializer if t.name.startswith("gate/")]
    for t in inits:
        t.name = strip(t.name)
    out = [o for o in g.output if o.name == "window"]
    graph = helper.make_graph(nodes, "gate", list(g.input), out, inits)
    return helper.make_model(graph, opset_imports=m.opset_import, ir_version=m.ir_version)


# ----------------------------------------------------------------------------- eval

def match(pts, truths, gain):
    """Greedy nearest-first matching like detector.py eval: (tp, fp, fn, errors in
    input px, the matched truths' indices)."""
    pairs = [(math.hypot(px - tx, py - ty) * gain, ti, pi)
             for ti, (tx, ty, tw) in enumerate(truths) for pi, (px, py, _) in enumerate(pts)]
    mt, mp, errs = D.greedy_match([(d, ti, pi) for d, ti, pi in pairs if D.near_impact(d, truths[ti][2] * gain)])
    return len(mt), len(pts) - len(mp), len(truths) - len(mt), errs, mt


def paired(truths, gain):
    """For each true entry, whether another lies within P.PAIR_R input px: one of a
    touching pair (what the pair channels are for)."""
    return [any(j != i and math.hypot(tx - ux, ty - uy) * gain <= P.PAIR_R for j, (ux, uy, _) in enumerate(truths))
            for i, (tx, ty, _) in enumerate(truths)]


def refine(looked, accept, gain, merge=3.0):
    """Candidates the refiner keeps at `accept`, moved, merged within `merge` input px
    (the most probable stays; ties keep detector order) -- as ArrowRefinement.swift."""
    return P.merge([(x + dx / gain, y + dy / gain, p) for x, y, p, dx, dy in looked if p >= accept], merge / gain)


def evaluate(args):
    """Detector alone at 0.35 vs detector at --conf + refiner at each --accept (and,
    for a peak refiner, each --trust and --merge), on held-out images (letterbox),
    matched like detector.py eval (input pixels). Each row also counts the arrows in
    touching pairs (`paired`, `paired_found`) and the recall over the rest
    (`recall_alone`). The models run once per image; every setting reuses their outputs."""
    det = D.ort_session(args.detector, args.threads)
    ref = D.ort_session(args.refiner, args.threads)
    accepts = [float(v) for v in str(args.accept).split(",")]
    names = [o.name for o in ref.get_outputs()]
    per_image, peak = [], False
    for img, truths, _, _ in scenes(args):
        h, w = img.shape[:2]
        cands, gain = candidates(det, img, args.conf)
        side = window_side(w, h)
        looked = []
        for s, x, y, _ in cands:
            c = crop(img, x, y, side)
            outs = dict(zip(names, ref.run(None, {"crop": c[None]})))
            o = outs["refined"][0]
            if "window" in outs and outs["window"][0][0] < args.gate_accept:
                continue  # a gated refiner: this window yields nothing
            if args.views > 1:  # the run above is the first view's (the identity)
                o = P.read_views(lambda v: ref.run(["refined"], {"crop": v[None]})[0][0], c, P.VIEWS[:args.views], first=o)
            if o.ndim == 1:
                looked.append((x, y, float(o[0]), float(o[1]), float(o[2])))
            else:  # every local maximum, with how far its cell is from the window centre
                peak = True
                for px, py, p, reach, pair in P.peaks(o, min(accepts), P.WINDOW / 2, args.pair_accept):
                    looked.append((x + px / gain, y + py / gain, p, reach))
                    if pair:
                        looked.append((x + pair[0] / gain, y + pair[1] / gain, pair[2], reach))
        plain = [(x, y, s) for s, x, y, _ in cands if s >= 0.35]
        per_image.append((truths, gain, plain, looked))
    rows = [("detector", 0.35, None, None, [(t, g, pl) for t, g, pl, _ in per_image])]
    for a in accepts:
        if not peak:
            rows.append(("refined", a, None, 3.0, [(t, g, refine(lk, a, g)) for t, g, _, lk in per_image]))
            continue
        for tr in [float(v) for v in str(args.trust).split(",")]:
            for mg in [float(v) for v in str(args.merge).split(",")]:
                data = []
                for t, g, _, lk in per_image:
                    pts = [(x, y, p) for x, y, p, reach in lk if p >= a and reach <= tr]
                    data.append((t, g, P.merge(pts, mg / g)))
                rows.append(("peaks", a, tr, mg, data))
    for stage, thr, trust, mg, data in rows:
        tp = fp = fn = 0
        errs = []
        pairs = found_pairs = 0  # arrows in touching pairs, and how many of them matched
        for truths, gain, pts in data:
            a, b, c, e, mt = match(pts, truths, gain)
            tp, fp, fn = tp + a, fp + b, fn + c
            errs += e
            flags = paired(truths, gain)
            pairs += sum(flags)
            found_pairs += sum(1 for i in mt if flags[i])
        r, p = tp / max(1, tp + fn), tp / max(1, tp + fp)
        print(json.dumps({"stage": stage, "images": len(per_image), "detector_conf": 0.35 if stage == "detector" else args.conf,
                          "accept": thr if stage != "detector" else None, "trust": trust, "merge": mg,
                          "tp": tp, "fp": fp, "fn": fn,
                          "recall": round(r, 4), "precision": round(p, 4), "f1": round(2 * r * p / max(1e-9, r + p), 4),
                          "paired": pairs, "paired_found": found_pairs,
                          "recall_alone": round((tp - found_pairs) / max(1, tp + fn - pairs), 4),
                          "median_error_px": round(float(np.median(errs)), 3) if errs else None}), flush=True)
