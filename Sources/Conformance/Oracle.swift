import Core
import Detection
import Imaging
import Scoring

/// The expected answer of a case: the library code the pipeline runs, called
/// with the case's input under one combination of semantics. Vectors, the
/// built-in suite and `bullseye conform testee` all answer through here.
enum Oracle {
  /// The answer to `input` at `stage` under `semantics` (missing axes take their defaults).
  static func answer(_ stage: Stage, _ input: JSONValue, _ semantics: Semantics) throws(ConformanceError) -> JSONValue {
    let s = semantics.merging(AxisTable.defaults) { own, _ in own }
    switch stage {
    case .echo: return input
    case .score: return try score(Input(input), s)
    case .nms: return try nms(Input(input), s)
    case .visionFlip: return try visionFlip(Input(input), s)
    case .mapToImage: return try mapToImage(Input(input), s)
    case .decode: return try decode(Input(input), s)
    case .adjust: return try adjust(Input(input), s)
    case .resume: return try resume(Input(input), s)
    case .setcards: return try setcards(Input(input))
    }
  }

  static func face(_ name: String) throws(ConformanceError) -> Face {
    do { return try FaceCatalog.face(named: name) } catch { throw .input("face '\(name)' is unknown: expected a face id as `bullseye faces` lists them") }
  }

  /// `score`: millimetres from the spot centre → spot units (`u = x_mm / R`,
  /// `R = diameter_cm × 10 / 2 × outer fraction`, in Double) → the scorer in
  /// the declared boundary rule and precision.
  static func score(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let face = try face(i.string("face"))
    let diameter = try i.number("diameter_cm")
    guard diameter > 0, diameter <= 1000 else { throw .input("'diameter_cm' is \(diameter), expected a face diameter in (0, 1000] cm") }
    let r = face.spotRadiusMM(diameterCm: diameter)
    let request = ScoreRequest(
      face: face, x: try i.number("x_mm") / r, y: try i.number("y_mm") / r,
      rule: BoundaryRule(rawValue: s["boundary"]!)!, diameterCm: diameter, arrowMM: try i.number("arrow_diameter_mm"),
      precision: Precision(rawValue: s["precision"]!)!, spot: .index(0))
    let result: ScoreResult
    do { result = try Scorer.scoreInSpot(request) } catch { throw .input("\(error)") }
    return .object(["points": .int(result.score), "x": .bool(result.isX)])
  }

  /// The NMS policy a combination names.
  static func policy(_ s: Semantics) -> NMSPolicy {
    NMSPolicy(overlap: NMSPolicy.Overlap(rawValue: s["nms_overlap"]!)!, classes: NMSPolicy.Classes(rawValue: s["nms_classes"]!)!,
              order: NMSPolicy.Order(rawValue: s["nms_order"]!)!, measure: NMSPolicy.Measure(rawValue: s["nms_iou"]!)!)
  }

  static func nms(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let boxes = try i.array("boxes")
    var corners: [(Double, Double, Double, Double)] = []
    for (n, b) in boxes.enumerated() {
      let c = try Input.numbers(b, "boxes[\(n)]", count: 4)
      corners.append((c[0], c[1], c[2], c[3]))
    }
    let scores = try i.numbers("scores", count: boxes.count)
    var classes: [Int] = []
    for (n, c) in try i.array("classes").enumerated() { classes.append(try Input.int(c, "classes[\(n)]", in: 0...1_000_000)) }
    guard classes.count == boxes.count else { throw .input("'classes' has \(classes.count) entries, expected \(boxes.count)") }
    let t = try i.number("iou_threshold")
    guard (0...1).contains(t) else { throw .input("'iou_threshold' is \(t), expected a number in [0, 1]") }
    let keep = suppress(corners: corners, scores: scores, classes: classes, policy: policy(s), threshold: t)
    return .object(["keep": .array(keep.map(JSONValue.int))])
  }

  static func size(_ i: Input, _ key: String) throws(ConformanceError) -> (Int, Int) {
    let v = try i.array(key)
    guard v.count == 2 else { throw .input("'\(key)' has \(v.count) entries, expected [width, height]") }
    return (try Input.int(v[0], "\(key)[0]", in: 1...1_000_000), try Input.int(v[1], "\(key)[1]", in: 1...1_000_000))
  }

  static func corners(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> JSONValue {
    .object(["box": .array([.double(x1), .double(y1), .double(x2), .double(y2)])])
  }

  /// `vision_flip`: `x1 = x·W`, `y1 = (1 − y − h)·H` (flipped) or `y·H`, `x2 = x1 + w·W`, `y2 = y1 + h·H`.
  static func visionFlip(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let r = try i.numbers("rect", count: 4)
    let (w, h) = try size(i, "image_size")
    let p = visionToPixels(x: r[0], y: r[1], width: r[2], height: r[3], imageWidth: w, imageHeight: h, flipped: s["flip"] == "flipped")
    return corners(p.x, p.y, p.x + p.width, p.y + p.height)
  }

  static func mapToImage(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let b = try i.numbers("box", count: 4)
    let (mw, mh) = try size(i, "model_size")
    guard mw == mh else { throw .input("'model_size' is [\(mw), \(mh)], expected a square model input") }
    let (w, h) = try size(i, "image_size")
    let mapping: InputMapping
    switch s["input_mapping"]! {
    case "stretch": mapping = .stretch(imageWidth: w, imageHeight: h, input: mw)
    case "letterbox": mapping = .letterbox(imageWidth: w, imageHeight: h, input: mw, roundedPadding: true)
    default: mapping = .letterbox(imageWidth: w, imageHeight: h, input: mw, roundedPadding: false)
    }
    let c = mapping.toImageCorners(RawBox(cx: b[0], cy: b[1], w: b[2], h: b[3], confidence: 1))
    return corners(c.0, c.1, c.2, c.3)
  }

  static func decode(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let shape = try i.array("shape")
    guard shape.count == 3 else { throw .input("'shape' has \(shape.count) entries, expected [1, rows, anchors]") }
    let dims = [try Input.int(shape[0], "shape[0]", in: 1...1), try Input.int(shape[1], "shape[1]", in: 5...1024),
                try Input.int(shape[2], "shape[2]", in: 1...1_000_000)]
    let raw = try i.numbers("values", count: dims[1] * dims[2])
    var values: [Float] = []
    values.reserveCapacity(raw.count)
    for (n, v) in raw.enumerated() {
      guard Double(Float(v)) == v else { throw .input("'values'[\(n)] is \(v), expected a number exactly representable as a Float32") }
      values.append(Float(v))
    }
    let threshold = try i.number("confidence_threshold")
    let layout = OutputLayout(rawValue: s["decode_layout"]!)!
    let test = ConfidenceTest(comparison: ConfidenceTest.Comparison(rawValue: s["decode_threshold"]!)!,
                              arithmetic: ConfidenceTest.Arithmetic(rawValue: s["decode_precision"]!)!)
    let boxes: [RawBox]
    do { boxes = try decodeOutput(values, shape: dims, layout: layout) } catch { throw .input("\(error)") }
    var out: [JSONValue] = []
    for (a, b) in boxes.enumerated() where test.passes(b.confidence, threshold: threshold) {
      out.append(.object(["anchor": .int(a), "box": .array([b.cx, b.cy, b.w, b.h].map(JSONValue.double)),
                          "score": .double(b.confidence), "class": .int(b.classID)]))
    }
    return .object(["detections": .array(out)])
  }
}
