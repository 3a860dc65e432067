#!/usr/bin/env python3
"""Writes the archery scenario corpus (Scenarios/archery/*.yaml).

Dev-time only: the YAML files are committed and are what `make verify` runs;
this script keeps their boilerplate consistent. Run from the repo root.
"""
import os

OUT = "Scenarios/archery"
CLEAN = "{background: plain, boss: foam, noise: 0, jpeg: 0, blur: 0.4, old_holes: 0, torn_centre: false, lighting: 0, vignette: 0}"
CAM = "{center: [240, 180], radius: 150, rotation_deg: 0, tilt_deg: 0, focal_px: 900}"
FACES = ["10_zone", "10_zone_compound", "10_zone_6_ring", "10_zone_5_ring", "10_zone_5_ring_compound", "11_zone",
         "11_zone_6_ring", "11_zone_5_ring", "5_zone", "Worcester", "Worcester_2_ring", "WA_field", "IFAA_field",
         "IFAA_field_expert", "AA_national_field", "nfaa_indoor", "Beiter_hit_miss", "wa_vegas_3_spot",
         "wa_vertical_3_spot", "nfaa_5_spot", "seed_standard_10_ring", "seed_indoor_5_ring", "seed_vegas_2_ring",
         "seed_field_5_ring"]
files = {}


def scenario(sid, body, desc):
    files[sid] = f"# {desc}\nid: {sid}\n" + body.strip() + "\n"


def taps(points):
    return "[" + ", ".join(f"[{x!r}, {y!r}]" for x, y in points) + "]"


def tap_scenario(sid, desc, face, points, rule="inclusive", extra="", expect="", profile="ios", diameter=None, arrow_mm=None):
    """Exact coordinates through seed 002's tap path: no detections, placement mode, one tap per point."""
    steps = "\n".join(f"    - {{tap: [{x!r}, {y!r}]}}" for x, y in points)
    d = f"diameter_cm: {diameter}\n" if diameter else ""
    a = f"arrow_mm: {arrow_mm}\n" if arrow_mm else ""
    scenario(sid, f"""
face: {face}
{d}{a}seed: 1
size: 480x360
profile: {profile}
rule: {rule}
camera: {CAM}
scene: {CLEAN}
arrows: []
detector: {{source: none}}
expected_arrows: {len(points)}
gestures:
  steps:
{steps}
    - confirm
{extra}{expect}""", desc)


# 1. Every face renders and scores through both profiles (random pose and arrows).
for i, f in enumerate(FACES):
    sid = "face-" + f.lower().replace("_", "-")
    scenario(sid, f"""
face: {f}
seed: {100 + i}
size: 480x360
profile: {"ios" if i % 2 == 0 else "android"}
scene: {{noise: 0, jpeg: 0}}
arrow_count: 5
""", f"Every face: {f}, random pose, look and arrows from the seed (profiles alternate across faces).")

# 2. X-ring edges: exactly 0.05, its float neighbours, and the Float round trip.
x = 0.05
nu, nd = 0.05000000000000001, 0.049999999999999996
for rule in ["inclusive", "strict", "floor", "line-cutter"]:
    tap_scenario(f"x-edge-{rule}", f"X ring edge under {rule}: d = 0.05 on each axis, and its nextUp/nextDown.",
                 "10_zone", [(0, x), (x, 0), (0, nu), (0, nd)], rule=rule, arrow_mm=(5.5 if rule == "line-cutter" else None),
                 expect={"inclusive": "expect: {confirmed_scores: [10, 10, 10, 10]}\n",
                         "strict": "expect: {confirmed_scores: [10, 10, 10, 10]}\n",
                         "floor": "expect: {confirmed_scores: [10, 10, 10, 10]}\n",
                         "line-cutter": "expect: {confirmed_scores: [10, 10, 10, 10]}\n"}[rule])
tap_scenario("x-edge-float-round-trip", "An X at exactly 0.05 confirmed in Double, persisted as Float (0.0500000007), is no longer an X when rescored; an 8 on the 0.3 line (Float 0.300000012) becomes a 7.",
             "10_zone", [(0, x), (0.3, 0), (0.25, 0)], extra="persist: {coordinates: keep-coordinates, end: 1}\n",
             expect="expect: {confirmed_scores: [10, 8, 8], rescore_changes: 2}\n")
tap_scenario("x-edge-float-seed-drops-coordinates", "Seed 000 hands only score and X to addScore: nothing to rescore, the X survives.",
             "10_zone", [(0, x), (0.3, 0)], extra="persist: {coordinates: seed, end: 1}\n",
             expect="expect: {confirmed_scores: [10, 8], rescore_changes: 0}\n")

# 3. Every ring line under each rule (10-zone), plus other faces' lines.
lines = [(0, r / 10) for r in range(1, 11)]
def seed_floor(d):
    """Seed 002's calculateScore, evaluated by Python's float (IEEE double) — an independent reference."""
    if d > 1.0:
        return 0
    ring_from_center = int(d / (1.0 / 10))
    return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10][10 - 1 - min(ring_from_center, 9)]


want = {"inclusive": [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], "strict": [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        "floor": [seed_floor(r / 10) for r in range(1, 11)], "line-cutter": [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}
for rule, scores in want.items():
    tap_scenario(f"ring-lines-10-zone-{rule}", f"Every ring line of the 10-zone face under {rule} (floor shows the 0.3/0.1 traps).",
                 "10_zone", lines, rule=rule, expect=f"expect: {{confirmed_scores: {scores}}}\n")
for face, radii, inc, strict in [("5_zone", [0.2, 0.4, 0.6, 0.8, 1.0], [9, 7, 5, 3, 1], [7, 5, 3, 1, 0]),
                                 ("WA_field", [0.1, 0.2, 0.4, 0.6, 0.8, 1.0], [6, 5, 4, 3, 2, 1], [5, 4, 3, 2, 1, 0]),
                                 ("nfaa_indoor", [0.2, 0.4, 0.6, 0.8, 1.0], [5, 4, 3, 2, 1], [4, 3, 2, 1, 0]),
                                 ("10_zone_6_ring", [1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1.0], [10, 9, 8, 7, 6, 5], None),
                                 ("IFAA_field", [0.2, 0.6, 1.0], [5, 4, 3], [4, 3, 0])]:
    pts = [(r, 0) for r in radii]
    tag = face.lower().replace("_", "-")
    tap_scenario(f"ring-lines-{tag}-inclusive", f"{face} ring lines, inclusive.", face, pts, expect=f"expect: {{confirmed_scores: {inc}}}\n")
    if strict:
        tap_scenario(f"ring-lines-{tag}-strict", f"{face} ring lines, strict.", face, pts, rule="strict", expect=f"expect: {{confirmed_scores: {strict}}}\n")

# 4. Line cutters with 5.5 and 9.3 mm shafts.
tap_scenario("line-cutter-122-5mm5", "122 cm face, 5.5 mm shaft: a centre 2.7 mm outside the 10 line still cuts it; 2.8 mm does not.",
             "10_zone", [(0, (61 + 2.7) / 610), (0, (61 + 2.8) / 610)], rule="line-cutter", diameter=122, arrow_mm=5.5,
             expect="expect: {confirmed_scores: [10, 9]}\n")
tap_scenario("line-cutter-40-9mm3", "40 cm face, 9.3 mm shaft: the 10 line (20 mm) is cut up to 24.65 mm.",
             "10_zone", [(0, 24.6 / 200), (0, 24.7 / 200)], rule="line-cutter", diameter=40, arrow_mm=9.3,
             expect="expect: {confirmed_scores: [10, 9]}\n")
tap_scenario("line-cutter-compound-40-9mm3", "40 cm compound face, 9.3 mm shaft: the inner 10 (10 mm) is touched up to 14.65 mm.",
             "10_zone_compound", [(0, 14.6 / 200), (0, 14.7 / 200)], rule="line-cutter", diameter=40, arrow_mm=9.3,
             expect="expect: {confirmed_scores: [10, 9]}\n")
tap_scenario("line-cutter-vs-strict-5mm5", "The same points under strict: the shaft does not help.",
             "10_zone", [(0, (61 + 2.7) / 610), (0, (61 + 2.8) / 610)], rule="strict", diameter=122,
             expect="expect: {confirmed_scores: [9, 9]}\n")

# 5. Confidence-threshold edges of each profile (the truth detector with scripted confidences).
for prof, lo, hi, n in [("ios", 0.3999, 0.4, 1), ("android", 0.3499, 0.35, 1)]:
    scenario(f"confidence-edge-{prof}", f"""
face: 10_zone
seed: 5
size: 480x360
profile: {prof}
camera: {CAM}
scene: {CLEAN}
arrows: [{{x: 0, y: 0.3}}, {{x: 0.3, y: 0}}]
detector: {{confidences: [{hi}, {lo}]}}
expected_arrows: 2
expect: {{detections: {n}, placement_mode: true}}
""", f"{prof}: confidence {hi} is kept (≥), {lo} is dropped.")

# 6. NMS IoU edges and duplicate boxes (raw candidates in 640-space).
def pair(iou):
    d = 200 * iou / (10 + 10 * iou)
    return (f"[{{cx: 320, cy: 320, w: 10, h: 10, confidence: 0.9}}, {{cx: {330 - d!r}, cy: 320, w: 10, h: 10, confidence: 0.8}},"
            f" {{cx: 320, cy: 320, w: 560, h: 560, confidence: 0.95, class: 1}}]")
for prof, t in [("ios", 0.7), ("android", 0.5)]:
    for side, iou, n in [("below", t - 0.0001, 2), ("above", t + 0.0001, 1)]:
        scenario(f"nms-{prof}-{side}", f"""
face: 10_zone
seed: 6
size: 480x360
profile: {prof}
camera: {CAM}
scene: {CLEAN}
arrows: []
detector: {{source: boxes, boxes: {pair(iou)}}}
expected_arrows: 2
expect: {{detections: {n}}}
""", f"{prof} NMS: IoU {iou:.4f} against threshold {t}.")
scenario("nms-duplicates", f"""
face: 10_zone
seed: 6
size: 480x360
profile: ios
camera: {CAM}
scene: {CLEAN}
arrows: []
detector: {{source: boxes, boxes: [{{cx: 300, cy: 300, w: 12, h: 12, confidence: 0.8}}, {{cx: 300, cy: 300, w: 12, h: 12, confidence: 0.8}}, {{cx: 300, cy: 300, w: 12, h: 12, confidence: 0.6}}, {{cx: 320, cy: 320, w: 560, h: 560, confidence: 0.95, class: 1}}]}}
expected_arrows: 1
expect: {{detections: 1}}
""", "Three identical boxes: greedy NMS keeps the first of the two best.")
scenario("archery-nms-batsight-order", f"""
face: 10_zone
seed: 6
size: 480x360
profile: ios
profile_overrides: {{nms: batsight, iou: 0.5}}
camera: {CAM}
scene: {CLEAN}
arrows: []
detector: {{source: boxes, boxes: [{{cx: 300, cy: 300, w: 12, h: 12, confidence: 0.45}}, {{cx: 301, cy: 300, w: 12, h: 12, confidence: 0.9}}, {{cx: 320, cy: 320, w: 560, h: 560, confidence: 0.95, class: 1}}]}}
expected_arrows: 1
expect: {{detections: 1}}
""", "BatSight NMS: the earlier low-confidence box suppresses the later high-confidence one.")

# 7. Tilted, rotated, noisy photos.
for i, (tilt, rot, noise, wb) in enumerate([(10, 0, 2, "neutral"), (20, 15, 4, "warm"), (25, -20, 5, "cool"),
                                             (15, 45, 3, "warm"), (5, 90, 6, "neutral"), (25, 170, 4, "cool")]):
    scenario(f"photo-tilt-{tilt}-rot-{rot}".replace("--", "-m"), f"""
face: 10_zone
seed: {30 + i}
size: 640x480
camera: {{tilt_deg: {tilt}, rotation_deg: {rot}}}
scene: {{noise: {noise}, white_balance: {wb}, jpeg: 0.08, blur: 1.0}}
arrow_count: 6
tolerances:
  - {{path: "runs.*.result.target.*", tolerance: close, reason: "ellipse fit on a noisy photo: last-digit drift across libm builds"}}
""", f"Phone-like photo: tilt {tilt}°, rotation {rot}°, noise {noise}, {wb} light.")
scenario("photo-crossing-shafts", """
face: 10_zone
diameter_cm: 122
seed: 3
size: 640x480
camera: {center: [320, 250], radius: 190, tilt_deg: 12, tilt_axis_deg: 20, rotation_deg: -8}
scene: {background: straw, boss: straw, old_holes: 30, noise: 2}
arrows:
  - {x: 0.02, y: 0.03, style: shaft, shaft_mm: 5.5}
  - {x: 0.031, y: 0.03, style: shaft, shaft_mm: 5.5}
  - {x: 0.1, y: -0.02, style: shaft, shaft_mm: 6.2}
  - {x: -0.09, y: 0.1, style: shaft, shaft_mm: 5.0}
  - {x: 0.0, y: -0.2, style: shaft, shaft_mm: 9.3}
  - {x: 0.2, y: 0.0, style: shaft, shaft_mm: 5.5}
""", "Six shafts grouped tightly: they cross and touch each other and the lines.")

# 8–13. Adjustment: placement mode, extra arrows, drags, removal, clamp, wasAdjusted.
def adj(sid, desc, arrows, steps, expect, profile="ios", overrides="", expected=None, exact=False):
    """Adjustment scenarios. exact=True places the arrows by taps at exact points
    (seed 002's tap path) so drags land on exact coordinates."""
    det = ""
    if exact:
        steps = [f"{{tap: [{x}, {y}]}}" for x, y in arrows] + steps
        det = "detector: {source: none}\n"
        expected = expected if expected is not None else len(arrows)
        arrows = []
    arr = "[" + ", ".join(f"{{x: {x}, y: {y}}}" for x, y in arrows) + "]"
    st = "\n".join(f"    - {s}" for s in steps)
    ov = f"profile_overrides: {overrides}\n" if overrides else ""
    scenario(sid, f"""
face: 10_zone
seed: 8
size: 480x360
profile: {profile}
{ov}camera: {CAM}
scene: {CLEAN}
arrows: {arr}
{det}expected_arrows: {expected if expected is not None else len(arrows)}
gestures:
  view_radius: 100
  steps:
{st}
expect: {expect}
""", desc)

adj("missing-arrows-placement", "Two of three arrows detected: placement mode; one tap places the third and ends placement mode.",
    [(0.1, 0.1), (-0.3, 0.2)], ["{tap: [0.5, -0.5]}", "confirm"], "{confirmed: 3, placement_mode: false, was_adjusted: [false, false, true]}", expected=3)
adj("missing-arrows-still-missing", "Three expected, one detected, one tap: still in placement mode at confirm.",
    [(0.1, 0.1)], ["{tap: [0.2, 0.2]}", "confirm"], "{confirmed: 2, placement_mode: true}", expected=3)
adj("placement-toggle-off-ignores-taps", "Toggling placement off makes taps no-ops (seed guard).",
    [(0.1, 0.1)], ["toggle_placement", "{tap: [0.2, 0.2]}", "confirm"], "{confirmed: 1}", expected=3)
adj("extra-arrows-warning", "Four detected for three expected: the extra-arrows warning, taps ignored.",
    [(0.1, 0.1), (-0.2, 0.1), (0.3, -0.3), (0.0, 0.5)], ["{tap: [0.2, 0.2]}", "confirm"], "{confirmed: 4, extra_warning: true}", expected=3)
adj("extra-arrows-remove-one", "Drag one of four off the face: removed, warning gone.",
    [(0.1, 0.1), (-0.2, 0.1), (0.3, -0.3), (0.0, 0.5)], ["{drag: 3, translations: [[0, 40], [0, 80]]}", "confirm"], "{confirmed: 3, extra_warning: false}", expected=3)
drag = "{drag: 0, translations: [[10, 0], [20, 0], [30, 0], [40, 0]]}"
for d in ["start-plus-translation", "delta", "stale-capture"]:
    adj(f"drag-{d}", f"A 40-point drag right with {d} semantics (stale-capture drifts to 1.0 instead of 0.4).",
        [(0.0, 0.0)], [drag, "confirm"],
        "{confirmed_scores: [" + ("1" if d == "stale-capture" else "7") + "]}", overrides=f"{{drag: {d}}}", exact=True)
adj("drag-off-face-removal", "Dragging to d > 1 and releasing removes the arrow; placement mode returns.",
    [(0.5, 0.0)], ["{drag: 0, translations: [[30, 0], [60, 0]]}", "confirm"], "{confirmed: 0, placement_mode: true}")
adj("drag-clamp-1-5", "Dragging far out clamps each axis at 1.5 (square clamp: d = 2.12) while the finger is down.",
    [(0.0, 0.0)], ["{drag: 0, translations: [[100, 100], [300, 300]], end: false}", "confirm"], "{confirmed_scores: [0]}", exact=True)
adj("drag-clamp-delta-loses-overshoot", "Android deltas past the clamp are lost: out 2.0 and back 1.0 ends at 0.5 (iOS: 1.0).",
    [(0.0, 0.0)], ["{drag: 0, translations: [[200, 0], [100, 0]], end: false}", "confirm"], "{confirmed_scores: [6]}", profile="android", exact=True)
adj("was-adjusted-below-0-01", "A detected arrow moved 0.009 is not an adjustment.",
    [(0.2, 0.1)], ["{drag: 0, translations: [[0.9, 0]]}", "confirm"], "{was_adjusted: [false]}")
adj("was-adjusted-above-0-01", "A detected arrow moved 0.011 is an adjustment.",
    [(0.2, 0.1)], ["{drag: 0, translations: [[1.1, 0]]}", "confirm"], "{was_adjusted: [true]}")
adj("was-adjusted-untouched", "Arrows never dragged are not adjusted; a manual one always is.",
    [(0.2, 0.1), (-0.3, 0.0)], ["{tap: [0.0, 0.6]}", "confirm"], "{was_adjusted: [false, false, true]}", expected=3)
adj("drag-missing-arrow", "A gesture on an arrow that does not exist is ignored and recorded.",
    [(0.1, 0.0)], ["{drag: 5, translations: [[10, 0]]}", "confirm"], "{confirmed: 1, was_adjusted: [false]}")

# 14. Manual entry after a detection error (scripted, and a real one from a corrupt model).
tap_scenario("manual-entry-after-error", "Detection fails: the error screen, then Enter Manually, taps, confirm.",
             "10_zone", [], extra="", expect="")
files["manual-entry-after-error"] = files["manual-entry-after-error"].replace("gestures:\n  steps:\n\n    - confirm",
    "expected_arrows: 2\ngestures:\n  steps:\n    - {detection_error: \"Failed to process image\"}\n    - manual_entry\n    - {tap: [0.0, 0.04]}\n    - {tap: [0.45, 0.0]}\n    - confirm").replace("expected_arrows: 0\n", "")
files["manual-entry-after-error"] += "expect: {confirmed_scores: [10, 6], placement_mode: false}\n"
scenario("manual-entry-corrupt-model", f"""
face: 10_zone
seed: 9
size: 480x360
profile: android
camera: {CAM}
scene: {CLEAN}
arrows: [{{x: 0.1, y: 0.1}}]
detector: {{source: model, model: assets/corrupt-model.onnx}}
expected_arrows: 1
gestures: [manual_entry, {{tap: [0.15, 0.0]}}, confirm]
expect: {{error: true, confirmed_scores: [9]}}
""", "A corrupt ONNX file: the recorded error state, then manual entry.")

# 15–17. Persistence: resume after 0/1/2 arrows, upsert, migration.
for n in [0, 1, 2]:
    adj(f"resume-after-{n}", f"The app dies after {n} of 3 arrows of end 2 commit; resume restores exactly those.",
        [(0.05, 0.0), (0.15, 0.0), (0.25, 0.0)], ["confirm"], f"{{resume_end: 2, resume_arrow_number: {n + 1}}}")
    files[f"resume-after-{n}"] = files[f"resume-after-{n}"].replace("expect:",
        f"persist: {{end: 2, crash_after: {n}, prior: [{{end: 1, arrows: [[9, false, 0.15, 0.0], [8, false, 0.25, 0.0], [7, false, 0.35, 0.0]]}}]}}\nexpect:")
for mode in ["update", "replace"]:
    adj(f"upsert-rescored-{mode}", f"End 1 was saved with other scores; saving it again ({mode}) keeps one row per arrow and the total right.",
        [(0.05, 0.0), (0.15, 0.0)], ["confirm"], "{confirmed_scores: [10, 9], resume_arrow_number: 3}")
    files[f"upsert-rescored-{mode}"] = files[f"upsert-rescored-{mode}"].replace("expect:",
        f"persist: {{end: 1, upsert: {mode}, prior: [{{end: 1, complete: false, arrows: [[5, false, 0.55, 0.0], [4, false, 0.65, 0.0]]}}]}}\nexpect:")
adj("migration-36-to-37", "A version-36 database migrates to 37 (camera settings defaults) before the end is saved.",
    [(0.05, 0.0)], ["confirm"], "{confirmed: 1}")
files["migration-36-to-37"] = files["migration-36-to-37"].replace("expect:", "persist: {end: 1, from_version_36: true}\nexpect:")
adj("resume-android-docs", "Android docs' resume: the unfinished end's arrows are not restored.",
    [(0.05, 0.0), (0.15, 0.0)], ["confirm"], "{resume_end: 1, resume_arrow_number: 1}", profile="android")
files["resume-android-docs"] = files["resume-android-docs"].replace("expect:", "persist: {end: 1, resume: android-docs}\nexpect:")

# 18–20. Multi-spot assignment, letterbox rounding, precisions.
for rule in ["nearest", "sequential"]:
    scenario(f"vegas-spots-{rule}", f"""
face: wa_vegas_3_spot
seed: 12
size: 480x360
profile: ios
spots: {rule}
camera: {CAM}
scene: {CLEAN}
arrows: [{{x: -0.52, y: 0.5}}, {{x: 0.0, y: -0.5}}, {{x: 0.52, y: 0.5}}, {{x: 0.0, y: -0.45}}]
""", f"Vegas 3-spot, arrow → spot by {rule} (the 4th arrow of a sequential end goes to spot 0).")
for rounded in ["true", "false"]:
    scenario(f"letterbox-rounded-{rounded}", f"""
face: 10_zone
seed: 13
size: 600x400
profile: android
profile_overrides: {{rounded_padding: {rounded}}}
camera: {{center: [300, 200], radius: 150, tilt_deg: 0, rotation_deg: 0, focal_px: 900}}
scene: {CLEAN}
arrows: [{{x: 0, y: 0.2}}, {{x: 0, y: -0.2}}]
""", f"Letterbox back-transform with rounded padding {rounded} (unrounded shifts y).")
for prec in ["double", "float32", "float32-native"]:
    scenario(f"precision-{prec}", f"""
face: 10_zone
seed: 14
size: 480x360
profile: ios
precision: {prec}
camera: {CAM}
scene: {CLEAN}
arrows: [{{x: 0, y: 0.05}}, {{x: 0.3, y: 0}}, {{x: 0.7, y: 0}}]
""", f"Detection-time scoring in {prec} arithmetic.")

os.makedirs(OUT, exist_ok=True)
for sid, text in sorted(files.items()):
    with open(f"{OUT}/{sid}.yaml", "w") as f:
        f.write(text)
print(len(files), "archery scenarios")
