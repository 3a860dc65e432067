import Core
import Obstacles
import Synth

// Strict YAML decoding: unknown keys, wrong types and out-of-range values are
// errors whose coding path `ScenarioFile` turns into file:line:column.

extension ObstacleScenario: Decodable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, kind, description, seed, size, semantics, detections, frames, modes, overlays, expect
  }

  /// Decodes strictly; `id` defaults to empty (ScenarioFile fills it from the path).
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let kind = try c.decodeIfPresent(String.self, forKey: .kind), kind != "obstacles" {
      throw invalid(decoder, CodingKeys.kind, "kind '\(kind)' is not an obstacle scenario: expected obstacles")
    }
    self.init(id: try c.decodeIfPresent(String.self, forKey: .id) ?? "")
    description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
    seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
    if let size = try c.decodeIfPresent(String.self, forKey: .size) {
      guard let (w, h) = Self.parseSize(size) else {
        throw invalid(decoder, CodingKeys.size, "size '\(size)' is not WIDTHxHEIGHT with sides 16…4096: expected e.g. 640x480")
      }
      width = w
      height = h
    }
    semantics = try c.decodeIfPresent(ObstacleSemantics.self, forKey: .semantics) ?? .batsight
    detections = try choice(c, .detections, decoder, ObstacleDetectionSource.self) ?? .scripted
    let scripted = try c.decode([ScenarioFrame].self, forKey: .frames)
    frames = scripted.map(\.frame)
    objects = scripted.map(\.objects)
    modes = try c.decodeIfPresent([ModeEvent].self, forKey: .modes) ?? []
    overlays = try c.decodeIfPresent([Int].self, forKey: .overlays) ?? []
    expect = try c.decodeIfPresent(ObstacleExpectation.self, forKey: .expect)
    try validateOrder(decoder)
  }

  /// Cross-field checks: time order and indices that must name a frame.
  private func validateOrder(_ decoder: Decoder) throws {
    let at = { (key: CodingKeys, i: Int) -> [CodingKey] in
      decoder.codingPath + [key, AnyCodingKey(intValue: i)]
    }
    if frames.isEmpty { throw invalid(decoder, CodingKeys.frames, "'frames' is empty: expected at least one frame") }
    for i in frames.indices.dropFirst() where frames[i].time <= frames[i - 1].time {
      throw DecodingError.dataCorrupted(.init(codingPath: at(.frames, i) + [AnyCodingKey(stringValue: "time_s")],
        debugDescription: "frame time \(frames[i].time) s is not after \(frames[i - 1].time) s: expected strictly increasing times"))
    }
    for i in modes.indices.dropFirst() where modes[i].time < modes[i - 1].time {
      throw DecodingError.dataCorrupted(.init(codingPath: at(.modes, i),
        debugDescription: "mode time \(modes[i].time) s is before \(modes[i - 1].time) s: expected non-decreasing times"))
    }
    for (i, f) in overlays.enumerated() where !frames.indices.contains(f) {
      throw DecodingError.dataCorrupted(.init(codingPath: at(.overlays, i),
        debugDescription: "overlay frame \(f) does not exist: expected 0…\(frames.count - 1)"))
    }
    for (i, e) in (expect?.frames ?? []).enumerated() where !frames.indices.contains(e.index) {
      throw DecodingError.dataCorrupted(.init(
        codingPath: decoder.codingPath + [CodingKeys.expect, AnyCodingKey(stringValue: "frames"), AnyCodingKey(intValue: i)],
        debugDescription: "expected frame index \(e.index) does not exist: expected 0…\(frames.count - 1)"))
    }
  }

  /// `640x480` → (640, 480); sides 16…4096.
  static func parseSize(_ text: String) -> (Int, Int)? {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
      (16...4096).contains(w), (16...4096).contains(h)
    else { return nil }
    return (w, h)
  }
}

extension ObstacleSemantics: Decodable {
  private enum Keys: String, CodingKey, CaseIterable {
    case zones, nms, pick
    case confidenceArithmetic = "confidence_arithmetic"
  }

  /// Decodes strictly; left-out fields are the app at HEAD.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(Keys.self)
    let c = try decoder.container(keyedBy: Keys.self)
    self.init(
      zones: try choice(c, .zones, decoder, ZoneVariant.self) ?? .batsight,
      nms: try choice(c, .nms, decoder, NMSVariant.self) ?? NMSVariant.none,
      confidenceArithmetic: try choice(c, .confidenceArithmetic, decoder, ConfidenceArithmetic.self) ?? .float32,
      pick: try choice(c, .pick, decoder, VisionPick.self) ?? .priority)
  }
}


extension NormalizedBox: Decodable {
  /// Decodes `[x, y, width, height]`, finite, width and height ≥ 0.
  public init(from decoder: Decoder) throws {
    let v = try decoder.singleValueContainer().decode([Double].self)
    guard v.count == 4, v.allSatisfy(\.isFinite), v[2] >= 0, v[3] >= 0 else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
        debugDescription: "box \(v) is not [x, y, width, height]: expected 4 finite numbers, width and height ≥ 0"))
    }
    self.init(x: v[0], y: v[1], width: v[2], height: v[3])
  }
}

/// One frame as a scenario writes it: the pipeline's frame and what the synthesizer draws.
struct ScenarioFrame: Decodable {
  let frame: ObstacleFrame
  let objects: [DrawnObject]
  enum CodingKeys: String, CodingKey, CaseIterable {
    case time = "time_s", objects, vision, yolo
  }

  /// Decodes strictly.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    objects = try c.decodeIfPresent([DrawnObject].self, forKey: .objects) ?? []
    frame = ObstacleFrame(
      time: try decodeTime(c, .time, decoder),
      vision: try c.decodeIfPresent([VisionObservation].self, forKey: .vision) ?? [],
      yolo: try c.decodeIfPresent([YOLOBox].self, forKey: .yolo) ?? [])
  }
}

extension DrawnObject: Decodable {
  private enum Keys: String, CodingKey, CaseIterable { case kind, box }

  /// Decodes strictly.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(Keys.self)
    let c = try decoder.container(keyedBy: Keys.self)
    self.init(kind: try required(choice(c, .kind, decoder, ObjectKind.self), c, .kind), box: try c.decode(NormalizedBox.self, forKey: .box))
  }
}

extension VisionObservation: Decodable {
  private enum Keys: String, CodingKey, CaseIterable { case source, label, confidence, box }

  /// Decodes strictly: faces need no label, classifications take no box.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(Keys.self)
    let c = try decoder.container(keyedBy: Keys.self)
    let source = try required(choice(c, .source, decoder, VisionSource.self), c, .source)
    let label = try source == .faces
      ? c.decodeIfPresent(String.self, forKey: .label) ?? "Person" : c.decode(String.self, forKey: .label)
    let box = try c.decodeIfPresent(NormalizedBox.self, forKey: .box)
    if source == .classification, box != nil {
      throw invalid(decoder, Keys.box, "a classification has no box (the app uses its centre box 0.4, 0.4, 0.2, 0.2): expected no 'box'")
    }
    if source != .classification, box == nil {
      throw invalid(decoder, Keys.source, "a \(source.rawValue) observation has no box: expected 'box: [x, y, w, h]'")
    }
    self.init(source: source, label: label, confidence: try decodeConfidence(c, .confidence, decoder), box: box)
  }
}

extension YOLOBox: Decodable {
  private enum Keys: String, CodingKey, CaseIterable { case confidence, box, label }

  /// Decodes strictly; `label` (optional) names the box's class in overlays.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(Keys.self)
    let c = try decoder.container(keyedBy: Keys.self)
    self.init(
      confidence: try decodeConfidence(c, .confidence, decoder), box: try c.decode(NormalizedBox.self, forKey: .box),
      label: try c.decodeIfPresent(String.self, forKey: .label))
  }
}

extension ModeEvent: Decodable {
  private enum Keys: String, CodingKey, CaseIterable { case time = "time_s", text, speechEnabled = "speech_enabled" }

  /// Decodes strictly.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(Keys.self)
    let c = try decoder.container(keyedBy: Keys.self)
    self.init(
      time: try decodeTime(c, .time, decoder), text: try c.decode(String.self, forKey: .text),
      speechEnabled: try c.decodeIfPresent(Bool.self, forKey: .speechEnabled))
  }
}

extension ObstacleExpectation: Decodable {
  enum CodingKeys: String, CodingKey, CaseIterable { case announcements, frames }

  /// Decodes strictly.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      announcements: try c.decodeIfPresent([ExpectedAnnouncement].self, forKey: .announcements),
      frames: try c.decodeIfPresent([ExpectedFrame].self, forKey: .frames) ?? [])
  }
}

extension ExpectedAnnouncement: Decodable {
  enum CodingKeys: String, CodingKey, CaseIterable { case time = "time_s", text }

  /// Decodes strictly.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(time: try decodeTime(c, .time, decoder), text: try c.decode(String.self, forKey: .text))
  }
}

extension ExpectedFrame: Decodable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case index, zone, category, announced, reason
    case matchedYOLO = "matched_yolo"
  }

  /// Decodes strictly.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(index: try c.decode(Int.self, forKey: .index))
    zone = try choice(c, .zone, decoder, Zone.self)
    category = try c.decodeIfPresent(String.self, forKey: .category)
    announced = try c.decodeIfPresent(Bool.self, forKey: .announced)
    reason = try choice(c, .reason, decoder, DecisionReason.self)
    matchedYOLO = try c.decodeIfPresent(Int.self, forKey: .matchedYOLO)
  }
}

/// A time in seconds, ≥ 0 and a whole number of milliseconds (the clock's tick).
private func decodeTime<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K, _ d: Decoder) throws -> Double {
  let t = try c.decode(Double.self, forKey: key)
  guard t.isFinite, t >= 0, t <= 86_400, abs(t * 1000 - (t * 1000).rounded()) < 1e-6 else {
    throw invalid(d, key, "time \(t) s is not on the clock: expected 0…86400 s in whole milliseconds")
  }
  return t
}

/// A confidence in 0…1.
private func decodeConfidence<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K, _ d: Decoder) throws -> Double {
  let v = try c.decode(Double.self, forKey: key)
  guard v.isFinite, (0...1).contains(v) else {
    throw invalid(d, key, "confidence \(v) is out of range: expected 0…1")
  }
  return v
}

/// A decoding error located at `key` under the decoder's path.
private func invalid<K: CodingKey>(_ d: Decoder, _ key: K, _ message: String) -> DecodingError {
  .dataCorrupted(.init(codingPath: d.codingPath + [key], debugDescription: message))
}

/// One of an enum's spellings, or nil when the key is absent; a wrong spelling
/// names every accepted one.
private func choice<K: CodingKey, E: RawRepresentable & CaseIterable>(
  _ c: KeyedDecodingContainer<K>, _ key: K, _ d: Decoder, _: E.Type
) throws -> E? where E.RawValue == String {
  guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
  guard let value = E(rawValue: text) else {
    let all = E.allCases.map(\.rawValue).joined(separator: ", ")
    throw invalid(d, key, "\(key.stringValue) '\(text)' is unknown: expected one of \(all)")
  }
  return value
}

/// A present value, or the standard missing-key error.
private func required<K: CodingKey, T>(_ value: T?, _ c: KeyedDecodingContainer<K>, _ key: K) throws -> T {
  guard let value else {
    throw DecodingError.keyNotFound(key, .init(codingPath: c.codingPath, debugDescription: "missing"))
  }
  return value
}
