"""Benchmark: Bullseye's CPU runtime next to onnxruntime, same machine, same run.

Models: the reference models compare_models.py builds in .build-models/
(YOLOv8n 640, YOLO11n 320, MobileNetV3-small 224; built here if missing) and
every shipped model in Models/. For each model and thread count (1, 2):
  onnxruntime  pinned (requirements-compare.txt); intra_op_num_threads=N,
               inter_op 1, sequential execution, all graph optimisations,
               spinning off; 3 warm-up runs, then the median of --repeat runs.
  bullseye     `bullseye model run MODEL --input IN --threads N --repeat R --json`
               (warm-up runs inside: at least 3 and 0.2 s; then the median of R runs), on the
               machine's best instruction set and, on an AVX-512 machine, also
               with BULLSEYE_ISA=avx2.
Each pass measures every (model, threads) pair for both engines back to back
(interleaved); a time is the median of the pass medians, a ratio (ours /
onnxruntime, one thread / two) the median of the passes' own ratios.
GFLOP/s counts the model's multiply-adds twice; the share of peak divides by one core's FMA peak
× threads, measured by `bullseye bench peak` on the same instruction set.
The load average is sampled before, after and between passes, and the host's steal time (/proc/stat)
around each model's pass: a pass whose second vCPU the host lent elsewhere shows it there.
On an AVX-512 machine whose kernel offers CPUID faulting (`cpuid_fault` in /proc/cpuinfo), onnxruntime
also runs in a child process with AVX-512 hidden from its CPUID (hide_avx512.c, preloaded), on one
thread: its AVX2 + FMA kernels against Bullseye's AVX2 path, the comparison an AVX2 machine would make.

Bars (the inference issue): on 1 thread ours ≤ 1.15 × onnxruntime on every
model (≤ 1.3 × for the AVX2 path on an AVX-512 machine; the goal is 1.0);
2 threads at least 1.85 × faster than 1 on models of 10 ms or more on one
thread, 1.5 × on smaller ones; outputs byte-identical across thread counts and
instruction sets, and within 1e-4 × max|onnxruntime| of onnxruntime. A one-thread miss that no code on
that instruction set could avoid (onnxruntime's GFLOP/s above the set's measured peak, as for AVX2 on
Intel cores with two 512-bit FMA ports) says so on its FAIL line; the JSON rows carry that floor.

Usage:
  python Training/inference/bench_inference.py [--repeat 20] [--passes 3]
         [--models yolov8n,yolo11n_320,...] [--no-shipped] [--strict] [--json PATH]
(`make bench-inference`). --strict makes a missed bar exit 1.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_models import REPO, build_models, find_bullseye, make_input  # noqa: E402

REFERENCE = ("yolov8n", "yolo11n_320", "mobilenet_v3_small")
BAR_1T, BAR_1T_AVX2, BAR_2T_BIG, BAR_2T_SMALL, BIG_MS, ACCURACY = 1.15, 1.3, 1.85, 1.5, 10.0, 1e-4


def ort_session(path, threads):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
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


def ours(exe, model, inp, outp, threads, repeat, isa):
    env = dict(os.environ)
    env.pop("BULLSEYE_ISA", None)
    if isa:
        env["BULLSEYE_ISA"] = isa
    cmd = [str(exe), "model", "run", str(model), "--input", str(inp), "--output", str(outp),
           "--threads", str(threads), "--repeat", str(repeat), "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {(r.stderr or r.stdout).strip()}")
    return json.loads(r.stdout)


SHIM_SRC = Path(__file__).with_name("hide_avx512.c")


def cpu_flags():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def avx2_shim(out):
    """The preload library that hides AVX-512 from onnxruntime, built into OUT; None where it cannot
    work (no AVX-512 to hide, no CPUID faulting, no C compiler) or did not take."""
    flags = cpu_flags()
    if "avx512f" not in flags or "cpuid_fault" not in flags:
        return None
    so = out / "hide_avx512.so"
    if not so.exists() or so.stat().st_mtime < SHIM_SRC.stat().st_mtime:
        tmp = so.with_suffix(".tmp.so")
        for cc in (os.environ.get("CC", "cc"), "clang", "gcc"):
            try:
                r = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(tmp), str(SHIM_SRC)], capture_output=True)
            except OSError:
                continue
            if r.returncode == 0:
                tmp.replace(so)
                break
        else:
            return None
    r = subprocess.run([sys.executable, __file__, "--probe-shim"], capture_output=True, text=True,
                       env=dict(os.environ, LD_PRELOAD=str(so)))
    return so if r.returncode == 0 and r.stdout.strip() == "hidden" else None


def ort_avx2_median_ms(shim, model, inp, threads, repeat):
    """onnxruntime's median in a child process that sees no AVX-512 (its dispatch is fixed per process)."""
    r = subprocess.run([sys.executable, __file__, "--ort-worker", str(model), str(inp), str(threads), str(repeat)],
                       capture_output=True, text=True, env=dict(os.environ, LD_PRELOAD=str(shim)))
    if r.returncode != 0:
        raise RuntimeError(f"onnxruntime with AVX-512 hidden, {model}: {(r.stderr or r.stdout).strip()}")
    return float(r.stdout.strip().splitlines()[-1])


def child_modes():
    """The child processes' two jobs: say whether the shim hides AVX-512; time one session."""
    if sys.argv[1:2] == ["--probe-shim"]:
        import ctypes

        hidden = getattr(ctypes.CDLL(None), "bullseye_avx512_hidden", None)
        print("hidden" if hidden and hidden() == 1 else "visible")
        return True
    if sys.argv[1:2] == ["--ort-worker"]:
        import numpy as np

        model, inp, threads, repeat = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        print(ort_median_ms(ort_session(model, threads), np.load(inp), repeat))
        return True
    return False


def peak(exe, isa):
    env = dict(os.environ)
    env.pop("BULLSEYE_ISA", None)
    if isa:
        env["BULLSEYE_ISA"] = isa
    r = subprocess.run([str(exe), "bench", "peak", "--json"], capture_output=True, text=True, env=env, check=True)
    return json.loads(r.stdout)


def cpu_times():
    """(steal, total) jiffies over all CPUs from /proc/stat, or None: the time a VM's
    vCPUs waited for the host, which slows two-thread runs more than one-thread ones."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7] if len(fields) > 7 else 0, sum(fields[:8]))


def steal_share(before, after):
    """The share of CPU time stolen by the host between two cpu_times() samples."""
    if not before or not after or after[1] <= before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def cpu_name():
    """The model name with its family and model numbers: a VM's "AMD EPYC" alone does not
    tell Zen 3 (family 25, AVX2 only), Zen 4 (25, 512-bit ops on 256-bit units) and Zen 5
    (26, full-width AVX-512, so an AVX2 peak half the AVX-512 one) apart."""
    name, fields = platform.processor(), {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
            if key.strip() == "flags":
                break
    except OSError:
        return name
    name = fields.get("model name", name)
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / ".build-models")
    ap.add_argument("--bullseye", help="bullseye binary (default .build/release/bullseye, built if missing)")
    ap.add_argument("--models", default=",".join(REFERENCE), help="reference models (compare_models.py names)")
    ap.add_argument("--no-shipped", action="store_true", help="leave out the models in Models/")
    ap.add_argument("--variant", choices=("slim", "plain"), default="slim",
                    help="YOLO export to time: onnxslim-simplified (Ultralytics' default) or plain")
    ap.add_argument("--repeat", type=int, default=20, help="timed runs per measurement (≥ 20)")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strict", action="store_true", help="exit 1 when a bar is missed")
    ap.add_argument("--json", type=Path, help="default OUT/bench_inference.json")
    a = ap.parse_args()
    if a.repeat < 20:
        ap.error("--repeat must be at least 20")

    import numpy as np
    import onnxruntime as ort

    names = [n for n in a.models.split(",") if n]
    threads = [int(t) for t in a.threads.split(",")]
    out = a.out.resolve()
    built = build_models(out, names, a.seed) if names else {}
    exe = find_bullseye(a.bullseye, True)
    jobs = []  # (label, onnx path, input path, input array)
    for i, n in enumerate(names):
        v = f"{n}-slim" if a.variant == "slim" and f"{n}-slim" in built else n
        inp = make_input(out / f"{n}.input.npy", built[v], a.seed + i)
        jobs.append((v, built[v], inp))
    if not a.no_shipped:
        for i, p in enumerate(sorted((REPO / "Models").glob("*.onnx"))):
            inp = make_input(out / f"shipped-{p.stem}.input.npy", p, a.seed + 100 + i)
            jobs.append((p.stem, p, inp))

    best = peak(exe, None)
    isas = [None] + (["avx2"] if best["isa"] == "avx512" else [])
    shim = avx2_shim(out) if "avx2" in isas else None
    peaks = {None: best["gflops"], **{i: peak(exe, i)["gflops"] for i in isas if i}}
    isa_name = {None: best["isa"], "avx2": "avx2"}
    load = [os.getloadavg()[0]]
    print(f"{cpu_name()}, {os.cpu_count()} CPUs, load {load[0]:.2f}; onnxruntime {ort.__version__}; "
          f"peak per core: " + ", ".join(f"{isa_name[i]} {peaks[i]:.1f} GFLOP/s" for i in isas) +
          f"; {a.passes} passes × {a.repeat} runs", file=sys.stderr)
    sessions = {(v, t): ort_session(p, t) for v, p, _ in jobs for t in threads}
    samples, outputs, macs = {}, {}, {}
    steals, run_start = [], cpu_times()
    for p in range(a.passes):
        for v, path, inp in jobs:
            x = np.load(inp)
            t0 = cpu_times()
            for t in threads:
                samples.setdefault((v, "ort", t), []).append(ort_median_ms(sessions[(v, t)], x, a.repeat))
                time.sleep(0.2)  # let onnxruntime's worker threads go idle
                for isa in isas:
                    o = out / f"{v}.bench.{isa_name[isa]}.t{t}.npy"
                    r = ours(exe, path, inp, o, t, a.repeat, isa)
                    samples.setdefault((v, isa, t), []).append(r["median_ms"])
                    macs[v] = r.get("macs")
                    outputs.setdefault(v, set()).add(o.read_bytes())
                if shim and t == 1:
                    samples.setdefault((v, "ort_avx2", t), []).append(ort_avx2_median_ms(shim, path, inp, t, a.repeat))
            stolen = steal_share(t0, cpu_times())
            steals.append(stolen)
            print(f"pass {p + 1}: {v}: " + ", ".join(
                f"{isa_name.get(e, e)} {t}t {samples[(v, e, t)][-1]:.2f}" for t in threads
                for e in ["ort"] + isas + (["ort_avx2"] if shim and t == 1 else [])) +
                (f"; steal {100 * stolen:.1f}%" if stolen is not None else ""),
                file=sys.stderr)
        load.append(os.getloadavg()[0])

    rows, misses = [], []
    for v, path, inp in jobs:
        med = {k[1:]: statistics.median(s) for k, s in samples.items() if k[0] == v}
        # Ratios are taken pass by pass (both engines ran back to back, under the
        # same load), then their median: a slow stretch of the machine moves a
        # pass's two figures together and leaves its ratio alone.
        per_pass = lambda a, b: statistics.median(x / y for x, y in zip(samples[(v, *a)], samples[(v, *b)]))  # noqa: E731
        s1 = sessions[(v, threads[0])]
        ref = s1.run(None, {s1.get_inputs()[0].name: np.load(inp)})[0]
        mine = np.load(out / f"{v}.bench.{isa_name[None]}.t{threads[0]}.npy")
        acc = float(np.abs(mine.astype(np.float64) - ref).max() / max(np.abs(ref).max(), 1e-30))
        row = {"model": v, "macs": macs[v], "ms": {f"{isa_name.get(e, e)}_{t}t": round(m, 3) for (e, t), m in med.items()},
               "identical_across_threads_and_isas": len(outputs[v]) == 1, "max_rel_diff_vs_ort": acc}
        gf = lambda ms, t: (2 * macs[v] / (ms * 1e6)) if macs[v] else None  # noqa: E731
        for t in threads:
            row[f"gflops_ort_{t}t"] = gf(med[("ort", t)], t)
            for e in isas:
                ratio = per_pass((e, t), ("ort", t))
                row[f"ratio_{isa_name[e]}_{t}t"] = ratio
                g = gf(med[(e, t)], t)
                row[f"gflops_{isa_name[e]}_{t}t"] = g
                row[f"peak_share_{isa_name[e]}_{t}t"] = g / (peaks[e] * t) if g else None
                if t == 1:
                    bar = BAR_1T if e is None else BAR_1T_AVX2
                    # The least ratio this ISA could reach: onnxruntime's GFLOP/s over the ISA's
                    # peak (above the bar where the AVX-512 peak is twice the AVX2 one).
                    ort_g = row["gflops_ort_1t"]
                    floor = ort_g / peaks[e] if ort_g else None
                    row[f"ratio_floor_{isa_name[e]}_1t"] = floor
                    if ratio > bar:
                        # Below the floor's bar the miss is still physical in degree: the bar asks
                        # for onnxruntime's GFLOP/s over the bar, as a share of this ISA's peak.
                        needed = ort_g / (bar * peaks[e]) if ort_g else None
                        share = row[f"peak_share_{isa_name[e]}_1t"]
                        why = (f"; out of reach here: onnxruntime runs at {ort_g:.0f} GFLOP/s, "
                               f"{isa_name[e]} peaks at {peaks[e]:.0f}, so the ratio is at least {floor:.2f}"
                               if floor and floor > bar else
                               f"; the bar needs {needed:.0%} of the {isa_name[e]} peak, this path runs at {share:.0%}"
                               if needed and share else "")
                        misses.append(f"{v}: {isa_name[e]} 1 thread {ratio:.2f} × onnxruntime (bar {bar}){why}")
        if shim and 1 in threads:
            # An AVX2 machine's bar: our AVX2 path against onnxruntime's, both engines on AVX2 + FMA.
            ratio = per_pass(("avx2", 1), ("ort_avx2", 1))
            row["ratio_avx2_vs_ort_avx2_1t"] = ratio
            if ratio > BAR_1T:
                misses.append(f"{v}: avx2 1 thread {ratio:.2f} × onnxruntime's AVX2 path (an AVX2 machine's bar "
                              f"{BAR_1T}; onnxruntime shown no AVX-512)")
        if 1 in threads and 2 in threads:
            sp = per_pass((None, 1), (None, 2))
            bar = BAR_2T_BIG if med[(None, 1)] >= BIG_MS else BAR_2T_SMALL
            row["speedup_2t"], row["speedup_bar"] = sp, bar
            row["ort_speedup_2t"] = per_pass(("ort", 1), ("ort", 2))
            if sp < bar:
                misses.append(f"{v}: 2 threads {sp:.2f} × faster than 1 (bar {bar})")
        if not row["identical_across_threads_and_isas"]:
            misses.append(f"{v}: outputs differ across thread counts or instruction sets")
        if acc > ACCURACY:
            misses.append(f"{v}: max |ours − onnxruntime| is {acc:.2e} × max|onnxruntime| (bar {ACCURACY})")
        rows.append(row)

    cols = [(f"{isa_name[e]} {t}t", e, t) for t in threads for e in isas]
    hdr = f"{'model':<22} {'ORT 1t':>7} " + " ".join(f"{c[0] + ' ms':>13} {'×ORT':>5} {'%peak':>5}" for c in cols if c[2] == 1)
    if 2 in threads:
        hdr += f" {'ORT 2t':>7} {'ours 2t':>7} {'×ORT':>5} {'2t/1t':>5} {'ORT 2t/1t':>9}"
    hdr += "  same bits"
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        ms = r["ms"]
        line = f"{r['model']:<22} {ms['ort_1t']:>7.2f} "
        line += " ".join(f"{ms[f'{isa_name[e]}_1t']:>13.2f} {r[f'ratio_{isa_name[e]}_1t']:>5.2f} "
                         f"{100 * (r[f'peak_share_{isa_name[e]}_1t'] or 0):>4.0f}%" for c, e, t in cols if t == 1)
        if 2 in threads:
            line += (f" {ms['ort_2t']:>7.2f} {ms[f'{isa_name[None]}_2t']:>7.2f} {r[f'ratio_{isa_name[None]}_2t']:>5.2f}"
                     f" {r['speedup_2t']:>5.2f} {r['ort_speedup_2t']:>9.2f}")
        line += f"  {'yes' if r['identical_across_threads_and_isas'] else 'NO'}"
        print(line)
    print(f"ms per image, median of {a.passes} pass medians; ×ORT = ours / onnxruntime and 2t/1t, medians of the "
          f"passes' own ratios; %peak = GFLOP/s over "
          f"one core's measured FMA peak × threads ({', '.join(f'{isa_name[i]} {peaks[i]:.0f}' for i in isas)} GFLOP/s)")
    if shim and 1 in threads:
        print(f"AVX2 against AVX2, 1 thread (onnxruntime in a child process shown no AVX-512, {SHIM_SRC.name}):")
        for r in rows:
            print(f"  {r['model']:<22} ORT avx2 {r['ms']['ort_avx2_1t']:>8.2f} ms   ours avx2 {r['ms']['avx2_1t']:>8.2f} ms"
                  f"   ×ORT {r['ratio_avx2_vs_ort_avx2_1t']:.2f}")
    elif "avx2" in isas:
        print("AVX2 against AVX2: not measured (no CPUID faulting here, or no C compiler for the shim)")
    overall = steal_share(run_start, cpu_times())
    known = [x for x in steals if x is not None]
    print(f"machine: {cpu_name()}, best ISA {best['isa']}; load average {min(load):.2f}–{max(load):.2f} during the run"
          + (f"; host steal {100 * overall:.1f}% of CPU time (per model and pass {100 * min(known):.1f}–{100 * max(known):.1f}%)"
             if overall is not None and known else ""))
    for m in misses:
        print(f"FAIL {m}")
    if not misses:
        print("PASS every bar (1t ≤ 1.15 × ORT, AVX2 ≤ 1.3 ×, 2t ≥ 1.85/1.5 ×, same bits, ≤ 1e-4 of ORT)")
    report = a.json or out / "bench_inference.json"
    report.write_text(json.dumps({
        "cpu": cpu_name(), "cpus": os.cpu_count(), "onnxruntime": ort.__version__, "bullseye": str(exe),
        "isa": best["isa"], "ort_avx2_shim": bool(shim), "peak_gflops": {isa_name[i]: peaks[i] for i in isas}, "variant": a.variant,
        "repeat": a.repeat, "passes": a.passes, "loadavg": load, "steal_share": steal_share(run_start, cpu_times()), "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "rows": rows, "misses": misses}, indent=1) + "\n")
    print(f"results in {report}")
    if a.strict and misses:
        sys.exit(1)


if __name__ == "__main__":
    if not child_modes():
        main()
