#!/usr/bin/env bash
# Pipes a few protocol lines per profile through run.sh and checks the answers byte for byte.
# Exit 0 when every answer matches, 1 otherwise.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN="$HERE/run.sh"
FAILS=0

# check NAME "ARGS" REQUEST-LINES EXPECTED-LINES  (the handshake is sent first and its answer skipped)
check() {
  local name="$1" args="$2" requests="$3" expected="$4" got
  # shellcheck disable=SC2086
  got="$(printf '%s\n{"cmd":"start","version":1}\n%s\n{"cmd":"stop"}\n' "" "$requests" | "$RUN" $args | tail -n +2)"
  if [ "$got" == "$expected" ]; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got") | sed 's/^/     /'
    FAILS=$((FAILS + 1))
  fi
}

# check_ready NAME "ARGS" EXPECTED-READY-LINE
check_ready() {
  local name="$1" args="$2" expected="$3" got
  # shellcheck disable=SC2086
  got="$(printf '{"cmd":"start","version":1}\n{"cmd":"stop"}\n' | "$RUN" $args)"
  if [ "$got" == "$expected" ]; then echo "ok   $name"; else
    echo "FAIL $name"; echo "     want $expected"; echo "     got  $got"; FAILS=$((FAILS + 1)); fi
}

"$HERE/build.sh" >/dev/null 2>&1 || { echo "build failed"; exit 1; }

# --- camera ---------------------------------------------------------------------------------------
check_ready "camera ready" "--profile camera" \
'{"ready":true,"name":"swift-seed-app camera","stages":["score","nms","vision_flip","adjust","echo"],"semantics":{"boundary":"inclusive","precision":"float32-native","nms_overlap":"greater","nms_classes":"agnostic","nms_order":"by-score","nms_iou":"union-float32","flip":"flipped","drag":"start-plus-translation"},"batch":true}'

check_ready "camera --stale-capture --declare" "--profile camera --stale-capture --declare boundary=strict,nms_iou=union" \
'{"ready":true,"name":"swift-seed-app camera (stale-capture)","stages":["score","nms","vision_flip","adjust","echo"],"semantics":{"boundary":"strict","precision":"float32-native","nms_overlap":"greater","nms_classes":"agnostic","nms_order":"by-score","nms_iou":"union","flip":"flipped","drag":"stale-capture"},"batch":true}'

check "camera score / nms / flip / echo" "--profile camera" \
'{"cmd":"run","seq":1,"stage":"score","id":"a","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":61.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":2,"stage":"score","id":"b","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":61.00000000000001,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":3,"stage":"score","id":"c","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":-20.0,"y_mm":20.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":4,"stage":"score","id":"d","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":700.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":5,"stage":"score","id":"e","input":{"face":"5_zone","diameter_cm":122.0,"x_mm":1.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":6,"stage":"nms","id":"f","input":{"boxes":[[0.0,0.0,10.0,10.0],[1.0,1.0,11.0,11.0],[50.0,50.0,60.0,60.0]],"scores":[0.5,0.9,0.8],"classes":[0,1,0],"iou_threshold":0.5}}
{"cmd":"run","seq":7,"stage":"vision_flip","id":"g","input":{"rect":[0.25,0.5,0.5,0.25],"image_size":[400,200]}}
{"cmd":"run","seq":8,"stage":"echo","id":"h","input":{"v":-0.0,"w":[1,0.1,1e-300,"\u00e9\n"]}}
{"cmd":"run","seq":9,"stage":"decode","id":"i","input":{}}' \
'{"seq":1,"output":{"points":10,"x":false}}
{"seq":2,"output":{"points":10,"x":false}}
{"seq":3,"output":{"points":10,"x":true}}
{"seq":4,"output":{"points":0,"x":false}}
{"seq":5,"skipped":"seed 000 defines only the 10-ring table (10_zone)"}
{"seq":6,"output":{"keep":[1,2]}}
{"seq":7,"output":{"box":[100.0,50.0,300.0,100.0]}}
{"seq":8,"output":{"v":-0.0,"w":[1,0.1,1e-300,"é\n"]}}
{"seq":9,"skipped":"stage decode is not in profile camera"}'

ADJ='{"cmd":"run","seq":1,"stage":"adjust","id":"a","input":{"face":"10_zone","diameter_cm":122.0,"view_radius":100.0,"markers":[[0.0,0.0],[0.5,0.0],[0.9,0.0]],"events":[{"marker":0,"translation":[10.0,0.0]},{"marker":0,"translation":[20.0,0.0]},{"marker":2,"translation":[20.0,0.0]},{"marker":2,"end":true},{"marker":0,"end":true},{"marker":1,"translation":[0.0,0.5]},{"marker":1,"end":true},{"marker":2,"translation":[5.0,5.0]}]}}'
check "camera adjust (start + translation)" "--profile camera" "$ADJ" \
'{"seq":1,"output":{"markers":[{"start":0,"position":[0.2,0.0],"points":9,"x":false,"adjusted":true},{"start":1,"position":[0.5,0.005],"points":5,"x":false,"adjusted":false}]}}'
check "camera adjust (stale capture)" "--profile camera --stale-capture" "$ADJ" \
'{"seq":1,"output":{"markers":[{"start":0,"position":[0.30000000000000004,0.0],"points":7,"x":false,"adjusted":true},{"start":1,"position":[0.5,0.005],"points":5,"x":false,"adjusted":false}]}}'

check "camera run_batch" "--profile camera" \
'{"cmd":"run_batch","seq":4,"stage":"score","cases":[{"id":"a","input":{"face":"10_zone","diameter_cm":40.0,"x_mm":0.0,"y_mm":-180.0,"arrow_diameter_mm":5.5}},{"id":"b","input":{"face":"nope","diameter_cm":40.0,"x_mm":0.0,"y_mm":0.0,"arrow_diameter_mm":5.5}},{"id":"c","input":{"face":"10_zone"}}]}' \
'{"seq":4,"answers":[{"output":{"points":2,"x":false}},{"skipped":"seed 000 defines only the 10-ring table (10_zone)"},{"error":"missing diameter_cm"}]}'

# --- tap ------------------------------------------------------------------------------------------
check_ready "tap ready" "--profile tap" \
'{"ready":true,"name":"swift-seed-app tap","stages":["score","resume","echo"],"semantics":{"boundary":"floor","precision":"double","resume":"seed-002"},"batch":true}'

check "tap score" "--profile tap" \
'{"cmd":"run","seq":1,"stage":"score","id":"a","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":61.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":2,"stage":"score","id":"b","input":{"face":"10_zone","diameter_cm":122.0,"x_mm":30.5,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":3,"stage":"score","id":"c","input":{"face":"seed_vegas_2_ring","diameter_cm":40.0,"x_mm":100.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":4,"stage":"score","id":"d","input":{"face":"seed_field_5_ring","diameter_cm":60.0,"x_mm":5.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":5,"stage":"score","id":"e","input":{"face":"seed_indoor_5_ring","diameter_cm":40.0,"x_mm":0.0,"y_mm":-200.0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":6,"stage":"score","id":"f","input":{"face":"seed_indoor_5_ring","diameter_cm":40.0,"x_mm":0.0,"y_mm":-200.00000000000003,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":7,"stage":"score","id":"g","input":{"face":"5_zone","diameter_cm":122.0,"x_mm":1.0,"y_mm":0.0,"arrow_diameter_mm":5.5}}' \
'{"seq":1,"output":{"points":9,"x":false}}
{"seq":2,"output":{"points":10,"x":true}}
{"seq":3,"output":{"points":9,"x":false}}
{"seq":4,"output":{"points":5,"x":false}}
{"seq":5,"output":{"points":6,"x":false}}
{"seq":6,"output":{"points":0,"x":false}}
{"seq":7,"skipped":"seed 002 has no scoring system for 5_zone"}'

check "tap resume" "--profile tap" \
'{"cmd":"run","seq":1,"stage":"resume","id":"a","input":{"face":"10_zone","arrows_per_end":3,"saved":[{"end":1,"arrow":1,"points":9,"x":false,"position":[0.15,0.02]},{"end":1,"arrow":2,"points":10,"x":true},{"end":1,"complete":true},{"end":2,"arrow":1,"points":7,"x":false}]}}
{"cmd":"run","seq":2,"stage":"resume","id":"b","input":{"face":"10_zone","arrows_per_end":3,"saved":[{"end":1,"arrow":2,"points":9,"x":false,"position":[0.15,0.02]},{"end":1,"arrow":1,"points":8,"x":false},{"end":1,"arrow":2,"points":10,"x":true,"position":[0.01,-0.02]}]}}
{"cmd":"run","seq":3,"stage":"resume","id":"c","input":{"face":"10_zone","arrows_per_end":3,"saved":[{"end":1,"arrow":1,"points":9,"x":false},{"end":1,"complete":true},{"end":2,"complete":true}]}}' \
'{"seq":1,"output":{"end":2,"next_arrow":2,"arrows":[{"arrow":1,"points":7,"x":false}]}}
{"seq":2,"output":{"end":1,"next_arrow":3,"arrows":[{"arrow":1,"points":8,"x":false},{"arrow":2,"points":10,"x":true,"position":[0.009999999776482582,-0.019999999552965164]}]}}
{"seq":3,"output":{"end":3,"next_arrow":1,"arrows":[]}}'

# --- batsight -------------------------------------------------------------------------------------
check_ready "batsight ready" "--profile batsight" \
'{"ready":true,"name":"swift-seed-app batsight","stages":["nms","echo"],"semantics":{"nms_overlap":"greater","nms_classes":"agnostic","nms_order":"input-order","nms_iou":"union"},"batch":true}'

NMS='{"cmd":"run","seq":1,"stage":"nms","id":"a","input":{"boxes":[[0.0,0.0,10.0,10.0],[1.0,1.0,11.0,11.0],[50.0,50.0,60.0,60.0]],"scores":[0.5,0.9,0.8],"classes":[0,1,0],"iou_threshold":0.5}}
{"cmd":"run","seq":2,"stage":"nms","id":"b","input":{"boxes":[[0.0,0.0,10.0,10.0],[5.0,5.0,15.0,15.0]],"scores":[0.1,0.9],"classes":[0,0],"iou_threshold":0.12}}
{"cmd":"run","seq":3,"stage":"score","id":"c","input":{}}'
check "batsight nms (union)" "--profile batsight" "$NMS" \
'{"seq":1,"output":{"keep":[0,2]}}
{"seq":2,"output":{"keep":[0]}}
{"seq":3,"skipped":"stage score is not in profile batsight"}'
check "batsight nms (--nms-iou enclosing)" "--profile batsight --nms-iou enclosing" "$NMS" \
'{"seq":1,"output":{"keep":[0,2]}}
{"seq":2,"output":{"keep":[0,1]}}
{"seq":3,"skipped":"stage score is not in profile batsight"}'

# --- usage ----------------------------------------------------------------------------------------
if "$RUN" </dev/null >/dev/null 2>&1; then echo "FAIL no --profile should exit 2"; FAILS=$((FAILS + 1)); else echo "ok   no --profile is refused"; fi

if [ "$FAILS" -ne 0 ]; then echo "$FAILS check(s) failed"; exit 1; fi
echo "all checks passed"
