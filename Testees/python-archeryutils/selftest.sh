#!/usr/bin/env bash
# Pipes protocol lines through run.sh and checks every answer; exits non-zero on any
# mismatch. Needs the venv (build.sh). The checker is stdlib Python.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PY="$REPO/.build/testees/python-archeryutils/venv/bin/python"
[ -x "$PY" ] || PY="${PYTHON:-python3.11}"
exec "$PY" - "$HERE/run.sh" <<'CHECKER'
import json, math, random, struct, subprocess, sys, time

RUN = sys.argv[1]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def session(args, lines):
    """Send lines to run.sh ARGS; return (answer lines, exit code)."""
    p = subprocess.run([RUN, *args], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True, timeout=120)
    return p.stdout.splitlines(), p.returncode, p.stderr


def run(seq, stage, inp):
    return json.dumps({"cmd": "run", "seq": seq, "stage": stage, "id": f"t{seq}", "input": inp})


START = '{"cmd":"start","version":1}'
STOP = '{"cmd":"stop"}'


def sc(face, dcm, x, y, arrow=5.5):
    return {"face": face, "diameter_cm": dcm, "x_mm": x, "y_mm": y, "arrow_diameter_mm": arrow}


def out(points, x):
    return {"output": {"points": points, "x": x}}


# (input, inclusive, strict, line-cutter)
CASES = [
    (sc("10_zone", 122, 0, 0), out(10, True), out(10, True), out(10, True)),
    (sc("10_zone", 122, 0, 30.5), out(10, True), out(10, False), out(10, True)),
    (sc("10_zone", 122, 0, 61), out(10, False), out(9, False), out(10, False)),
    (sc("10_zone", 122, 0, 33.25), out(10, False), out(10, False), out(10, True)),
    (sc("10_zone", 122, 0, 63.75), out(9, False), out(9, False), out(10, False)),
    (sc("10_zone", 122, 0, 63.76), out(9, False), out(9, False), out(9, False)),
    (sc("10_zone", 122, 0, 63.5, 5.0), out(9, False), out(9, False), out(10, False)),
    (sc("10_zone", 122, -12.5, 304.9), out(5, False), out(5, False), out(6, False)),
    (sc("10_zone", 122, 610, 0), out(1, False), out(0, False), out(1, False)),
    (sc("10_zone", 122, 610.0000000000001, 0), out(0, False), out(0, False), out(1, False)),
    (sc("10_zone", 122, 0, 700), out(0, False), out(0, False), out(0, False)),
    (sc("10_zone", 40, 0, 10), out(10, True), out(10, False), out(10, True)),
    (sc("10_zone_6_ring", 80, 0, 240), out(5, False), out(0, False), out(5, False)),
    (sc("10_zone_6_ring", 80, 0, 20), out(10, True), out(10, False), out(10, True)),
    (sc("10_zone_5_ring", 40, 0, 100), out(6, False), out(0, False), out(6, False)),
    (sc("10_zone_5_ring", 60, 0, 15), out(10, True), out(10, False), out(10, True)),
    (sc("10_zone_compound", 40, 0, 5), out(10, False), out(10, False), out(10, False)),
    (sc("10_zone_compound", 40, 0, 10), out(10, False), out(9, False), out(10, False)),
    (sc("10_zone_compound", 40, 0, 15), out(9, False), out(9, False), out(9, False)),
    (sc("10_zone_5_ring_compound", 40, 0, 100), out(6, False), out(0, False), out(6, False)),
    (sc("11_zone", 40, 0, 10), out(11, True), out(10, False), out(11, True)),
    (sc("11_zone", 40, 0, 10.5), out(10, False), out(10, False), out(11, True)),
    (sc("11_zone_6_ring", 80, 0, 241), out(0, False), out(0, False), out(5, False)),
    (sc("11_zone_5_ring", 40, 3, 4), out(11, True), out(11, True), out(11, True)),
    (sc("5_zone", 122, 0, 122), out(9, False), out(7, False), out(9, False)),
    (sc("5_zone", 60, 0, 150), out(5, False), out(5, False), out(5, False)),
    (sc("5_zone", 60, 0, 300), out(1, False), out(0, False), out(1, False)),
    (sc("Worcester", 40.64, 0, 40.64), out(5, False), out(4, False), out(5, False)),
    (sc("Worcester", 40.64, 0, 203.2), out(1, False), out(0, False), out(1, False)),
    (sc("Worcester_2_ring", 40.64, 0, 81.29), out(0, False), out(0, False), out(4, False)),
    (sc("WA_field", 80, 0, 40), out(6, False), out(5, False), out(6, False)),
    (sc("WA_field", 80, 0, 100), out(4, False), out(4, False), out(4, False)),
    (sc("IFAA_field", 35, 0, 100), out(4, False), out(4, False), out(4, False)),
    (sc("IFAA_field_expert", 50, 0, 250), out(1, False), out(0, False), out(1, False)),
    (sc("AA_national_field", 20, 0, 20), out(5, False), out(4, False), out(5, False)),
]
SKIPS = [sc("Beiter_hit_miss", 40, 0, 0), sc("10_zone", 50, 0, 0), sc("wa_3spot", 40, 0, 0),
         sc("Custom", 40, 0, 0), sc("10_zone", 122.5, 0, 0)]
ERRORS = [{"face": "10_zone", "diameter_cm": 122, "x_mm": 0}, {**sc("10_zone", 122, 0, 0), "x_mm": "0"},
          {**sc("10_zone", "122", 0, 0)}, [1, 2]]

for col, args in ((1, []), (2, ["--boundary", "strict"]), (3, ["--boundary", "line-cutter"])):
    lines, seq = [START], 0
    expect = []
    for c in CASES:
        seq += 1
        lines.append(run(seq, "score", c[0]))
        expect.append((seq, c[col]))
    for s in SKIPS:
        seq += 1
        lines.append(run(seq, "score", s))
        expect.append((seq, "skipped"))
    for e in ERRORS:
        seq += 1
        lines.append(run(seq, "score", e))
        expect.append((seq, "error"))
    seq += 1
    lines.append(json.dumps({"cmd": "run_batch", "seq": seq, "stage": "score",
                             "cases": [{"id": f"b{i}", "input": c[0]} for i, c in enumerate(CASES)] + [{"id": "s", "input": SKIPS[0]}]}))
    batch_seq = seq
    lines.append(STOP)
    got, rc, err = session(args, lines)
    name = " ".join(args) or "default"
    if rc != 0:
        fail(f"[{name}] exit {rc}: {err[-500:]}")
    ready = json.loads(got[0])
    want_sem = {"boundary": ["inclusive", "strict", "line-cutter"][col - 1], "precision": "double"}
    if not (ready.get("ready") is True and ready.get("semantics") == want_sem and ready.get("batch") is True
            and sorted(ready.get("stages", [])) == ["echo", "score"]):
        fail(f"[{name}] ready: {got[0]}")
    answers = [json.loads(l) for l in got[1:]]
    if len(answers) != len(expect) + 1:
        fail(f"[{name}] {len(answers)} answers for {len(expect) + 1} requests")
    for (s, want), a in zip(expect, answers):
        if a.get("seq") != s:
            fail(f"[{name}] seq {a.get('seq')} != {s}")
        elif isinstance(want, str):
            if want not in a:
                fail(f"[{name}] seq {s}: wanted {want}, got {a}")
        elif {k: v for k, v in a.items() if k != "seq"} != want:
            fail(f"[{name}] seq {s} ({lines[s]}): wanted {want}, got {a}")
    b = answers[-1] if answers else {}
    want_b = [c[col] for c in CASES] + ["skipped"]
    if b.get("seq") != batch_seq or len(b.get("answers", [])) != len(want_b):
        fail(f"[{name}] batch answer {b}")
    else:
        for w, a in zip(want_b, b["answers"]):
            if (w not in a) if isinstance(w, str) else (a != w):
                fail(f"[{name}] batch: wanted {w}, got {a}")

# Declarations, bad lines, stop.
got, rc, _ = session(["--boundary", "strict", "--declare", "boundary=floor,precision=float32"],
                     [START, "not json at all", '{"seq":7, broken', '{"cmd":"run","seq":8}',
                      run(9, "nms", {}), run(10, "echo", {"k": [1, 2.5, -0.0]}), STOP, run(11, "echo", 1)])
want = [{"semantics": {"boundary": "floor", "precision": "float32"}},
        {"seq": 7, "error": None}, {"seq": 8, "error": None}, {"seq": 9, "skipped": None},
        {"seq": 10, "output": {"k": [1, 2.5, -0.0]}}]
if rc != 0 or len(got) != len(want):
    fail(f"[bad lines] rc={rc} answers={got}")
else:
    for w, line in zip(want, got):
        a = json.loads(line)
        for k, v in w.items():
            if k not in a or (v is not None and a[k] != v):
                fail(f"[bad lines] wanted {w}, got {line}")
    if got[-1] != '{"seq":10,"output":{"k":[1,2.5,-0.0]}}':
        fail(f"[bad lines] echo text {got[-1]}")

# EOF without stop exits 0.
got, rc, _ = session([], [START, run(1, "echo", "x")])
if rc != 0 or len(got) != 2:
    fail(f"[eof] rc={rc} answers={got}")

# Interactive: each answer must arrive before the next request is written (flushing).
p = subprocess.Popen([RUN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
try:
    p.stdin.write(START + "\n"); p.stdin.flush()
    ok = json.loads(p.stdout.readline()).get("ready") is True
    for i in range(3):
        p.stdin.write(run(i, "score", sc("10_zone", 122, 0, 0)) + "\n" + '{"cmd":"run","seq":99,"st'); p.stdin.flush()
        ok = ok and json.loads(p.stdout.readline()) == {"seq": i, "output": {"points": 10, "x": True}}
        p.stdin.write('age":"echo","input":' + str(i) + '}\n'); p.stdin.flush()
        ok = ok and json.loads(p.stdout.readline()) == {"seq": 99, "output": i}
    p.stdin.write(STOP + "\n"); p.stdin.flush()
    ok = ok and p.wait(timeout=10) == 0
except Exception as e:
    ok = False
    p.kill()
if not ok:
    fail("[interactive] answers did not arrive line by line")

# Echo: exact text for tricky numbers, then 100,000 random doubles bit for bit.
TRICKY = '[-0.0,0.0,1.0,-1,0,5e-324,-5e-324,2.2250738585072014e-308,1.7976931348623157e+308,0.1,1e+23,9007199254740993,123456789012345678901234567890,"\\u00e9\\ud83c\\udfaf",{"a":null,"b":true}]'
got, rc, _ = session([], [START, '{"cmd":"run","seq":1,"stage":"echo","input":' + TRICKY + '}', STOP])
if len(got) != 2 or got[1] != '{"seq":1,"output":' + TRICKY + '}':
    fail(f"[echo tricky] {got[1:] if len(got) > 1 else got}")
got, rc, _ = session([], [START, '{"cmd":"run","seq":1,"stage":"echo","input":-0}', STOP])
if len(got) != 2 or struct.pack(">d", json.loads(got[1])["output"]) != struct.pack(">d", -0.0):
    fail(f"[echo -0] {got}")

rng = random.Random(20240611)
def rand_double():
    while True:
        v = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(v):
            return v
N, PER = 100_000, 100
values = [rand_double() for _ in range(N)]
lines = [START]
for i in range(0, N, PER):
    lines.append(json.dumps({"cmd": "run", "seq": i // PER, "stage": "echo", "input": values[i:i + PER]}))
half = len(lines) // 2
lines.insert(half, json.dumps({"cmd": "run_batch", "seq": -1, "stage": "echo",
                               "cases": [{"id": str(j), "input": v} for j, v in enumerate(values[:1000])]}))
lines.append(STOP)
t0 = time.perf_counter()
got, rc, _ = session([], lines)
dt = time.perf_counter() - t0
bits = lambda v: struct.pack("<d", v)
back = []
for line in got[1:]:
    a = json.loads(line)
    if a["seq"] == -1:
        if [bits(x["output"]) for x in a["answers"]] != [bits(v) for v in values[:1000]]:
            fail("[echo batch] doubles differ")
    else:
        back.extend(a["output"])
if len(back) != N or any(type(b) is not float or bits(b) != bits(v) for b, v in zip(back, values)):
    bad = sum(1 for b, v in zip(back, values) if bits(b) != bits(v))
    fail(f"[echo random] {len(back)} back of {N}, {bad} differ")
print(f"echo: {N} random doubles round-tripped in {dt:.2f} s")

# Throughput: 10,000 score requests.
lines = [START] + [run(i, "score", sc("10_zone", 122, rng.uniform(-700, 700), rng.uniform(-700, 700)))
                   for i in range(10_000)] + [STOP]
t0 = time.perf_counter()
got, rc, _ = session([], lines)
dt = time.perf_counter() - t0
if len(got) != 10_001 or any('"output"' not in g for g in got[1:]):
    fail("[throughput] missing answers")
print(f"score: 10000 cases in {dt:.2f} s ({10000 / dt:.0f}/s, including start-up)")

print("selftest:", "FAILED" if failures else "ok", f"({failures} failures)" if failures else "")
sys.exit(1 if failures else 0)
CHECKER
