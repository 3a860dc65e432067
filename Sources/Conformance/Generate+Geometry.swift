import Core

/// Built-in cases for the detection geometry stages: NMS, the Vision flip, the
/// model-to-image mapping and the tensor decode. Small integer grids make exact
/// ties (IoU exactly at the threshold, equal scores) common on purpose.
enum GeometryCases {
  static func nms() throws(ConformanceError) -> [VectorGroup] {
    let notes = [
      "at-threshold": "Some pair's IoU (or enclosing ratio) equals the threshold exactly: `>` and `≥` part here.",
      "equal-scores": "Boxes share a score: the order among equals decides.",
      "classes": "Boxes of several classes overlap.",
      "float32-iou": "Some pair's IoU rounds to the Float32 threshold although it differs in Double.",
      "random": "Random boxes on a small integer grid.",
      "empty": "No boxes.",
    ]
    var tests: [Vector] = []
    func add(_ id: String, _ comment: String, _ flags: [String], _ boxes: [[Double]], _ scores: [Double], _ classes: [Int],
             _ t: Double) throws(ConformanceError) {
      let input: JSONValue = .object([
        "boxes": .array(boxes.map { .array($0.map(JSONValue.double)) }), "scores": .array(scores.map(JSONValue.double)),
        "classes": .array(classes.map(JSONValue.int)), "iou_threshold": .double(t),
      ])
      tests.append(try Vector.computed(id: "nms.\(id)", stage: .nms, group: "nms", comment: comment, flags: flags, input: input))
    }
    try add("empty", "no boxes", ["empty"], [], [], [], 0.5)
    // IoU exactly 0.5: a 10×10 box and its top half.
    try add("half.ge", "IoU exactly 0.5 at threshold 0.5", ["at-threshold"], [[0, 0, 10, 10], [0, 0, 10, 5]], [0.9, 0.8], [0, 0], 0.5)
    try add("half.order", "the weaker box first in the input", ["at-threshold"], [[0, 0, 10, 5], [0, 0, 10, 10]], [0.8, 0.9], [0, 0], 0.5)
    // Float32 IoU: 7/10 in Double vs Float(0.7).
    try add("seven-tenths", "IoU 0.7 exactly in Double", ["at-threshold", "float32-iou"], [[0, 0, 10, 10], [0, 0, 10, 7]], [0.9, 0.8], [0, 0], 0.7)
    // IoU a hair off the threshold in Double that rounds onto Float(threshold): Double and Float part.
    for (n, (h, t)) in [(7.0000001, 0.7), (6.9999999, 0.7), (5.00000001, 0.5), (4.99999999, 0.5), (4.5000001, 0.45),
                        (3.0000001, 0.3), (7.00000003, 0.7), (6.99999997, 0.7)].enumerated() {
      try add("float32-iou\(n)", "IoU \(h / 10) against \(t)", ["float32-iou"], [[0, 0, 10, 10], [0, 0, 10, h], [20, 20, 30, 30]],
              [0.9, 0.8, 0.7], [0, 0, 0], t)
    }
    var rng = SeededGenerator(seed: SeededGenerator.hash("nms"))
    let thresholds = [0.5, 0.7, 0.45, 0.3, 1.0 / 3, 0.25, 0.6]
    for n in 0..<260 {
      let count = rng.int(2...10)
      var boxes: [[Double]] = [], scores: [Double] = [], classes: [Int] = []
      let grid = rng.pick([6, 10, 16])
      for _ in 0..<count {
        let x1 = Double(rng.int(0...grid)), y1 = Double(rng.int(0...grid))
        boxes.append([x1, y1, x1 + Double(rng.int(1...grid)), y1 + Double(rng.int(1...grid))])
        scores.append(rng.pick([0.9, 0.8, 0.8, 0.7, 0.55, 0.5, 0.5, 0.35]))
        classes.append(rng.chance(0.3) ? 1 : 0)
      }
      let t = rng.pick(thresholds)
      var flags = ["random"]
      if Set(scores).count < scores.count { flags.append("equal-scores") }
      if Set(classes).count > 1 { flags.append("classes") }
      try add("random\(n)", "\(count) boxes on a \(grid)-grid, threshold \(t)", flags.sorted(), boxes, scores, classes, t)
    }
    return [VectorGroup(stage: .nms, group: "nms", notes: notes, tests: tests)]
  }

  static let imageSizes: [(Int, Int)] = [(640, 640), (1920, 1080), (1080, 1920), (4032, 3024), (3024, 4032), (480, 360), (1000, 999), (333, 517)]

  static func visionFlip() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    var rng = SeededGenerator(seed: SeededGenerator.hash("vision_flip"))
    for n in 0..<220 {
      let (w, h) = imageSizes[n % imageSizes.count]
      let bw = rng.uniform(0.01...0.5), bh = rng.uniform(0.01...0.5)
      var rect = [rng.uniform(0...(1 - bw)), rng.uniform(0...(1 - bh)), bw, bh]
      var flags = ["random"]
      if n % 11 == 0 { rect = [0, 0, 0.25, 0.5]; flags = ["corner"] }
      if n % 13 == 0 { rect = [0.25, 0.5, 0.5, 0.5]; flags = ["top-edge"] }
      let input: JSONValue = .object(["rect": .array(rect.map(JSONValue.double)), "image_size": .array([.int(w), .int(h)])])
      tests.append(try Vector.computed(id: "vision_flip.\(n)", stage: .visionFlip, group: "vision_flip",
                                       comment: "rect on a \(w)×\(h) image", flags: flags, input: input))
    }
    let notes = ["random": "A random normalized rectangle.", "corner": "The bottom-left corner of the image.",
                 "top-edge": "A rectangle touching the top edge (y + h = 1)."]
    return [VectorGroup(stage: .visionFlip, group: "vision_flip", notes: notes, tests: tests)]
  }

  static func mapToImage() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    var rng = SeededGenerator(seed: SeededGenerator.hash("map_to_image"))
    for n in 0..<230 {
      let (w, h) = imageSizes[n % imageSizes.count]
      let model = n % 5 == 4 ? 320 : 640
      let s = Double(model)
      var box = [rng.uniform(0...s), rng.uniform(0...s), rng.uniform(2...(s / 4)), rng.uniform(2...(s / 4))]
      var flags = ["random"]
      if n % 7 == 0 { box = box.map { $0.rounded() }; flags = ["integer"] }
      if n % 17 == 0 { box[0] = 0; box[1] = 0; flags.append("padding") }
      let input: JSONValue = .object([
        "box": .array(box.map(JSONValue.double)), "model_size": .array([.int(model), .int(model)]),
        "image_size": .array([.int(w), .int(h)]),
      ])
      tests.append(try Vector.computed(id: "map_to_image.\(n)", stage: .mapToImage, group: "map_to_image",
                                       comment: "\(model)² input, \(w)×\(h) image", flags: flags.sorted(), input: input))
    }
    let notes = ["random": "A random box in model-input pixels.", "integer": "Integer coordinates.",
                 "padding": "The centre lies in the letterbox padding (maps outside the image; not clamped)."]
    return [VectorGroup(stage: .mapToImage, group: "map_to_image", notes: notes, tests: tests)]
  }

  static func decode() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    var rng = SeededGenerator(seed: SeededGenerator.hash("decode"))
    let thresholds = [0.35, 0.40, 0.25, 0.5]
    for n in 0..<220 {
      let anchors = rng.int(1...12)
      let t = thresholds[n % thresholds.count]
      var rows = [[Float]](repeating: [], count: 6)
      var flags: Set<String> = ["random"]
      for _ in 0..<anchors {
        rows[0].append(Float(rng.uniform(0...640))); rows[1].append(Float(rng.uniform(0...640)))
        rows[2].append(Float(rng.uniform(4...80))); rows[3].append(Float(rng.uniform(4...80)))
        // Scores near the threshold: exactly Float(t), its neighbours, and plain values.
        let ft = Float(t)
        let s4: Float, s5: Float
        switch rng.int(0...5) {
        case 0: s4 = ft; flags.insert("at-threshold")
        case 1: s4 = ft.nextUp; flags.insert("at-threshold")
        case 2: s4 = ft.nextDown; flags.insert("at-threshold")
        default: s4 = Float(rng.uniform(0...1))
        }
        switch rng.int(0...3) {
        case 0: s5 = 0
        case 1: s5 = 1
        default: s5 = Float(rng.uniform(0...1)); flags.insert("second-score")
        }
        rows[4].append(s4); rows[5].append(s5)
      }
      let values = rows.flatMap { $0 }.map { JSONValue.double(Double($0)) }
      let input: JSONValue = .object([
        "shape": .array([.int(1), .int(6), .int(anchors)]), "values": .array(values), "confidence_threshold": .double(t),
      ])
      tests.append(try Vector.computed(id: "decode.\(n)", stage: .decode, group: "decode", comment: "\(anchors) anchors, threshold \(t)",
                                       flags: flags.sorted(), input: input))
    }
    let notes = [
      "random": "Random boxes and scores.",
      "at-threshold": "Some score is Float32(threshold) or one of its neighbours: `≥`/`>` and Float/Double comparisons part here.",
      "second-score": "Row 5 holds a fraction: a second class's score (Ultralytics) or a class id to round (seed 001).",
    ]
    return [VectorGroup(stage: .decode, group: "decode", notes: notes, tests: tests)]
  }
}
