"""Benchmark: Bullseye's CPU runtime next to onnxruntime, same machine, same run.

For YOLOv8n and YOLO11n at 640 and MobileNetV3-small at 224 (the models
compare_models.py builds in .build-models/, built here if missing), measures
ms per image at 1 and 2 threads:
  onnxruntime  intra_op_num_threads=N, inter_op 1, sequential execution, all
               graph optimisations; one session per thread count, 3 warm-up
               runs, then the median of --repeat runs.
  bullseye     `bullseye model run MODEL --input IN --threads N --repeat R --json`
               (one warm-up run inside, then median_ms of R runs).
Each pass measures every (model, threads) pair for both engines back to back;
the reported figure is the median of the pass medians. It also checks that our
1-thread and 2-thread outputs are byte-identical.

Bars (from the issue): ours 1t ≤ 1.5 × onnxruntime 1t; ours 2t at least 1.7×
faster than ours 1t. Timings on a shared machine vary by ±15 %; the load
average before and after is recorded.

Usage:
  python Training/inference/bench_inference.py [--variant slim|plain] [--repeat 20]
         [--passes 3] [--models ...] [--out .build-models] [--json PATH]
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_models import MODELS, REPO, build_models, bullseye_run, find_bullseye, make_input  # noqa: E402

SIZES = {"yolov8n": 640, "yolo11n": 640, "mobilenet_v3_small": 224}


def ort_session(path, threads):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def ort_median_ms(session, x, repeat, warmup=3):
    feed = {session.get_inputs()[0].name: x}
    for _ in range(warmup):
        session.run(None, feed)
    t = []
    for _ in range(repeat):
        a = time.perf_counter()
        session.run(None, feed)
        t.append((time.perf_counter() - a) * 1e3)
    return statistics.median(t)


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / ".build-models")
    ap.add_argument("--bullseye", help="bullseye binary (default .build/release/bullseye, built if missing)")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--variant", choices=("slim", "plain"), default="slim",
                    help="YOLO export to time: onnxslim-simplified (Ultralytics' default) or plain")
    ap.add_argument("--repeat", type=int, default=20, help="timed runs per measurement (≥ 20)")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="default OUT/bench_inference.json")
    a = ap.parse_args()
    if a.repeat < 20:
        ap.error("--repeat must be at least 20")

    import numpy as np
    import onnxruntime as ort

    names = [n for n in a.models.split(",") if n]
    threads = [int(t) for t in a.threads.split(",")]
    out = a.out.resolve()
    built = build_models(out, names, a.seed)
    exe = find_bullseye(a.bullseye, True)
    jobs = []
    for n in names:
        v = f"{n}-slim" if a.variant == "slim" and f"{n}-slim" in built else n
        inp = make_input(out / f"{n}.input.npy", built[v], a.seed + MODELS.index(n))
        jobs.append((n, v, built[v], inp, np.load(inp)))

    load0 = os.getloadavg()
    print(f"{cpu_name()}, {os.cpu_count()} CPUs, load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}; "
          f"onnxruntime {ort.__version__}; {a.passes} passes × {a.repeat} runs", file=sys.stderr)
    sessions = {(v, t): ort_session(p, t) for _, v, p, _, _ in jobs for t in threads}
    samples = {}  # (variant, engine, threads) -> [pass medians]
    identical = {}
    for p in range(a.passes):
        for _, v, path, inp, x in jobs:
            outs = {}
            for t in threads:
                samples.setdefault((v, "ort", t), []).append(ort_median_ms(sessions[(v, t)], x, a.repeat))
                time.sleep(0.2)  # let onnxruntime's worker threads stop spinning
                o = out / f"{v}.bench.t{t}.npy"
                r = bullseye_run(exe, path, inp, o, t, a.repeat)
                samples.setdefault((v, "ours", t), []).append(r["median_ms"])
                outs[t] = o.read_bytes()
            identical[v] = identical.get(v, True) and len(set(outs.values())) == 1
            print(f"pass {p + 1}: {v}: " + ", ".join(f"{e} {t}t {samples[(v, e, t)][-1]:.2f}"
                                                     for t in threads for e in ("ort", "ours")), file=sys.stderr)
    load1 = os.getloadavg()

    rows = []
    for n, v, _, _, _ in jobs:
        med = {(e, t): statistics.median(samples[(v, e, t)]) for e in ("ort", "ours") for t in threads}
        row = {"model": v, "size": SIZES[n], "ms": {f"{e}_{t}t": round(m, 3) for (e, t), m in med.items()},
               "passes": {f"{e}_{t}t": [round(s, 3) for s in samples[(v, e, t)]] for e in ("ort", "ours") for t in threads},
               "threads_bit_identical": identical[v]}
        if 1 in threads:
            row["ours_over_ort_1t"] = med[("ours", 1)] / med[("ort", 1)]
            row["bar_1t_le_1.5x_ort"] = row["ours_over_ort_1t"] <= 1.5
        if 1 in threads and 2 in threads:
            row["ours_over_ort_2t"] = med[("ours", 2)] / med[("ort", 2)]
            row["ours_speedup_2t"] = med[("ours", 1)] / med[("ours", 2)]
            row["ort_speedup_2t"] = med[("ort", 1)] / med[("ort", 2)]
            row["bar_speedup_ge_1.7"] = row["ours_speedup_2t"] >= 1.7
        rows.append(row)

    if threads == [1, 2]:
        hdr = (f"{'model':<20} {'size':>4} {'ORT 1t':>8} {'ORT 2t':>8} {'ours 1t':>8} {'ours 2t':>8} "
               f"{'ours/ORT 1t':>11} {'ours/ORT 2t':>11} {'ORT ×2t':>7} {'ours ×2t':>8} {'1t==2t':>6}")
        print(hdr)
        print("-" * len(hdr))
        for r in rows:
            ms = r["ms"]
            print(f"{r['model']:<20} {r['size']:>4} {ms['ort_1t']:>8.2f} {ms['ort_2t']:>8.2f} {ms['ours_1t']:>8.2f} "
                  f"{ms['ours_2t']:>8.2f} {r['ours_over_ort_1t']:>10.2f}{'' if r['bar_1t_le_1.5x_ort'] else '!'} "
                  f"{r['ours_over_ort_2t']:>11.2f} {r['ort_speedup_2t']:>7.2f} "
                  f"{r['ours_speedup_2t']:>7.2f}{'' if r['bar_speedup_ge_1.7'] else '!'} "
                  f"{'yes' if r['threads_bit_identical'] else 'NO':>6}")
        print("ms per image, median of pass medians; ! = misses the bar (ours 1t ≤ 1.5× ORT 1t; ours ×2t ≥ 1.7)")
    else:
        for r in rows:
            print(r["model"], r["ms"])
    print(f"load average {load0[0]:.2f} before, {load1[0]:.2f} after", file=sys.stderr)
    report = a.json or out / "bench_inference.json"
    report.write_text(json.dumps({
        "cpu": cpu_name(), "cpus": os.cpu_count(), "onnxruntime": ort.__version__, "bullseye": str(exe),
        "variant": a.variant, "repeat": a.repeat, "passes": a.passes, "loadavg_before": load0, "loadavg_after": load1,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "rows": rows}, indent=1) + "\n")
    print(f"results in {report}")


if __name__ == "__main__":
    main()
