"""Builds the real models the Inference runtime targets, runs them in
onnxruntime and in `bullseye model run`, and checks that the two agree.

Models (random init only, nothing is downloaded):
  yolov8n, yolo11n   Ultralytics, built from their yaml (nc=80), exported to ONNX
  yolo11n_320        by Ultralytics at opset 17, imgsz 640 (320 for the _320
                     name), both plain and (when onnxslim is installed)
                     simplified ("-slim").
  mobilenet_v3_small torchvision, weights=None, num_classes=12, 224×224, opset 17.

BatchNorm layers get random affine parameters and running statistics
recalibrated on random images, so the folded Conv biases are non-zero and the
activations stay in a realistic range.

The Ultralytics-built models are AGPL: they are written to a build folder that
git ignores (default .build-models/) and must not be committed.

Checks per model (any failure makes the exit status non-zero):
  * max |ours − onnxruntime| ≤ 1e-4 × max |onnxruntime|
  * the same top-100 anchors by max class score (YOLO; as a set, order reported)
    or the same top-5 classes in order (MobileNet)
  * our 1-thread and 2-thread outputs are byte-identical

Usage:
  python Training/inference/compare_models.py [--out .build-models] [--bullseye PATH]
         [--models yolov8n,yolo11n,yolo11n_320,mobilenet_v3_small] [--rebuild] [--seed 0]
Pinned versions: Training/inference/requirements-compare.txt (`make compare-models`).
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MODELS = ("yolov8n", "yolo11n", "yolo11n_320", "mobilenet_v3_small")


def yolo_spec(name):
    """(Ultralytics yaml name, imgsz) of a reference model name: `yolo11n_320` is yolo11n at 320."""
    base, _, size = name.partition("_")
    return base, int(size) if size else 640
TOL = 1e-4
TOPK = 100


def go_offline(config_dir):
    """Keeps Ultralytics (and anything else in this process) off the network:
    its own offline switches, plus sockets that refuse to resolve or connect."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_VERBOSE"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ.setdefault("TORCH_HOME", str(config_dir / "torch"))

    def refuse(*args, **kwargs):
        raise OSError("compare_models.py: network access is disabled (no downloads)")

    socket.getaddrinfo = refuse
    socket.create_connection = refuse
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse


def randomise_batchnorm(model, seed, shape, batches=2):
    """Random BN affine parameters, then running stats recalibrated (cumulative
    average) on random images in train mode."""
    import torch
    import torch.nn as nn

    g = torch.Generator().manual_seed(seed)
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        for m in bns:
            m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
            m.bias.copy_(torch.randn(m.bias.shape, generator=g) * 0.2)
            m.reset_running_stats()
            m.momentum = None
        model.train()
        for _ in range(batches):
            model(torch.rand(shape, generator=g))
    model.eval()
    return len(bns)


def build_yolo(name, out, seed, slim):
    """Ultralytics model from `<base>.yaml`, exported by Ultralytics' exporter at the name's size."""
    import torch
    from ultralytics import YOLO

    base, imgsz = yolo_spec(name)
    torch.manual_seed(seed)
    yolo = YOLO(f"{base}.yaml", task="detect")  # config only: random init, no weights
    assert yolo.model.yaml.get("nc") == 80, yolo.model.yaml.get("nc")
    randomise_batchnorm(yolo.model, seed, (2, 3, 640, 640))
    made = {}
    variants = [("", False)] + ([("-slim", True)] if slim else [])
    cwd = os.getcwd()
    work = out / f"_export_{name}"
    work.mkdir(parents=True, exist_ok=True)
    os.chdir(work)  # the exporter writes next to the (yaml) model name
    try:
        for suffix, simplify in variants:
            f = yolo.export(format="onnx", opset=17, imgsz=imgsz, simplify=simplify, dynamic=False, half=False,
                            batch=1, device="cpu", nms=False)
            dst = out / f"{name}{suffix}.onnx"
            shutil.move(str(Path(f).resolve()), dst)
            made[name + suffix] = dst
    finally:
        os.chdir(cwd)
        shutil.rmtree(work, ignore_errors=True)
    return made


def build_mobilenet(out, seed):
    import torch
    from torchvision.models import mobilenet_v3_small

    torch.manual_seed(seed)
    net = mobilenet_v3_small(weights=None, num_classes=12)
    randomise_batchnorm(net, seed, (4, 3, 224, 224), batches=4)
    dst = out / "mobilenet_v3_small.onnx"
    with torch.no_grad():
        torch.onnx.export(net, torch.zeros(1, 3, 224, 224), str(dst), opset_version=17, input_names=["input"],
                          output_names=["logits"], dynamo=False)
    return {"mobilenet_v3_small": dst}


def build_models(out, names=MODELS, seed=0, rebuild=False):
    """Returns {variant: onnx path}; builds what is missing (or all with rebuild)."""
    out.mkdir(parents=True, exist_ok=True)
    go_offline(out / "config")
    import onnx
    import torch

    torch.set_num_threads(1)  # the machine is shared
    try:
        import onnxslim  # noqa: F401
        slim = True
    except ImportError:
        slim = False
        print("note: onnxslim is not installed; only the unsimplified YOLO exports are made", file=sys.stderr)
    models = {}
    for name in names:
        expected = [name] + (["%s-slim" % name] if slim and name.startswith("yolo") else [])
        paths = {v: out / f"{v}.onnx" for v in expected}
        if rebuild or not all(p.exists() for p in paths.values()):
            t = time.time()
            made = build_mobilenet(out, seed) if name == "mobilenet_v3_small" else build_yolo(name, out, seed, slim)
            print(f"built {', '.join(made)} in {time.time() - t:.1f} s", file=sys.stderr)
        for v, p in paths.items():
            onnx.checker.check_model(str(p))
            models[v] = p
    return models


def make_input(path, model_path, seed):
    import numpy as np
    import onnxruntime as ort

    if not path.exists():
        s = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
        shape = [d if isinstance(d, int) else 1 for d in s.get_inputs()[0].shape]
        rng = np.random.default_rng(seed)
        x = rng.random(shape, dtype=np.float32)  # image-like, [0, 1)
        if shape[-1] == 224:
            x = ((x - 0.45) / 0.225).astype(np.float32)  # ImageNet-like normalisation
        np.save(path, x)
    return path


def ort_run(model_path, x, threads=1):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    s = ort.InferenceSession(str(model_path), so, providers=["CPUExecutionProvider"])
    return s.run(None, {s.get_inputs()[0].name: x})[0]


def find_bullseye(path, build):
    exe = Path(path) if path else REPO / ".build/release/bullseye"
    if exe.exists() or not build:
        return exe
    while subprocess.run(["pgrep", "-x", "swift-build"], capture_output=True).returncode == 0:
        print("waiting for a running swift-build to finish…", file=sys.stderr)
        time.sleep(20)
    if not exe.exists():
        subprocess.run(["swift", "build", "-c", "release", "--product", "bullseye"], cwd=REPO, check=True)
    return exe


def bullseye_run(exe, model, inp, outp, threads, repeat=1):
    cmd = [str(exe), "model", "run", str(model), "--input", str(inp), "--output", str(outp),
           "--threads", str(threads), "--repeat", str(repeat), "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError((r.stderr.strip() or r.stdout.strip()).splitlines()[-1] if (r.stderr or r.stdout) else
                           f"exit {r.returncode}")
    return json.loads(r.stdout)


def compare(ref, ours):
    """Accuracy metrics and the ranking check for one output."""
    import numpy as np

    d = np.abs(ours.astype(np.float64) - ref.astype(np.float64))
    m = {"max_abs_diff": float(d.max()), "max_abs_ref": float(np.abs(ref).max())}
    m["rel"] = m["max_abs_diff"] / m["max_abs_ref"] if m["max_abs_ref"] > 0 else float(m["max_abs_diff"] > 0)
    if ref.ndim == 3 and ref.shape[1] > 4:  # YOLO [1, 4+nc, anchors]
        m["box_max_abs_diff"] = float(d[:, :4].max())
        m["score_max_abs_diff"] = float(d[:, 4:].max())
        rs, os_ = ref[0, 4:].max(0), ours[0, 4:].max(0)
        rt, ot = np.argsort(-rs, kind="stable")[:TOPK], np.argsort(-os_, kind="stable")[:TOPK]
        m["rank_check"] = f"top-{TOPK} anchors"
        m["rank_same_set"] = bool(set(rt.tolist()) == set(ot.tolist()))
        m["rank_same_order"] = bool((rt == ot).all())
        m["rank_ok"] = m["rank_same_set"]
        m["score_range_top"] = [float(rs[rt[-1]]), float(rs[rt[0]])]
    else:  # classifier logits
        k = min(5, ref.shape[-1])
        rt, ot = np.argsort(-ref.reshape(-1), kind="stable")[:k], np.argsort(-ours.reshape(-1), kind="stable")[:k]
        m["rank_check"] = f"top-{k} classes in order"
        m["rank_same_set"] = bool(set(rt.tolist()) == set(ot.tolist()))
        m["rank_same_order"] = bool((rt == ot).all())
        m["rank_ok"] = m["rank_same_order"]
    m["accuracy_ok"] = m["rel"] <= TOL
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / ".build-models")
    ap.add_argument("--bullseye", help="path to the bullseye binary (default .build/release/bullseye, built if missing)")
    ap.add_argument("--no-build", action="store_true", help="do not build bullseye when it is missing")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rebuild", action="store_true", help="re-export the models even when present")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write the results here (default OUT/compare_models.json)")
    a = ap.parse_args()

    import numpy as np

    names = [n for n in a.models.split(",") if n]
    bad = [n for n in names if n not in MODELS]
    if bad:
        ap.error(f"unknown model(s) {bad}; expected some of {MODELS}")
    out = a.out.resolve()
    models = build_models(out, names, a.seed, a.rebuild)
    exe = find_bullseye(a.bullseye, not a.no_build)
    if not exe.exists():
        sys.exit(f"bullseye binary not found at {exe}")
    import onnxruntime as ort

    print(f"onnxruntime {ort.__version__}, bullseye {exe}", file=sys.stderr)

    rows, failures = [], []
    for variant, path in models.items():
        base = variant.replace("-slim", "")
        inp = make_input(out / f"{base}.input.npy", path, a.seed + MODELS.index(base))
        x = np.load(inp)
        ref = ort_run(path, x)
        np.save(out / f"{variant}.ort.npy", ref)
        row = {"model": variant, "input_shape": list(x.shape), "output_shape": list(ref.shape)}
        try:
            o1, o2 = out / f"{variant}.ours.t1.npy", out / f"{variant}.ours.t2.npy"
            bullseye_run(exe, path, inp, o1, 1)
            bullseye_run(exe, path, inp, o2, 2)
            ours1, ours2 = np.load(o1), np.load(o2)
            if ours1.shape != ref.shape:
                raise RuntimeError(f"output shape {list(ours1.shape)} != onnxruntime {list(ref.shape)}")
            row.update(compare(ref, ours1))
            row["threads_bit_identical"] = o1.read_bytes() == o2.read_bytes()
            row["ok"] = row["accuracy_ok"] and row["rank_ok"] and row["threads_bit_identical"]
        except Exception as e:  # noqa: BLE001 — reported per model, exit status below
            row.update(ok=False, error=str(e))
        rows.append(row)
        if not row["ok"]:
            failures.append(variant)

    hdr = f"{'model':<24} {'max|ref|':>9} {'max|diff|':>10} {'diff/ref':>9} {'≤1e-4':>5}  {'rank check':<24} {'same':>5} {'1t==2t':>6}  result"
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        if "error" in r:
            print(f"{r['model']:<24} ERROR: {r['error']}")
            continue
        rank = "yes" if r["rank_ok"] else "NO"
        if r["rank_ok"] and not r["rank_same_order"]:
            rank += "*"
        print(f"{r['model']:<24} {r['max_abs_ref']:>9.4g} {r['max_abs_diff']:>10.3g} {r['rel']:>9.2e} "
              f"{'yes' if r['accuracy_ok'] else 'NO':>5}  {r['rank_check']:<24} {rank:>5} "
              f"{'yes' if r['threads_bit_identical'] else 'NO':>6}  {'ok' if r['ok'] else 'FAIL'}")
        if "box_max_abs_diff" in r:
            print(f"{'':<24} boxes max|diff| {r['box_max_abs_diff']:.3g}, scores max|diff| {r['score_max_abs_diff']:.3g} "
                  f"(top-{TOPK} scores {r['score_range_top'][0]:.4g}…{r['score_range_top'][1]:.4g})")
    if any(r.get("rank_ok") and not r.get("rank_same_order") for r in rows):
        print("* same set, different order")
    report = a.json or out / "compare_models.json"
    report.write_text(json.dumps({"onnxruntime": ort.__version__, "tolerance": TOL, "rows": rows}, indent=1) + "\n")
    print(f"{len(rows) - len(failures)}/{len(rows)} passed; results in {report}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
