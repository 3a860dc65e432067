#!/usr/bin/env python3
"""Bullseye conformance testee (protocol v1) for the `score` and `echo` stages.

Face geometry comes from archeryutils (PyPI): `Target.face_spec` / `Target.gen_face_spec`
give each ring's diameter in metres, rounded to 6 decimals (1 µm), mapped to its score.
archeryutils has no per-arrow scoring, so the points are computed here from those
diameters under the comparison selected by --boundary. See README.md.

Usage: testee.py [--boundary inclusive|strict|line-cutter] [--declare AXIS=VALUE,...]
"""

import json
import math
import os
import re
import sys
from importlib import metadata
from pathlib import Path

import archeryutils
import archeryutils.load_rounds as au_load_rounds
from archeryutils import Target

TESTEE_VERSION = "1.0"
PROTOCOL_VERSION = 1
BOUNDARIES = ("inclusive", "strict", "line-cutter")

# Faces whose X is the inner 10 (WA Book 3: the inner ten ring, diameter = face / 20,
# scores 10 and is recorded as X). archeryutils lists no ring for it on these faces.
X_INNER_TEN = frozenset({"10_zone", "10_zone_6_ring", "10_zone_5_ring"})
# Faces whose X is the ring that scores 11 (archeryutils lists it: diameter = face / 20).
X_ELEVEN = frozenset({"11_zone", "11_zone_6_ring", "11_zone_5_ring"})

# Sizes that no archeryutils round defines but a rule book does, for faces archeryutils
# knows (value, unit as archeryutils' Target accepts it).
#  IFAA_field_expert: IFAA Book of Rules, field faces 65/50/35/20 cm (archeryutils'
#  own "IFAA Expert" rounds shoot those sizes, with the identical "Worcester" spec).
RULE_BOOK_SIZES = {
    "IFAA_field_expert": [(20, "cm"), (35, "cm"), (50, "cm"), (65, "cm")],
}


def log(msg):
    sys.stderr.write(f"python-archeryutils: {msg}\n")
    sys.stderr.flush()


# ---------------------------------------------------------------- face table

def _um(metres):
    """Metres (already rounded by archeryutils to 1 µm) -> integer micrometres."""
    return int(round(metres * 1e6))


def build_targets():
    """(face, diameter in µm) -> archeryutils Target, for every size archeryutils defines.

    The sizes are the ones archeryutils' bundled round definitions use per scoring
    system (read through archeryutils' own loader), plus RULE_BOOK_SIZES.
    """
    targets = {}
    data_dir = Path(au_load_rounds.__file__).parent / "round_data_files"
    files = sorted(p.name for p in data_dir.glob("*.json"))
    for rnd in au_load_rounds.read_json_to_round_dict(files).values():
        for p in rnd.passes:
            t = p.target
            targets.setdefault((t.scoring_system, _um(t.diameter)), t)
    for face, sizes in RULE_BOOK_SIZES.items():
        for size in sizes:
            t = Target(face, size, 1.0)
            targets.setdefault((face, _um(t.diameter)), t)
    return targets


class Face:
    """One face at one size: rings as (radius mm, points), smallest first, and the X radius."""

    __slots__ = ("rings", "x_radius", "x_points")

    def __init__(self, target):
        system = target.scoring_system
        spec = Target.gen_face_spec(system, target.diameter)
        # gen_face_spec keys are ring diameters in metres rounded to 6 decimals (1 µm):
        # an integer number of µm, so the radius in mm is that integer / 2000, correctly
        # rounded (the double nearest the rule book's decimal value).
        self.rings = sorted((_um(d) / 2000.0, int(pts)) for d, pts in spec.items())
        self.x_radius = None  # X decided by radius (inner ten)
        self.x_points = None  # X decided by points (the 11)
        if system in X_INNER_TEN:
            self.x_radius = _um(round(target.diameter / 20, 6)) / 2000.0
        elif system in X_ELEVEN:
            self.x_points = 11


# ---------------------------------------------------------------- the scorer

class Scorer:
    def __init__(self, boundary):
        self.boundary = boundary
        self.targets = build_targets()
        self.faces = {}  # (face, key) -> Face, built lazily

    def face(self, name, diameter_cm):
        if not isinstance(name, str):
            raise ValueError("face must be a string")
        if isinstance(diameter_cm, bool) or not isinstance(diameter_cm, (int, float)):
            raise ValueError("diameter_cm must be a number")
        dcm = float(diameter_cm)
        if not math.isfinite(dcm) or dcm <= 0:
            return None
        key = int(round(dcm * 10000))  # cm -> µm
        if abs(dcm * 10000 - key) > 1e-3:
            return None
        cached = self.faces.get((name, key))
        if cached is not None:
            return cached
        target = self.targets.get((name, key))
        if target is None:
            return None
        f = Face(target)
        self.faces[(name, key)] = f
        return f

    def score(self, inp):
        if not isinstance(inp, dict):
            raise ValueError("input must be an object")
        for k in ("face", "diameter_cm", "x_mm", "y_mm"):
            if k not in inp:
                raise ValueError(f"input lacks {k!r}")
        f = self.face(inp["face"], inp["diameter_cm"])
        if f is None:
            return ("skipped", f"archeryutils has no face {inp['face']} at {inp['diameter_cm']} cm")
        x = _num(inp, "x_mm")
        y = _num(inp, "y_mm")
        d = math.hypot(x, y)
        b = self.boundary
        if b == "line-cutter":
            if "arrow_diameter_mm" not in inp:
                raise ValueError("input lacks 'arrow_diameter_mm'")
            d = d - _num(inp, "arrow_diameter_mm") / 2
        strict = b == "strict"
        points = 0
        for r, pts in f.rings:
            if (d < r) if strict else (d <= r):
                points = pts
                break
        if points == 0:
            return ("output", {"points": 0, "x": False})
        if f.x_radius is not None:
            r = f.x_radius
            is_x = (d < r) if strict else (d <= r)
        elif f.x_points is not None:
            is_x = points == f.x_points
        else:
            is_x = False
        return ("output", {"points": points, "x": is_x})


def _num(inp, key):
    v = inp[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{key} must be a number")
    v = float(v)
    if not math.isfinite(v):
        raise ValueError(f"{key} is not finite")
    return v


# ---------------------------------------------------------------- JSON

def _parse_constant(name):
    raise ValueError(f"{name} is not JSON")


def _parse_int(text):
    # "-0" must keep its sign: as an int it would come back as 0.
    if text == "-0":
        return -0.0
    return int(text)


_decoder = json.JSONDecoder(parse_constant=_parse_constant, parse_int=_parse_int)
_encoder = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def loads(data):
    if isinstance(data, (bytes, bytearray)):
        data = data.decode("utf-8")
    return _decoder.decode(data)


dumps = _encoder.encode

_SEQ_RE = re.compile(rb'"seq"\s*:\s*(-?\d+)')


# ---------------------------------------------------------------- protocol

class Testee:
    def __init__(self, boundary, declared):
        self.scorer = Scorer(boundary)
        self.declared = declared
        self.stages = {"score": self.scorer.score, "echo": lambda inp: ("output", inp)}
        try:
            au_version = metadata.version("archeryutils")
        except metadata.PackageNotFoundError:
            au_version = getattr(archeryutils, "__version__", "?")
        self.name = f"python-archeryutils {TESTEE_VERSION} (archeryutils {au_version})"

    def ready(self):
        return {"ready": True, "name": self.name, "stages": list(self.stages),
                "semantics": self.declared, "batch": True}

    def run_case(self, stage, inp):
        """-> one answer body: {"output":…}, {"skipped":…} or {"error":…}."""
        fn = self.stages.get(stage)
        if fn is None:
            return {"skipped": f"stage {stage!r} is not implemented by this testee"}
        try:
            kind, value = fn(inp)
            return {kind: value}
        except Exception as e:  # noqa: BLE001 - a bad case must never kill the testee
            return {"error": f"{type(e).__name__}: {e}"}

    def handle(self, line):
        """One request line -> answer line (str, with '\\n'), None, or STOP."""
        try:
            msg = loads(line)
        except Exception as e:  # noqa: BLE001
            m = _SEQ_RE.search(line)
            if m:
                return self.answer({"seq": int(m.group(1)), "error": f"request is not JSON: {e}"})
            log(f"ignoring a line that is not JSON: {e}")
            return None
        if not isinstance(msg, dict):
            log("ignoring a line that is not a JSON object")
            return None
        cmd = msg.get("cmd")
        seq = msg.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            seq = None
        if cmd == "start":
            if msg.get("version") != PROTOCOL_VERSION:
                log(f"harness speaks protocol version {msg.get('version')!r}; this testee speaks {PROTOCOL_VERSION}")
            return self.answer(self.ready())
        if cmd == "stop":
            return STOP
        if cmd == "run":
            if seq is None:
                log("ignoring a run request without an integer seq")
                return None
            if "stage" not in msg or "input" not in msg:
                return self.answer({"seq": seq, "error": "run request lacks 'stage' or 'input'"})
            body = self.run_case(msg["stage"], msg["input"])
            return self.answer({"seq": seq, **body})
        if cmd == "run_batch":
            if seq is None:
                log("ignoring a run_batch request without an integer seq")
                return None
            cases = msg.get("cases")
            if "stage" not in msg or not isinstance(cases, list):
                return self.answer({"seq": seq, "error": "run_batch request lacks 'stage' or a 'cases' list"})
            stage = msg["stage"]
            answers = []
            for c in cases:
                if not isinstance(c, dict) or "input" not in c:
                    answers.append({"error": "case lacks 'input'"})
                else:
                    body = self.run_case(stage, c["input"])
                    try:
                        dumps(body)  # one case that cannot be JSON must not spoil the batch
                    except Exception as e:  # noqa: BLE001
                        body = {"error": f"answer is not JSON: {e}"}
                    answers.append(body)
            return self.answer({"seq": seq, "answers": answers})
        if seq is not None:
            return self.answer({"seq": seq, "error": f"unknown cmd {cmd!r}"})
        log(f"ignoring unknown cmd {cmd!r}")
        return None

    @staticmethod
    def answer(obj):
        try:
            return dumps(obj) + "\n"
        except Exception as e:  # noqa: BLE001
            seq = obj.get("seq")
            if isinstance(seq, int):
                return dumps({"seq": seq, "error": f"answer is not JSON: {e}"}) + "\n"
            log(f"cannot encode an answer: {e}")
            return None


STOP = object()


def serve(testee):
    """Read stdin in chunks; answer every complete line in a chunk, then flush once."""
    fd = sys.stdin.fileno()
    out = sys.stdout
    pending = []  # pieces of a line not yet ended (a long line arrives in many reads)
    while True:
        try:
            chunk = os.read(fd, 1 << 20)
        except InterruptedError:
            continue
        eof = not chunk
        if eof:
            rest = b"".join(pending)
            lines, pending = ([rest] if rest.strip() else []), []
        elif b"\n" not in chunk:
            pending.append(chunk)
            continue
        else:
            pending.append(chunk)
            *lines, last = b"".join(pending).split(b"\n")
            pending = [last] if last else []
        answers = []
        stop = False
        for raw in lines:
            if not raw.strip():
                continue
            try:
                a = testee.handle(raw)
            except Exception as e:  # noqa: BLE001 - never crash on a line
                log(f"internal error on a line: {type(e).__name__}: {e}")
                continue
            if a is STOP:
                stop = True
                break
            if a is not None:
                answers.append(a)
        if answers:
            out.write("".join(answers))
            out.flush()
        if stop or eof:
            return 0


def parse_args(argv):
    boundary = "inclusive"
    declare = {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if a.startswith("--boundary="):
            val, i = a.split("=", 1)[1], i + 1
        elif a == "--boundary" and i + 1 < len(argv):
            val, i = argv[i + 1], i + 2
        elif a.startswith("--declare="):
            val, i = a.split("=", 1)[1], i + 1
            _parse_declare(val, declare)
            continue
        elif a == "--declare" and i + 1 < len(argv):
            _parse_declare(argv[i + 1], declare)
            i += 2
            continue
        else:
            log(f"usage: testee.py [--boundary {'|'.join(BOUNDARIES)}] [--declare AXIS=VALUE,...] (bad argument {a!r})")
            sys.exit(2)
        if val not in BOUNDARIES:
            log(f"--boundary must be one of {', '.join(BOUNDARIES)} (got {val!r})")
            sys.exit(2)
        boundary = val
    declared = {"boundary": boundary, "precision": "double"}
    declared.update(declare)
    return boundary, declared


def _parse_declare(text, into):
    for part in text.split(","):
        if not part:
            continue
        if "=" not in part:
            log(f"--declare expects AXIS=VALUE pairs (got {part!r})")
            sys.exit(2)
        k, v = part.split("=", 1)
        into[k.strip()] = v.strip()


def main():
    boundary, declared = parse_args(sys.argv[1:])
    testee = Testee(boundary, declared)
    try:
        return serve(testee)
    except (BrokenPipeError, KeyboardInterrupt):
        try:
            sys.stdout = None
        except Exception:  # noqa: BLE001
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
