import Foundation
import Pipelines
import Adjustment
import Core
import Detection
import Imaging
import Persistence
import Scoring
import StrictYAML
import Synth

/// A pipeline scenario: a scene to synthesize (the `Synth` keys) plus how the
/// app processes it. Decoded strictly from one YAML document.
public struct ArcheryScenario: Sendable, Decodable {
  public var scene: SceneSpec
  var profiles: [String]
  var rule: BoundaryRule
  var precision: Precision
  /// Edit-time arithmetic at confirm (default Double, as seed 000's `EditableArrow`).
  var confirmPrecision: Precision
  var arrowMM: Double?
  var spots: SpotRule
  var overrides: ProfileOverrides
  var detector: DetectorSpec
  var expectedArrows: Int?
  var gestures: GestureScript
  var persist: PersistSpec?
  var expect: Expectations?
  /// Differences from the truth this scenario declares, per profile, each with its reason.
  var expectWrong: [String: [DeclaredWrong]]
  var clock: String
  /// How the picture is saved and read back, as a phone's photo (none: the rendered pixels as they are).
  var photo: PhotoSpec?
  /// Whether the app turns the photo upright before detection (`apply`) or not (seed 000's trap, `ignore`).
  var orientation: OrientationSemantics
  /// A photo file (PNG, JPEG or HEIC, inside the scenario tree) to run instead of a rendered scene.
  var image: String?
  /// The arrows a person marked on `image`: the reference the run is checked against.
  var marks: PhotoMarks?

  /// Keys this type reads at the top level, on top of the scene's (plus the
  /// golden keys `tolerances` and `image_tolerance`, read by the verifier).
  static let keys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue)).union(["tolerances", "image_tolerance"])

  enum CodingKeys: String, CodingKey, CaseIterable {
    case profile, rule, precision, spots, detector, gestures, persist, expect, clock
    case arrowMM = "arrow_mm", overrides = "profile_overrides", expectedArrows = "expected_arrows"
    case expectWrong = "expect_wrong", confirmPrecision = "confirm_precision"
    case photo, orientation, image, marks
  }

  public init(from decoder: Decoder) throws {
    scene = try SceneSpec(from: decoder)  // also checks unknown top-level keys
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let one = try? c.decode(String.self, forKey: .profile) { profiles = [one] }
    else { profiles = try c.decodeIfPresent([String].self, forKey: .profile) ?? ["ios", "android"] }
    rule = try c.decodeIfPresent(BoundaryRule.self, forKey: .rule) ?? .inclusive
    precision = try c.decodeIfPresent(Precision.self, forKey: .precision) ?? .float32Native
    confirmPrecision = try c.decodeIfPresent(Precision.self, forKey: .confirmPrecision) ?? .double
    arrowMM = try c.decodeIfPresent(Double.self, forKey: .arrowMM)
    if let v = arrowMM, !(v.isFinite && (0...50).contains(v)) {
      throw DecodingError.dataCorruptedError(forKey: .arrowMM, in: c, debugDescription: "arrow_mm \(v) is out of range: expected a shaft diameter in 0...50 mm")
    }
    spots = try c.decodeIfPresent(SpotRule.self, forKey: .spots) ?? .nearest
    overrides = try c.decodeIfPresent(ProfileOverrides.self, forKey: .overrides) ?? ProfileOverrides()
    detector = try c.decodeIfPresent(DetectorSpec.self, forKey: .detector) ?? DetectorSpec()
    expectedArrows = try c.decodeIfPresent(Int.self, forKey: .expectedArrows)
    gestures = try c.decodeIfPresent(GestureScript.self, forKey: .gestures) ?? GestureScript()
    persist = try c.decodeIfPresent(PersistSpec.self, forKey: .persist)
    expect = try c.decodeIfPresent(Expectations.self, forKey: .expect)
    expectWrong = try c.decodeIfPresent([String: [DeclaredWrong]].self, forKey: .expectWrong) ?? [:]
    for p in expectWrong.keys where !profiles.contains(p) {
      throw DecodingError.dataCorruptedError(forKey: .expectWrong, in: c, debugDescription:
        "expect_wrong names profile '\(p)', which the scenario does not run: expected one of \(profiles.joined(separator: ", "))")
    }
    clock = try c.decodeIfPresent(String.self, forKey: .clock) ?? "2026-01-01T09:00:00Z"
    photo = try c.decodeIfPresent(PhotoSpec.self, forKey: .photo)
    if let word = try c.decodeIfPresent(String.self, forKey: .orientation) {
      guard let o = OrientationSemantics(rawValue: word) else {
        throw DecodingError.dataCorruptedError(forKey: .orientation, in: c, debugDescription: "orientation '\(word)' is unknown: expected apply or ignore")
      }
      orientation = o
    } else { orientation = .apply }
    image = try c.decodeIfPresent(String.self, forKey: .image)
    marks = try c.decodeIfPresent(PhotoMarks.self, forKey: .marks)
    if image != nil, photo != nil {
      throw DecodingError.dataCorruptedError(forKey: .photo, in: c, debugDescription: "photo cannot go with image: photo saves a rendered scene, image names a photo file")
    }
    if marks != nil, image == nil {
      throw DecodingError.dataCorruptedError(forKey: .marks, in: c, debugDescription: "marks need image: FILE (a rendered scene has its own truth)")
    }
    if let marks, let face = try? scene.faceAndDiameter().face, let problem = marks.problem(on: face) {
      throw DecodingError.dataCorruptedError(forKey: .marks, in: c, debugDescription: problem)
    }
    if let twice = profiles.first(where: { p in profiles.filter { $0 == p }.count > 1 }) {
      throw DecodingError.dataCorruptedError(forKey: .profile, in: c, debugDescription: "profile '\(twice)' is listed twice: expected each profile once")
    }
    guard !profiles.isEmpty else {
      throw DecodingError.dataCorruptedError(forKey: .profile, in: c, debugDescription: "profile is an empty list: expected a profile or a list of them (ios, android, best)")
    }
    if let n = expectedArrows, !(0...1000).contains(n) {
      throw DecodingError.dataCorruptedError(forKey: .expectedArrows, in: c, debugDescription: "expected_arrows \(n) is out of range: expected 0...1000")
    }
    if !Self.isISO8601(clock) {
      throw DecodingError.dataCorruptedError(forKey: .clock, in: c, debugDescription: "clock '\(clock)' is not an ISO 8601 date-time: expected e.g. 2026-01-01T09:00:00Z")
    }
    if let expect, let face = try? scene.faceAndDiameter().face, let problem = expect.problem(on: face) {
      throw DecodingError.dataCorruptedError(forKey: .expect, in: c, debugDescription: problem)
    }
    if let marks {
      for (p, list) in expectWrong.sorted(by: { $0.key < $1.key }) {
        for d in list { if let i = d.arrow, i >= marks.arrows.count {
          throw DecodingError.dataCorruptedError(forKey: .expectWrong, in: c, debugDescription:
            "expect_wrong (\(p)) names arrow \(i): expected a mark's index, 0...\(marks.arrows.count - 1) (\(marks.arrows.count) marks)")
        } }
      }
    }
    if image != nil {
      // A photo has no synthesized truth: its detector is a model (the shipped one unless named).
      if !c.contains(.detector) { detector.source = "model" }
      guard ["model", "boxes", "face", "none"].contains(detector.source) else {
        throw DecodingError.dataCorruptedError(forKey: .detector, in: c, debugDescription: "detector source '\(detector.source)' needs a rendered scene: expected model, boxes, face or none with image: FILE")
      }
    }
  }

  /// An internet date-time (`2026-01-01T09:00:00Z`, optional fraction, `Z` or `±HH:MM`).
  package static func isISO8601(_ t: String) -> Bool {
    let plain = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard plain.date(from: t) != nil || fractional.date(from: t) != nil else { return false }
    // The formatter rolls 2024-02-30 over to March and takes five-digit years; a stored
    // created_at must be the calendar date it says.
    let d = Array(t.utf8)
    func number(_ r: Range<Int>) -> Int? {
      guard r.upperBound <= d.count, d[r].allSatisfy({ (48...57).contains($0) }) else { return nil }
      return d[r].reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    guard d.count >= 19, d[4] == UInt8(ascii: "-"), d[7] == UInt8(ascii: "-"), d[10] == UInt8(ascii: "T"),
          let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
          let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
          (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(day)
  }

  /// Decodes a scenario file's text; errors name `path:line:column`.
  public static func decode(_ text: String, path: String) throws(SynthError) -> ArcheryScenario {
    try SceneFile.decode(ArcheryScenario.self, text, path: path, extraKeys: keys)
  }

  /// Decodes an already parsed scenario file.
  package static func decode(_ document: YAMLDocument) throws(SynthError) -> ArcheryScenario {
    try SceneFile.decode(ArcheryScenario.self, document, extraKeys: keys)
  }
}

extension SpotRule: Decodable {}
extension UpsertSemantics: Decodable {}
extension CoordinatePolicy: Decodable {}
extension ResumeSemantics: Decodable {}
extension NMSVariant: Decodable {}
extension DragSemantics: Decodable {}
extension OutputLayout: Decodable {}

/// Any profile entry a scenario wants to change.
struct ProfileOverrides: Sendable, Decodable {
  var confidence: Double?, iou: Double?, nms: NMSVariant?, drag: DragSemantics?
  var preprocess: String?, roundedPadding: Bool?, layout: OutputLayout?
  init() {}
  enum CodingKeys: String, CodingKey, CaseIterable {
    case confidence, iou, nms, drag, preprocess, layout
    case roundedPadding = "rounded_padding"
  }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    confidence = try c.decodeIfPresent(Double.self, forKey: .confidence)
    iou = try c.decodeIfPresent(Double.self, forKey: .iou)
    for (key, v) in [(CodingKeys.confidence, confidence), (.iou, iou)] {
      if let v, !(v.isFinite && (0...1).contains(v)) {
        throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(key.stringValue) \(v) is out of range: expected 0...1")
      }
    }
    nms = try c.decodeIfPresent(NMSVariant.self, forKey: .nms)
    drag = try c.decodeIfPresent(DragSemantics.self, forKey: .drag)
    preprocess = try c.decodeIfPresent(String.self, forKey: .preprocess)
    if let p = preprocess, p != "stretch", p != "letterbox" {
      throw DecodingError.dataCorruptedError(forKey: .preprocess, in: c, debugDescription: "preprocess '\(p)' is unknown: expected stretch or letterbox")
    }
    roundedPadding = try c.decodeIfPresent(Bool.self, forKey: .roundedPadding)
    layout = try c.decodeIfPresent(OutputLayout.self, forKey: .layout)
  }

  /// The profile with these entries applied.
  func apply(to p: PlatformProfile) -> PlatformProfile {
    var q = p
    if let v = confidence { q.confidence = v }
    if let v = iou { q.iou = v }
    if let v = nms { q.nms = v }
    if let v = drag { q.drag = v }
    if let v = preprocess { q.preprocess = v }
    if let v = roundedPadding { q.roundedPadding = v }
    if let v = layout { q.layout = v }
    return q
  }
}

/// Where detections come from in a scenario.
struct DetectorSpec: Sendable, Decodable {
  /// `truth` (a perfect detector built from the ground truth), `boxes`, `model` or `none`.
  var source: String = "truth"
  /// Per-arrow confidences for `truth` (cycled); default 0.9.
  var confidences: [Double] = [0.9]
  /// Extra raw candidates (model-input pixels), e.g. duplicates or false positives.
  var boxes: [BoxSpec] = []
  /// Include the target-face box (class 1) for `truth`.
  var targetBox: Bool = true
  var model: String?
  /// An arrow refiner (ONNX) for a second look at each arrow candidate.
  var refiner: String?
  /// How many mirrored and transposed views the refiner reads a one-entry window
  /// in (1...8; nil: the shipped setting). 1 suits a refiner not trained on them.
  var refinerViews: Int?
  /// A raw output tensor written inline: `{shape: [1, 6, N], values: [...]}` (row-major).
  var tensor: InlineTensor?
  /// A raw output tensor as a float32 `.npy` file inside the scenario tree.
  var npy: String?
  /// For `face`: detections in face coordinates, bypassing the detector and the ring fit.
  var points: [[Double]] = []
  init() {}
  enum CodingKeys: String, CodingKey, CaseIterable { case source, confidences, boxes, model, refiner, tensor, npy, targetBox = "target_box", points
    case refinerViews = "refiner_views"
  }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    source = try c.decodeIfPresent(String.self, forKey: .source) ?? "truth"
    guard ["truth", "boxes", "tensor", "model", "none", "face"].contains(source) else {
      throw DecodingError.dataCorruptedError(forKey: .source, in: c, debugDescription: "detector source '\(source)' is unknown: expected truth, boxes, tensor, model, face or none")
    }
    points = try c.decodeIfPresent([[Double]].self, forKey: .points) ?? []
    for p in points where p.count != 2 || !p.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) {
      throw DecodingError.dataCorruptedError(forKey: .points, in: c, debugDescription: "point \(p) is not a finite [x, y] pair in face coordinates")
    }
    if source == "face", points.isEmpty {
      throw DecodingError.dataCorruptedError(forKey: .source, in: c, debugDescription: "detector source 'face' needs 'points: [[x, y], ...]' in face coordinates")
    }
    confidences = try c.decodeIfPresent([Double].self, forKey: .confidences) ?? [0.9]
    if confidences.isEmpty || confidences.contains(where: { !($0.isFinite && (0...1).contains($0)) }) {
      throw DecodingError.dataCorruptedError(forKey: .confidences, in: c, debugDescription: "confidences \(confidences) are not all in 0...1: expected one or more detector confidences, cycled over the arrows")
    }
    boxes = try c.decodeIfPresent([BoxSpec].self, forKey: .boxes) ?? []
    targetBox = try c.decodeIfPresent(Bool.self, forKey: .targetBox) ?? true
    model = try c.decodeIfPresent(String.self, forKey: .model)
    refiner = try c.decodeIfPresent(String.self, forKey: .refiner)
    refinerViews = try c.decodeIfPresent(Int.self, forKey: .refinerViews)
    if let v = refinerViews, !(1...8).contains(v) {
      throw DecodingError.dataCorruptedError(forKey: .refinerViews, in: c, debugDescription: "refiner_views \(v) is out of range: expected 1...8")
    }
    tensor = try c.decodeIfPresent(InlineTensor.self, forKey: .tensor)
    npy = try c.decodeIfPresent(String.self, forKey: .npy)
    if source == "tensor", tensor == nil, npy == nil {
      throw DecodingError.dataCorruptedError(forKey: .source, in: c, debugDescription: "detector source 'tensor' needs 'tensor: {shape, values}' or 'npy: FILE'")
    }
  }
}

/// A small tensor written in a scenario: shape and row-major values.
struct InlineTensor: Sendable, Decodable {
  var shape: [Int]
  var values: [Float]
  enum CodingKeys: String, CodingKey, CaseIterable { case shape, values }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    shape = try c.decode([Int].self, forKey: .shape)
    values = try c.decode([Float].self, forKey: .values)
    let count = shape.reduce(1) { $0.multipliedReportingOverflow(by: max($1, 0)).partialValue }
    guard shape.allSatisfy({ $0 > 0 && $0 <= 1_000_000 }), count == values.count else {
      throw DecodingError.dataCorruptedError(forKey: .values, in: c,
        debugDescription: "tensor has \(values.count) values for shape \(shape): expected the product of the dimensions")
    }
  }
}

/// A raw candidate written in a scenario (model-input pixels).
struct BoxSpec: Sendable, Decodable {
  var cx: Double, cy: Double, w: Double, h: Double, confidence: Double, classID: Int
  enum CodingKeys: String, CodingKey, CaseIterable { case cx, cy, w, h, confidence, classID = "class" }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    cx = try c.decode(Double.self, forKey: .cx); cy = try c.decode(Double.self, forKey: .cy)
    w = try c.decode(Double.self, forKey: .w); h = try c.decode(Double.self, forKey: .h)
    confidence = try c.decode(Double.self, forKey: .confidence)
    classID = try c.decodeIfPresent(Int.self, forKey: .classID) ?? 0
    for (key, v) in [(CodingKeys.cx, cx), (.cy, cy)] where !(v.isFinite && abs(v) <= 1e6) {
      throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "box \(key.stringValue) \(v) is not a finite position within ±1e6 model-input pixels")
    }
    for (key, v) in [(CodingKeys.w, w), (.h, h)] where !(v.isFinite && v > 0 && v <= 1e6) {
      throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "box \(key.stringValue) \(v) is not a size: expected more than 0 and at most 1e6 model-input pixels")
    }
    guard confidence.isFinite, (0...1).contains(confidence) else {
      throw DecodingError.dataCorruptedError(forKey: .confidence, in: c, debugDescription: "box confidence \(confidence) is out of range: expected 0...1")
    }
    guard (0...1000).contains(classID) else {
      throw DecodingError.dataCorruptedError(forKey: .classID, in: c, debugDescription: "box class \(classID) is out of range: expected 0...1000")
    }
  }
  var raw: RawBox { RawBox(cx: cx, cy: cy, w: w, h: h, confidence: confidence, classID: classID) }
}
