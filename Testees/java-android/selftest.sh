#!/usr/bin/env bash
# Pipes protocol lines through run.sh and compares every answer line with the expected one.
# Exit 0 when all match, 1 otherwise.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail=0

READY_SEM='"semantics":{"boundary":"inclusive","precision":"float32-native","nms_overlap":"greater","nms_classes":"agnostic","nms_order":"by-score","nms_iou":"union-float32","input_mapping":"letterbox-unrounded","decode_layout":"seed-001","decode_threshold":"greater-or-equal","decode_precision":"float32"}'
READY='{"ready":true,"name":"java-android (seed 001 Android profile) 1.0","stages":["score","nms","map_to_image","decode","echo"],'"$READY_SEM"',"batch":true}'

# Requests, one a line. Lines in expected.txt are the answers in order (requests without an answer
# have none: a garbage line without seq, and everything after stop).
cat > "$TMP/requests.txt" <<'REQ'
{"cmd":"start","version":1}
{"cmd":"run","seq":1,"stage":"score","id":"centre","input":{"face":"10_zone","diameter_cm":122,"x_mm":0,"y_mm":0,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":2,"stage":"score","id":"x-edge-inclusive","input":{"face":"10_zone","diameter_cm":122,"x_mm":30.5,"y_mm":0}}
{"cmd":"run","seq":3,"stage":"score","id":"example","input":{"face":"10_zone","diameter_cm":122,"x_mm":-12.5,"y_mm":304.9,"arrow_diameter_mm":5.5}}
{"cmd":"run","seq":4,"stage":"score","id":"float-rounds-to-edge","input":{"face":"10_zone","diameter_cm":122,"x_mm":610.00003,"y_mm":0}}
{"cmd":"run","seq":5,"stage":"score","id":"miss","input":{"face":"10_zone","diameter_cm":122,"x_mm":610.0001,"y_mm":0}}
{"cmd":"run","seq":6,"stage":"score","id":"other-face","input":{"face":"wa_field","diameter_cm":80,"x_mm":0,"y_mm":0}}
{"cmd":"run","seq":7,"stage":"score","id":"bad","input":{"face":"10_zone","diameter_cm":0,"x_mm":0,"y_mm":0}}
{"cmd":"run","seq":8,"stage":"nms","input":{"boxes":[[0,0,10,10],[1,1,11,11],[20,20,30,30],[0,0,10,10]],"scores":[0.6,0.9,0.5,0.9],"classes":[0,0,0,0],"iou_threshold":0.5}}
{"cmd":"run","seq":9,"stage":"nms","input":{"boxes":[[0,0,2,1],[0,0,1,1]],"scores":[0.8,0.9],"classes":[0,0],"iou_threshold":0.5}}
{"cmd":"run","seq":10,"stage":"nms","input":{"boxes":[[0,0,1,1],[0,0,1,1]],"scores":[0.3,0.30000000000000004],"classes":[0,1],"iou_threshold":0.5}}
{"cmd":"run","seq":11,"stage":"map_to_image","input":{"box":[320,320,100,50],"model_size":[640,640],"image_size":[1920,1080]}}
{"cmd":"run","seq":12,"stage":"map_to_image","input":{"box":[123.4,456.7,33.3,44.4],"model_size":[640,640],"image_size":[1000,750]}}
{"cmd":"run","seq":13,"stage":"decode","input":{"shape":[1,6,3],"values":[1,2,3,4,5,6,7,8,9,10,11,12,0.3499999940395355,0.34999996423721313,0.8999999761581421,0,0,1],"confidence_threshold":0.35}}
{"cmd":"run","seq":14,"stage":"decode","input":{"shape":[1,5,2],"values":[1,2,3,4,5,6,7,8,0.5,0.6],"confidence_threshold":0.35}}
{"cmd":"run","seq":15,"stage":"echo","input":{"a":[2e23,-0.0,-0,5e-324,1.7976931348623157e308,0.1,1e-7,123456789012345680000,1E+21,"\u00e9\ud83d\ude00\ud800\"\\\/\b\f\n\r\t\u0001",null,true,false,9223372036854775807,-9223372036854775808],"":{}}}
{"cmd":"run_batch","seq":16,"stage":"score","cases":[{"id":"a","input":{"face":"10_zone","diameter_cm":40,"x_mm":110,"y_mm":5}},{"id":"b","input":{"face":"wa_field","diameter_cm":80,"x_mm":0,"y_mm":0}},{"id":"c"}]}
{"cmd":"run","seq":17,"stage":"vision_flip","input":{"rect":[0,0,1,1],"image_size":[10,10]}}
{"cmd":"run","seq":18,"stage":"echo","input":[1,2,
garbage without a sequence number
{"cmd":"dance","seq":19}
{"cmd":"run","seq":20,"stage":"echo","input":[1e400]}
{"cmd":"stop"}
{"cmd":"run","seq":21,"stage":"echo","input":1}
REQ

printf '%s\n' "$READY" > "$TMP/expected.txt"
cat >> "$TMP/expected.txt" <<'EXP'
{"seq":1,"output":{"points":10,"x":true}}
{"seq":2,"output":{"points":10,"x":true}}
{"seq":3,"output":{"points":5,"x":false}}
{"seq":4,"output":{"points":1,"x":false}}
{"seq":5,"output":{"points":0,"x":false}}
{"seq":6,"skipped":"only seed 001's 10-ring table (face 10_zone) is implemented, not wa_field"}
{"seq":7,"error":"diameter_cm must be positive"}
{"seq":8,"output":{"keep":[1,2]}}
{"seq":9,"output":{"keep":[1,0]}}
{"seq":10,"output":{"keep":[0]}}
{"seq":11,"output":{"box":[810.0,465.0,1110.0,615.0]}}
{"seq":12,"output":{"box":[166.796875,553.90625,218.82814025878906,623.2813110351562]}}
{"seq":13,"output":{"detections":[{"anchor":0,"box":[1.0,4.0,7.0,10.0],"score":0.3499999940395355,"class":0},{"anchor":2,"box":[3.0,6.0,9.0,12.0],"score":0.8999999761581421,"class":1}]}}
{"seq":14,"skipped":"seed 001's model output is [1, 6, N]; this app cannot read shape [1, 5, 2]"}
{"seq":15,"output":{"a":[2e23,-0.0,-0.0,5e-324,1.7976931348623157e308,0.1,1e-7,123456789012345680000.0,1e21,"é😀\ud800\"\\/\b\f\n\r\t\u0001",null,true,false,9223372036854775807,-9223372036854775808],"":{}}}
{"seq":16,"answers":[{"output":{"points":5,"x":false}},{"skipped":"only seed 001's 10-ring table (face 10_zone) is implemented, not wa_field"},{"error":"a case must be an object with \"input\""}]}
{"seq":17,"skipped":"stage \"vision_flip\" is not implemented by this testee"}
{"seq":18,"error":"bad request line: unexpected end of input at offset 50"}
{"seq":19,"error":"unknown cmd \"dance\""}
{"seq":20,"error":"bad request line: number out of Double range: 1e400 at offset 51"}
EXP

check() { # name expected actual
  if diff -u "$2" "$3" > "$TMP/diff.txt"; then
    echo "selftest: $1 ok"
  else
    echo "selftest: $1 FAILED" >&2
    cat "$TMP/diff.txt" >&2
    fail=1
  fi
}

"$HERE/run.sh" < "$TMP/requests.txt" > "$TMP/actual.txt" 2> "$TMP/stderr.txt"
rc=$?
check "protocol answers" "$TMP/expected.txt" "$TMP/actual.txt"
if [ "$rc" -ne 0 ]; then echo "selftest: exit status $rc after stop, want 0" >&2; fail=1; fi

# EOF without stop also exits 0.
printf '{"cmd":"start","version":1}\n' | "$HERE/run.sh" > /dev/null 2>&1 || { echo "selftest: exit status $? at EOF, want 0" >&2; fail=1; }

# --declare overrides (an empty value leaves the axis out).
printf '{"cmd":"start","version":1}\n{"cmd":"stop"}\n' \
  | "$HERE/run.sh" --declare boundary=strict,nms_iou= --declare precision=double > "$TMP/declared.txt" 2>/dev/null
echo '{"ready":true,"name":"java-android (seed 001 Android profile) 1.0","stages":["score","nms","map_to_image","decode","echo"],"semantics":{"boundary":"strict","precision":"double","nms_overlap":"greater","nms_classes":"agnostic","nms_order":"by-score","input_mapping":"letterbox-unrounded","decode_layout":"seed-001","decode_threshold":"greater-or-equal","decode_precision":"float32"},"batch":true}' > "$TMP/declared.want"
check "--declare" "$TMP/declared.want" "$TMP/declared.txt"

# Random doubles through echo, bit for bit (needs python3; skipped without it).
if command -v python3 >/dev/null 2>&1; then
  python3 - "$HERE/run.sh" <<'PY' || fail=1
import json, random, struct, subprocess, sys
random.seed(20250101)
def rnd():
    while True:
        k = random.randrange(3)
        if k == 0: d = struct.unpack('<d', struct.pack('<Q', random.getrandbits(64)))[0]
        elif k == 1: d = random.random()
        else: d = struct.unpack('<f', struct.pack('<f', random.gauss(0, 300)))[0]
        if d == d and abs(d) != float('inf'): return d
vals = [rnd() for _ in range(20000)]
lines = ['{"cmd":"start","version":1}'] + [json.dumps({"cmd": "run", "seq": i, "stage": "echo", "input": v}) for i, v in enumerate(vals)] + ['{"cmd":"stop"}']
out = subprocess.run([sys.argv[1]], input='\n'.join(lines) + '\n', capture_output=True, text=True).stdout.splitlines()[1:]
bad = sum(1 for v, l in zip(vals, out) if struct.pack('<d', v) != struct.pack('<d', float(json.loads(l)['output'])))
# shortest digits: the same as Python's repr (shortest round-trip, nearest)
from decimal import Decimal
longer = sum(1 for v, l in zip(vals, out) if Decimal(json.loads(l, parse_float=str)['output']) != Decimal(repr(v)))
if len(out) != len(vals) or bad or longer:
    print(f"selftest: echo of random doubles FAILED: {len(out)} answers, {bad} not bit-exact, {longer} not shortest", file=sys.stderr)
    sys.exit(1)
print(f"selftest: echo of {len(vals)} random doubles ok")
PY
else
  echo "selftest: python3 not found, random echo check skipped"
fi

exit $fail
