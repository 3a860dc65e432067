// Profile `camera`: seed 000 (iOS camera scoring, ArrowDetectionService + ArrowAdjustmentViewModel).
// Transliterated as the seed shows it, bugs included. Line numbers: /work/shared/seeds/000_ff2110e6671a762a.txt.

/// Corners kept as given; width/height as CGRect computes them. (CGFloat is Double.)
struct Rect {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    init(corners c: [Double]) { minX = c[0]; minY = c[1]; maxX = c[2]; maxY = c[3] }
    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// CGRect.intersection: nil (CGRect.null) when the rectangles do not meet.
    func intersection(_ o: Rect) -> Rect? {
        let x1 = max(minX, o.minX), x2 = min(maxX, o.maxX)
        let y1 = max(minY, o.minY), y2 = min(maxY, o.maxY)
        if x2 < x1 || y2 < y1 { return nil }
        return Rect(minX: x1, minY: y1, maxX: x2, maxY: y2)
    }

    /// CGRect.union: the smallest rectangle enclosing both.
    func union(_ o: Rect) -> Rect {
        Rect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
}

func readBoxes(_ input: JSON) throws -> [Rect] {
    try input.array("boxes").map { Rect(corners: try doublesOf($0, "box", count: 4)) }
}

// MARK: seed 000 lines 204-235: DetectedArrow, Float fields, Float table with `...` (<=) patterns.
struct DetectedArrow {
    let normalizedX: Float
    let normalizedY: Float
    let distanceFromCenter: Float

    init(normalizedX: Float, normalizedY: Float) {
        self.normalizedX = normalizedX
        self.normalizedY = normalizedY
        // buildDetectionResult is not shown; the Float fields (lines 206-210) give the distance in Float.
        self.distanceFromCenter = (normalizedX * normalizedX + normalizedY * normalizedY).squareRoot()
    }

    func calculateScore() -> Int {
        switch distanceFromCenter {
        case ...0.05: return 10  // X-ring
        case ...0.10: return 10
        case ...0.20: return 9
        case ...0.30: return 8
        case ...0.40: return 7
        case ...0.50: return 6
        case ...0.60: return 5
        case ...0.70: return 4
        case ...0.80: return 3
        case ...0.90: return 2
        case ...1.00: return 1
        default: return 0  // Miss
        }
    }

    var isXRing: Bool {
        return distanceFromCenter <= 0.05
    }
}

// MARK: seed 000 lines 241-254 (+ the calculateScore/isXRing that confirmPlacements calls on it, lines 780-781).
struct EditableArrow {
    let start: Int
    var normalizedX: Double
    var normalizedY: Double
    let isManuallyPlaced = false

    func distanceFromCenter() -> Double {
        return sqrt(normalizedX * normalizedX + normalizedY * normalizedY)
    }

    var isOffTarget: Bool {
        return distanceFromCenter() > 1.0
    }

    // Not shown in the seed: the same table as DetectedArrow's, on the Double distance.
    func calculateScore() -> Int {
        switch distanceFromCenter() {
        case ...0.05: return 10
        case ...0.10: return 10
        case ...0.20: return 9
        case ...0.30: return 8
        case ...0.40: return 7
        case ...0.50: return 6
        case ...0.60: return 5
        case ...0.70: return 4
        case ...0.80: return 3
        case ...0.90: return 2
        case ...1.00: return 1
        default: return 0
        }
    }

    var isXRing: Bool {
        return distanceFromCenter() <= 0.05
    }
}

func sqrt(_ x: Double) -> Double { x.squareRoot() }

/// WA 10-zone under its id and aliases (`bullseye faces`): the only face seed 000's table describes.
func isTenZone(_ face: String) -> Bool { ["10_zone", "wa_10_zone", "wa_full"].contains(face) }

struct RawDetection {
    let index: Int
    let box: Rect
    let confidence: Float   // VNConfidence
}

enum CameraProfile {
    static func make(staleCapture: Bool) -> Profile {
        Profile(
            name: staleCapture ? "camera (stale-capture)" : "camera",
            stages: ["score", "nms", "vision_flip", "adjust"],
            semantics: [
                ("boundary", "inclusive"),                 // line 217: `case ...0.05` is `<=`
                ("precision", "float32-native"),           // lines 206-210: Float fields
                ("nms_overlap", "greater"),                // line 163: `> iouThreshold`
                ("nms_classes", "agnostic"),               // lines 162-164: no class test
                ("nms_order", "by-score"),                 // line 155: sorted by confidence
                ("nms_iou", "union-float32"),              // line 177: Float(intersectionArea / unionArea)
                ("flip", "flipped"),                       // line 132
                ("drag", staleCapture ? "stale-capture" : "start-plus-translation"),  // lines 683-691 / 659
            ],
            handle: { stage, input in
                switch stage {
                case "score": return try score(input)
                case "nms": return try nms(input)
                case "vision_flip": return try visionFlip(input)
                case "adjust": return try adjust(input, staleCapture: staleCapture)
                default: return .skipped("no stage \(stage)")
                }
            })
    }

    // score: the DetectedArrow at detection time.
    static func score(_ input: JSON) throws -> Answer {
        let face = try input.string("face")
        guard isTenZone(face) else { return .skipped("seed 000 defines only the 10-ring table (10_zone)") }
        let R = outerRadiusMM(diameterCm: try input.double("diameter_cm"))
        let u = try input.double("x_mm") / R
        let v = try input.double("y_mm") / R
        let arrow = DetectedArrow(normalizedX: Float(u), normalizedY: Float(v))
        return .output(.object([("points", int(arrow.calculateScore())), ("x", .bool(arrow.isXRing))]))
    }

    // nms: lines 152-178.
    static func nms(_ input: JSON) throws -> Answer {
        let boxes = try readBoxes(input)
        let scores = try input.doubles("scores")
        guard scores.count == boxes.count else { throw InputError(why: "boxes and scores differ in length") }
        let iouThreshold = Float(try input.double("iou_threshold"))
        let detections = boxes.indices.map { RawDetection(index: $0, box: boxes[$0], confidence: Float(scores[$0])) }
        let kept = applyNMS(detections, iouThreshold: iouThreshold)
        return .output(.object([("keep", .array(kept.map { int($0.index) }))]))
    }

    static func applyNMS(_ detections: [RawDetection], iouThreshold: Float) -> [RawDetection] {
        guard !detections.isEmpty else { return [] }

        var sorted = detections.sorted { $0.confidence > $1.confidence }
        var selected: [RawDetection] = []

        while !sorted.isEmpty {
            let best = sorted.removeFirst()
            selected.append(best)

            sorted.removeAll { detection in
                calculateIoU(best.box, detection.box) > iouThreshold
            }
        }

        return selected
    }

    static func calculateIoU(_ box1: Rect, _ box2: Rect) -> Float {
        guard let intersection = box1.intersection(box2) else { return 0 }

        let intersectionArea = intersection.width * intersection.height
        let unionArea = box1.width * box1.height + box2.width * box2.height - intersectionArea

        return unionArea > 0 ? Float(intersectionArea / unionArea) : 0
    }

    // vision_flip: lines 128-134.
    static func visionFlip(_ input: JSON) throws -> Answer {
        let r = try input.doubles("rect", count: 4)
        let size = try input.doubles("image_size", count: 2)
        let (imageWidth, imageHeight) = (size[0], size[1])
        let x = r[0] * imageWidth
        let y = (1.0 - r[1] - r[3]) * imageHeight  // Flip Y-axis
        let width = r[2] * imageWidth
        let height = r[3] * imageHeight
        // CGRect(x:y:width:height:) → maxX = x + width, maxY = y + height
        return .output(.object([("box", .array([num(x), num(y), num(x + width), num(y + height)]))]))
    }

    // adjust: DraggableArrowMarkerFixed (lines 663-700) or the stale-capture bug (line 659),
    // updateArrowPosition (733-738), finalizeArrowPosition (740-745), confirmPlacements (768-787).
    struct Marker {
        var arrow: EditableArrow
        let original: (Double, Double)
        var dragStartPosition: (x: Double, y: Double)?   // each marker's own @State
    }

    static func adjust(_ input: JSON, staleCapture: Bool) throws -> Answer {
        let face = try input.string("face")
        guard isTenZone(face) else { return .skipped("seed 000 defines only the 10-ring table (10_zone)") }
        let radius = try input.double("view_radius")
        var markers: [Marker] = try input.array("markers").enumerated().map { n, m in
            let p = try doublesOf(m, "marker", count: 2)
            return Marker(arrow: EditableArrow(start: n, normalizedX: p[0], normalizedY: p[1]),
                          original: (p[0], p[1]), dragStartPosition: nil)
        }
        for event in try input.array("events") {
            let i = try event.int("marker")
            // No marker at that index any more (removed earlier): no view, no gesture. updateArrowPosition and
            // finalizeArrowPosition look the id up with firstIndex/first and do nothing when it is gone.
            guard markers.indices.contains(i) else { continue }
            if let t = event["translation"] {
                let tr = try doublesOf(t, "translation", count: 2)
                let newX: Double, newY: Double
                if staleCapture {
                    // The bug line 659 describes: the cumulative translation added to the already-updated position.
                    newX = markers[i].arrow.normalizedX + tr[0] / radius
                    newY = markers[i].arrow.normalizedY + tr[1] / radius
                } else {
                    if markers[i].dragStartPosition == nil {
                        markers[i].dragStartPosition = (markers[i].arrow.normalizedX, markers[i].arrow.normalizedY)
                    }
                    let start = markers[i].dragStartPosition!
                    newX = start.x + tr[0] / radius
                    newY = start.y + tr[1] / radius
                }
                // updateArrowPosition
                markers[i].arrow.normalizedX = min(1.5, max(-1.5, newX))
                markers[i].arrow.normalizedY = min(1.5, max(-1.5, newY))
            }
            if event["end"]?.boolValue == true {
                markers[i].dragStartPosition = nil  // Reset for next drag
                // finalizeArrowPosition
                if markers[i].arrow.isOffTarget { markers.remove(at: i) }
            }
        }
        // confirmPlacements
        let out: [JSON] = markers.map { m in
            let arrow = m.arrow
            let (origX, origY) = m.original
            let dx = arrow.normalizedX - origX
            let dy = arrow.normalizedY - origY
            let wasAdjusted = arrow.isManuallyPlaced || sqrt(dx * dx + dy * dy) > 0.01
            return .object([
                ("start", int(arrow.start)),
                ("position", .array([num(arrow.normalizedX), num(arrow.normalizedY)])),
                ("points", int(arrow.calculateScore())),
                ("x", .bool(arrow.isXRing)),
                ("adjusted", .bool(wasAdjusted)),
            ])
        }
        return .output(.object([("markers", .array(out))]))
    }
}
