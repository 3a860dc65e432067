#!/usr/bin/env bash
# Runs the java-android testee (Bullseye conformance protocol v1 on stdin/stdout), building it first
# when needed. Arguments go to the program: run.sh [--declare axis=value,...]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
"$HERE/build.sh" </dev/null 1>&2
exec java -XX:+UseSerialGC -Xshare:auto \
  -cp "$REPO/.build/testees/java-android/classes" bullseye.testee.Main "$@"
