package bullseye.testee;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static bullseye.testee.Input.CaseError;

/**
 * The Android camera-scoring logic as seed 001 ("Camera-Based Arrow Scoring", PR #354) describes it.
 * No Android code is shown in the seed, so this follows its values and words, holding coordinates,
 * distances and scores in Float (float32) as a Kotlin app on TFLite would.
 */
final class Stages {
    private Stages() {}

    /** One answer: exactly one of output / skipped is set (errors are thrown as CaseError). */
    static final class Answer {
        final Object output;
        final String skipped;
        private Answer(Object output, String skipped) { this.output = output; this.skipped = skipped; }
        static Answer output(Object o) { return new Answer(o, null); }
        static Answer skipped(String why) { return new Answer(null, why); }
    }

    static final List<String> NAMES = List.of("score", "nms", "map_to_image", "decode", "echo");

    static Answer run(String stage, Object input) {
        switch (stage) {
            case "echo": return Answer.output(input);
            case "score": return score(Input.object(input, "input"));
            case "nms": return nms(Input.object(input, "input"));
            case "map_to_image": return mapToImage(Input.object(input, "input"));
            case "decode": return decode(Input.object(input, "input"));
            default: return Answer.skipped("stage \"" + stage + "\" is not implemented by this testee");
        }
    }

    // ------------------------------------------------------------------ score

    /** Seed 001's table: distance ≤ 0.05 → X (10); ≤ 0.10 → 10; ≤ 0.20 → 9; … ≤ 1.00 → 1; > 1.00 → miss. */
    private static final float X_LIMIT = 0.05f;
    private static final float[] RING_LIMITS = {
        0.10f, 0.20f, 0.30f, 0.40f, 0.50f, 0.60f, 0.70f, 0.80f, 0.90f, 1.00f,
    };

    static Answer score(Map<String, Object> in) {
        String face = Input.string(in, "face");
        if (!face.equals("10_zone")) {
            return Answer.skipped("only seed 001's 10-ring table (face 10_zone) is implemented, not " + face);
        }
        double diameterCm = Input.number(in, "diameter_cm");
        double xMm = Input.number(in, "x_mm");
        double yMm = Input.number(in, "y_mm");
        if (!(diameterCm > 0) || Double.isInfinite(diameterCm)) throw new CaseError("diameter_cm must be positive");
        // Seed 001: normalized coordinates, distance 1.0 = edge of the scoring area (the face's radius).
        double radiusMm = diameterCm * 10.0 / 2.0;
        float u = (float) (xMm / radiusMm);
        float v = (float) (yMm / radiusMm);
        float distance = (float) Math.sqrt(u * u + v * v); // Float arithmetic, as kotlin.math.sqrt(Float)
        return Answer.output(points(distance));
    }

    static Map<String, Object> points(float distance) {
        if (distance <= X_LIMIT) return scoreOut(10, true);
        for (int i = 0; i < RING_LIMITS.length; i++) {
            if (distance <= RING_LIMITS[i]) return scoreOut(10 - i, false);
        }
        return scoreOut(0, false);
    }

    private static Map<String, Object> scoreOut(long points, boolean x) {
        LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("points", points);
        out.put("x", x);
        return out;
    }

    // ------------------------------------------------------------------ nms

    /**
     * Seed 001's "Manual NMS implementation" (Android): detections sorted by confidence, highest first
     * (a stable sort, like Kotlin's sortedByDescending), then greedy: a detection is kept unless its
     * IoU with an already kept one is greater than the threshold. One class (arrow), so class-agnostic.
     * Boxes, scores, threshold and IoU are Float, as RectF and a Float confidence hold them.
     */
    static Answer nms(Map<String, Object> in) {
        List<Object> boxList = Input.array(in, "boxes");
        double[] scoresD = Input.numbers(in, "scores", boxList.size());
        float threshold = (float) Input.number(in, "iou_threshold");
        int n = boxList.size();
        float[][] boxes = new float[n][];
        float[] scores = new float[n];
        for (int i = 0; i < n; i++) {
            double[] b = Input.numbers(boxList.get(i), 4, "boxes[" + i + "]");
            boxes[i] = new float[] {(float) b[0], (float) b[1], (float) b[2], (float) b[3]};
            scores[i] = (float) scoresD[i];
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Float.compare(scores[b], scores[a])); // stable (TimSort)

        List<Object> keep = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int idx : order) {
            boolean suppressed = false;
            for (int k : kept) {
                if (iou(boxes[k], boxes[idx]) > threshold) { suppressed = true; break; }
            }
            if (!suppressed) {
                kept.add(idx);
                keep.add((long) idx);
            }
        }
        LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("keep", keep);
        return Answer.output(out);
    }

    /** IoU of two [left, top, right, bottom] boxes in Float, as Kotlin on RectF would compute it. */
    static float iou(float[] a, float[] b) {
        float left = Math.max(a[0], b[0]);
        float top = Math.max(a[1], b[1]);
        float right = Math.min(a[2], b[2]);
        float bottom = Math.min(a[3], b[3]);
        float intersection = Math.max(0f, right - left) * Math.max(0f, bottom - top);
        float areaA = (a[2] - a[0]) * (a[3] - a[1]);
        float areaB = (b[2] - b[0]) * (b[3] - b[1]);
        float union = areaA + areaB - intersection;
        return union > 0f ? intersection / union : 0f;
    }

    // ------------------------------------------------------------------ map_to_image

    /**
     * Seed 001's letterbox (Android): the image is scaled to fit the model input, centred on a gray
     * canvas, and the scale and offset are stored "for coordinate back-transformation". The seed says
     * nothing about rounding the offset, so it is kept as computed (unrounded), in Float.
     */
    static Answer mapToImage(Map<String, Object> in) {
        double[] box = Input.numbers(in, "box", 4);
        double[] model = Input.numbers(in, "model_size", 2);
        double[] image = Input.numbers(in, "image_size", 2);
        if (!(image[0] > 0 && image[1] > 0 && model[0] > 0 && model[1] > 0)) {
            throw new CaseError("model_size and image_size must be positive");
        }
        float modelW = (float) model[0], modelH = (float) model[1];
        float imageW = (float) image[0], imageH = (float) image[1];
        float scale = Math.min(modelW / imageW, modelH / imageH);
        float offsetX = (modelW - imageW * scale) / 2f;
        float offsetY = (modelH - imageH * scale) / 2f;

        float cx = (float) box[0], cy = (float) box[1], w = (float) box[2], h = (float) box[3];
        float x1 = (cx - w / 2f - offsetX) / scale;
        float y1 = (cy - h / 2f - offsetY) / scale;
        float x2 = (cx + w / 2f - offsetX) / scale;
        float y2 = (cy + h / 2f - offsetY) / scale;

        LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("box", List.of((double) x1, (double) y1, (double) x2, (double) y2));
        return Answer.output(out);
    }

    // ------------------------------------------------------------------ decode

    /**
     * Seed 001's output tensor [1, 6, 8400]: rows 0-3 x, y, width, height (centre-based), row 4 the
     * confidence score, row 5 the class id. An anchor is kept when its Float confidence is at least
     * the Float threshold. Detections in anchor order.
     */
    static Answer decode(Map<String, Object> in) {
        double[] shape = Input.numbers(in, "shape", 3);
        List<Object> values = Input.array(in, "values");
        float threshold = (float) Input.number(in, "confidence_threshold");
        for (double s : shape) {
            if (s != Math.rint(s) || s < 0 || s > Integer.MAX_VALUE) throw new CaseError("bad shape");
        }
        if (shape[0] != 1 || shape[1] != 6) {
            return Answer.skipped("seed 001's model output is [1, 6, N]; this app cannot read shape ["
                + (long) shape[0] + ", " + (long) shape[1] + ", " + (long) shape[2] + "]");
        }
        int anchors = (int) shape[2];
        if ((long) values.size() != 6L * anchors) {
            throw new CaseError("values has " + values.size() + " numbers, shape needs " + 6L * anchors);
        }
        float[] t = new float[values.size()];
        for (int i = 0; i < t.length; i++) t[i] = (float) Input.number(values.get(i), "values[" + i + "]");

        List<Object> detections = new ArrayList<>();
        for (int a = 0; a < anchors; a++) {
            float confidence = t[4 * anchors + a];
            if (!(confidence >= threshold)) continue;
            LinkedHashMap<String, Object> d = new LinkedHashMap<>();
            d.put("anchor", (long) a);
            d.put("box", List.of((double) t[a], (double) t[anchors + a],
                                 (double) t[2 * anchors + a], (double) t[3 * anchors + a]));
            d.put("score", (double) confidence);
            d.put("class", (long) (int) t[5 * anchors + a]); // Float.toInt()
            detections.add(d);
        }
        LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("detections", detections);
        return Answer.output(out);
    }
}
