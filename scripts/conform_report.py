#!/usr/bin/env python3
"""Renders one `bullseye conform run --json` object as a REPORT.md section (dev tool of `make conform`)."""
import collections
import json
import sys

path, profile, command = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path) as f:
    run = json.load(f)
out = [f"## Profile `{profile}`", "", f"Command: `{command}`", "",
       f"Result: {run['passed']} passed, {run['failed']} failed, {run['skipped']} skipped, {run['errored']} errored "
       f"({'conformant' if run['conformant'] else 'not conformant'}).", "",
       "| axis | declared | observed | matches / distinguishing |", "|---|---|---|---|"]
for axis, c in sorted(run["classification"].items()):
    if c["distinguishing"] == 0 and c["declared"] is None:
        continue
    matches = ", ".join(f"{k} {v}" for k, v in sorted(c["matches"].items()))
    flag = " **contradicted**" if c.get("contradicted") else ""
    out.append(f"| {axis} | {c['declared'] or 'undeclared'} | {c['observed'] or '—'}{flag} | {matches} / {c['distinguishing']} |")
out.append("")
by_stage = collections.Counter(f["stage"] for f in run["failures"])
if by_stage:
    out.append("Failures by stage: " + ", ".join(f"{s} {n}" for s, n in sorted(by_stage.items())) + ".")
    out.append("")
    out.append("First failures:")
    out.append("")
    for f in run["failures"][:5]:
        out.append(f"- `{f['id']}`: expected `{json.dumps(f['expected'], sort_keys=True)}`, got `{json.dumps(f['got'], sort_keys=True)}`")
    out.append("")
print("\n".join(out))
