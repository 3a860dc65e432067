#!/usr/bin/env bash
# `make conform`: every reference testee under Testees/, each profile run twice
# against the built-in suite:
#   1. declaring what its code does: must pass (exit 0), with an expectations
#      file listing only cases no named axis covers;
#   2. declaring the app's documented intent: must fail (exit 1), and its
#      classification — where the app goes wrong — is kept in Testees/<name>/REPORT.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$PWD/.build/release/bullseye"
OUT=.build/conform
mkdir -p "$OUT"
status=0

# name | profile | truthful command | intent command (declares the documented intent)
RUNS=(
  "python-archeryutils|default|bash Testees/python-archeryutils/run.sh|bash Testees/python-archeryutils/run.sh --declare boundary=line-cutter"
  "java-android|android|bash Testees/java-android/run.sh|bash Testees/java-android/run.sh --declare precision=double,input_mapping=letterbox,decode_precision=double"
)
if [ -f Testees/swift-seed-app/Package.swift ]; then
  RUNS+=(
    "swift-seed-app|camera|bash Testees/swift-seed-app/run.sh --profile camera|bash Testees/swift-seed-app/run.sh --profile camera --declare boundary=inclusive,precision=double,nms_iou=union"
    "swift-seed-app|tap|bash Testees/swift-seed-app/run.sh --profile tap|bash Testees/swift-seed-app/run.sh --profile tap --declare boundary=inclusive"
    "swift-seed-app|batsight|bash Testees/swift-seed-app/run.sh --profile batsight|bash Testees/swift-seed-app/run.sh --profile batsight --declare nms_iou=union,nms_order=by-score"
    "swift-seed-app|camera-stale-capture|bash Testees/swift-seed-app/run.sh --profile camera --stale-capture|bash Testees/swift-seed-app/run.sh --profile camera --stale-capture --declare drag=start-plus-translation"
  )
fi

for name in $(printf '%s\n' "${RUNS[@]}" | cut -d'|' -f1 | sort -u); do
  echo "== building $name"
  bash "Testees/$name/build.sh"
  rm -f "$OUT/$name".*.json
done

for run in "${RUNS[@]}"; do
  IFS='|' read -r name profile truthful intent <<<"$run"
  known="Testees/$name/$profile.expected"
  echo "== $name ($profile), declaring what the code does"
  args=(conform run --testee "$truthful" --junit "$OUT/$name.$profile.xml")
  [ -f "$known" ] && args+=(--expectations "$known")
  if "$BIN" "${args[@]}" >"$OUT/$name.$profile.txt"; then
    tail -n 1 "$OUT/$name.$profile.txt"
  else
    echo "FAILED: $name ($profile) does not pass declaring what it does:"; grep -v '^known ' "$OUT/$name.$profile.txt" | tail -n 25
    status=1
  fi
  echo "== $name ($profile), declaring the documented intent (must fail)"
  set +e
  "$BIN" conform run --testee "$intent" --json --markdown "$OUT/$name.$profile.md" \
    --markdown-title "Profile \`$profile\`" >"$OUT/$name.$profile.intent.json"
  rc=$?
  set -e
  if [ "$rc" -ne 1 ]; then
    echo "FAILED: $name ($profile) declaring its intent exited $rc, expected 1 (not conformant)"; status=1
  fi
  md="$OUT/$name.$profile.md"
  { head -n 2 "$md"; echo "Command: \`$intent\`"; echo; tail -n +3 "$md"; } >>"$OUT/$name.report.md"
done

for name in $(printf '%s\n' "${RUNS[@]}" | cut -d'|' -f1 | sort -u); do
  { echo "# $name: where the app goes wrong"
    echo
    echo "Written by \`make conform\` (scripts/conform.sh): each profile run against the built-in suite while"
    echo "declaring the app's documented intent. The classification says what the code really does."
    echo
    cat "$OUT/$name.report.md"; } >"Testees/$name/REPORT.md.tmp"
  mv "Testees/$name/REPORT.md.tmp" "Testees/$name/REPORT.md"
  rm -f "$OUT/$name.report.md"
done
exit $status
