#!/usr/bin/env bash
# Creates the testee's venv at $REPO/.build/testees/python-archeryutils/venv from
# requirements.txt. Idempotent: does nothing when the venv is complete and newer
# than requirements.txt. PYTHON picks the interpreter (default python3.11).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="$REPO/.build/testees/python-archeryutils/venv"
REQ="$HERE/requirements.txt"
STAMP="$VENV/.requirements-installed"
PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"

if [ -f "$STAMP" ] && [ "$STAMP" -nt "$REQ" ] && [ -x "$VENV/bin/python" ]; then
  exit 0
fi
echo "python-archeryutils: creating $VENV" >&2
rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$REQ"
touch "$STAMP"
