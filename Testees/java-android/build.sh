#!/usr/bin/env bash
# Compiles the java-android testee with javac (Java 17, no Gradle/Maven) into
# $REPO/.build/testees/java-android/classes, only when a source is newer than the last build.
# Messages go to stderr: stdout may be the protocol channel when run.sh calls this.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$REPO/.build/testees/java-android"
CLASSES="$OUT/classes"
STAMP="$OUT/classes.stamp"

command -v javac >/dev/null 2>&1 || { echo "java-android: javac not found (install openjdk-17-jdk-headless: scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$OUT"

up_to_date() {
  [ -f "$STAMP" ] && [ -d "$CLASSES" ] && [ -z "$(find "$HERE/src" "$HERE/build.sh" -newer "$STAMP" -print -quit)" ]
}

build() {
  up_to_date && return 0
  local tmp="$OUT/classes.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  trap 'rm -rf "$tmp" "$STAMP.new"' ERR
  touch "$STAMP.new"   # sources edited during the compile stay newer than the stamp
  echo "java-android: compiling into $CLASSES" >&2
  find "$HERE/src" -name '*.java' -print0 | xargs -0 javac --release 17 -encoding UTF-8 -Xlint:all -Werror -d "$tmp" 1>&2
  rm -rf "$CLASSES"
  mv "$tmp" "$CLASSES"
  mv "$STAMP.new" "$STAMP"
}

if command -v flock >/dev/null 2>&1; then
  exec 9>"$OUT/build.lock"
  flock 9
fi
build
