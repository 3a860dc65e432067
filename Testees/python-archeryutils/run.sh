#!/usr/bin/env bash
# Runs the testee: run.sh [--boundary inclusive|strict|line-cutter] [--declare AXIS=VALUE,...]
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PY="$REPO/.build/testees/python-archeryutils/venv/bin/python"
if [ ! -x "$PY" ]; then
  echo "python-archeryutils: no venv at ${PY%/bin/python}; run Testees/python-archeryutils/build.sh first" >&2
  exit 1
fi
exec "$PY" -I "$HERE/testee.py" "$@"
