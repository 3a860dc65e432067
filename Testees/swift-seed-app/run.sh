#!/usr/bin/env bash
# Runs the testee: run.sh --profile camera|tap|batsight [--declare AXIS=VALUE,...] [--stale-capture] [--nms-iou V]
# Builds first (build.sh) when the binary is missing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BIN="$REPO/.build/testees/swift-seed-app/release/SeedApp"
if [ ! -x "$BIN" ]; then
  "$HERE/build.sh" >&2
fi
exec "$BIN" "$@"
