#!/usr/bin/env python3
"""Weight average of two checkpoints of one architecture ("model soup").

  python soup.py A.pt B.pt T OUT.pt      # OUT = (1 - T) * A + T * B

A fine-tune that learns a new look (B) can give up a little of what its start (A)
knew; a point between them often keeps most of both. Integer buffers come from B.
"""
import sys

import torch


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    a = torch.load(sys.argv[1], map_location="cpu")
    b = torch.load(sys.argv[2], map_location="cpu")
    t = float(sys.argv[3])
    if not 0 <= t <= 1:
        raise SystemExit(f"T {t} is out of range: expected 0...1")
    if a["model"].keys() != b["model"].keys():
        raise SystemExit("the checkpoints hold different weights: expected one architecture")
    out = dict(b)
    out["model"] = {k: a["model"][k] * (1 - t) + v * t if v.dtype.is_floating_point else v for k, v in b["model"].items()}
    out["args"] = {**b.get("args", {}), "soup": [sys.argv[1], sys.argv[2], t]}
    torch.save(out, sys.argv[4])


if __name__ == "__main__":
    main()
