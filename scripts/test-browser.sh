#!/usr/bin/env bash
# Loads verify's review page in headless Chromium: one scenario failing on
# purpose (its golden altered in a temporary copy) and one passing. Fails on
# any console message or script error, when the page's script did not run, or
# when the first scenario in the DOM is not the failure.
# Usage: scripts/test-browser.sh [path/to/bullseye]   (default .build/release/bullseye)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/bullseye}

browser=""
for b in chromium chromium-browser google-chrome; do command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }; done
if [ -z "$browser" ]; then
  echo "test-browser: installing chromium"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium
  browser=chromium
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failing=archery-nms-batsight-order
passing=confidence-edge-android
mkdir -p "$tmp/G"
cp -r "Golden/$failing" "Golden/$passing" "$tmp/G/"
# The altered golden: one more point in the end total than the scenario scores.
python3 - "$tmp/G/$failing/result.json" <<'EOF'
import json, sys
path = sys.argv[1]
d = json.load(open(path))
for run in d["runs"].values():
    run["result"]["end_total"] += 1
json.dump(d, open(path, "w"), indent=2, sort_keys=True)
EOF

set +e
"$BIN" verify "Scenarios/archery/$passing.yaml" "Scenarios/archery/$failing.yaml" --golden "$tmp/G" --report "$tmp/R" --jobs 1 >"$tmp/verify.log" 2>&1
rc=$?
set -e
if [ "$rc" -ne 1 ]; then
  cat "$tmp/verify.log"
  echo "test-browser: FAILED: verify exited $rc, expected 1 (one scenario differs on purpose)"
  exit 1
fi

"$browser" --headless --no-sandbox --disable-gpu --no-first-run --enable-logging=stderr --v=0 \
  --virtual-time-budget=5000 --dump-dom "file://$tmp/R/report.html" >"$tmp/dom.html" 2>"$tmp/browser.log" || {
  cat "$tmp/browser.log"; echo "test-browser: FAILED: $browser could not load the page"; exit 1; }

status=0
if grep -E "CONSOLE|Uncaught" "$tmp/browser.log"; then
  echo "test-browser: FAILED: the page logged to the console (above)"; status=1
fi
python3 - "$tmp/dom.html" "$failing" <<'EOF' || status=1
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
first = re.search(r'<(article|details) class="scenario (\w+)" id="([^"]+)"', dom)
if not first:
    sys.exit("test-browser: FAILED: no scenario in the DOM")
if first.group(2) != "failed" or first.group(3) != sys.argv[2]:
    sys.exit(f"test-browser: FAILED: the first scenario is {first.group(3)} ({first.group(2)}), expected {sys.argv[2]} (failed)")
if not re.search(r'<span id="shown">\d+ shown</span>', dom):
    sys.exit("test-browser: FAILED: the page's script did not run (the filter count is empty)")
if re.search(r'(src|href)="(https?:)?//', dom):
    sys.exit("test-browser: FAILED: the page loads something from elsewhere")
print(f"test-browser: first scenario {first.group(3)} is the failure; script ran; no console messages")
EOF
exit $status
