"""Photo-file scenarios in the style of a team's own field photos (dev-time only).

Renders three scenes with `bullseye synth`, saves each as a phone would
(JPEG with an EXIF orientation, HEIC, JPEG) under Scenarios/archery/photos/,
and writes a scenario whose `marks` are the true impact points rounded to
whole pixels, as a person clicking on the picture would give them.

    python3 Training/make_photo_scenarios.py   # needs pillow, pillow-heif
"""
import json
import pathlib
import subprocess
import tempfile

from PIL import Image
import pillow_heif

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / ".build" / "release" / "bullseye"
OUT = ROOT / "Scenarios" / "archery"

# id, face, scene keys, how it is saved, what the comment says
PHOTOS = [
    ("own-photo-outdoor-portrait", "10_zone",
     "seed: 701\nsize: 960x1280\ncamera: {tilt_deg: 18, rotation_deg: -8}\n"
     "scene: {white_balance: warm, noise: 5, blur: 1.0, old_holes: 8, lighting: 0.5, background: straw}\narrow_count: 6\n",
     ("jpeg", 85, 6), "a worn 122 cm face outdoors, held upright: a portrait JPEG stored landscape with EXIF tag 6"),
    ("own-photo-indoor-heic", "10_zone",
     "seed: 702\nsize: 1280x960\ncamera: {tilt_deg: 28, rotation_deg: 12}\n"
     "scene: {white_balance: cool, noise: 3, blur: 1.4, vignette: 0.5, boss: foam}\narrow_count: 5\n",
     ("heic", 45, 1), "an indoor face shot from below at 28°, saved as HEIC by an iPhone"),
    ("own-photo-vegas-jpeg", "wa_vegas_3_spot",
     "seed: 703\nsize: 1280x960\ncamera: {tilt_deg: 10, rotation_deg: 3}\n"
     "scene: {noise: 4, blur: 0.8, jpeg: 0.1}\narrow_count: 3\n",
     ("jpeg", 80, 1), "a Vegas 3-spot sheet, one arrow per spot, JPEG quality 80"),
]

# EXIF orientation → the PIL transpose that turns the upright picture into the stored buffer.
STORE = {1: None, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180}


def main():
    pillow_heif.register_heif_opener()
    for sid, face, keys, (fmt, quality, tag), what in PHOTOS:
        with tempfile.TemporaryDirectory() as tmp:
            spec = pathlib.Path(tmp) / "s.yaml"
            spec.write_text(f"id: {sid}\nface: {face}\n{keys}")
            png, truth = pathlib.Path(tmp) / "p.png", pathlib.Path(tmp) / "t.json"
            subprocess.run([BIN, "synth", "--scenario", spec, "--out", png, "--truth", truth], check=True)
            t = json.loads(truth.read_text())
            upright = Image.open(png).convert("RGB")
        stored = upright.transpose(STORE[tag]) if STORE[tag] else upright
        name = f"{sid.removeprefix('own-photo-')}.{'heic' if fmt == 'heic' else 'jpg'}"
        path = OUT / "photos" / name
        if fmt == "heic":
            stored.save(path, format="HEIF", quality=quality)
        else:
            exif = Image.Exif()
            if tag != 1:
                exif[0x0112] = tag
            stored.save(path, format="JPEG", quality=quality, exif=exif.tobytes() if tag != 1 else b"")
        marks = "\n".join(
            f"    - {{x: {round(a['pixel_x'])}, y: {round(a['pixel_y'])}, score: {a['score']}"
            + (", is_x: true" if a["is_x"] else "") + "}"
            for a in t["arrows"])
        (OUT / f"{sid}.yaml").write_text(
            f"# A team's own photo, pinned in CI: {what}.\n"
            f"# (Rendered in that style by Training/make_photo_scenarios.py; marks are where a person clicked.)\n"
            f"id: {sid}\nface: {face}\nimage: photos/{name}\nmarks:\n  tolerance_px: 8\n  arrows:\n{marks}\n")
        print(sid, path.stat().st_size, "bytes,", len(t["arrows"]), "marks")


if __name__ == "__main__":
    main()
