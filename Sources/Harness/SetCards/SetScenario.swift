import Core
import Imaging
import Synth
import SetCards
/// A Set scenario: an optional synthesized table, scripted detections and
/// classifications standing in for the models, and what the run must show.
public struct SetScenario: Sendable, Decodable {
  /// Unique id (default: the file name).
  var id: String?
  /// Free text.
  var description: String?
  /// The table to synthesize; without it the photo is a blank `size` canvas.
  var table: SetTableSpec?
  /// Canvas size when there is no table.
  var size: ImageSize?
  /// Scripted raw boxes in image pixels, each with its classification.
  var detections: [ScriptedDetection]?
  /// Detections and classifications taken from the table's ground truth.
  var oracle: ScenarioOracle?
  /// Pack the scripted boxes into a synthetic `[1, 5, 8400]` tensor and decode it.
  var viaTensor: Bool
  /// Threshold overrides.
  var config: PipelineConfig
  /// What the run must show.
  var expect: SetExpectation?
  /// How the overlays name cards (default: the seed's shorthand, as the goldens pin).
  package var labels: SetLabelStyle

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, kind, description, table, size, detections, oracle, config, expect, labels
    case viaTensor = "via_tensor"
  }

  /// Strict decoding; `kind` must be `setcards`.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let kind = try c.decode(String.self, forKey: .kind)
    guard kind == "setcards" else {
      throw DecodingError.dataCorruptedError(forKey: .kind, in: c,
        debugDescription: "kind '\(kind)' is not a Set scenario: expected setcards")
    }
    id = try c.decodeIfPresent(String.self, forKey: .id)
    description = try c.decodeIfPresent(String.self, forKey: .description)
    table = try c.decodeIfPresent(SetTableSpec.self, forKey: .table)
    size = try c.decodeIfPresent(ImageSize.self, forKey: .size)
    detections = try c.decodeIfPresent([ScriptedDetection].self, forKey: .detections)
    oracle = try c.decodeIfPresent(ScenarioOracle.self, forKey: .oracle)
    viaTensor = try c.decodeIfPresent(Bool.self, forKey: .viaTensor) ?? false
    config = try c.decodeIfPresent(ConfigSpec.self, forKey: .config)?.config ?? PipelineConfig()
    expect = try c.decodeIfPresent(SetExpectation.self, forKey: .expect)
    if let word = try c.decodeIfPresent(String.self, forKey: .labels) {
      guard let style = SetLabelStyle(rawValue: word) else {
        throw DecodingError.dataCorruptedError(forKey: .labels, in: c,
          debugDescription: "labels '\(word)' is unknown: expected one of seed, english")
      }
      labels = style
    } else {
      labels = .seed
    }
    if detections == nil, oracle == nil {
      throw DecodingError.dataCorruptedError(forKey: .detections, in: c,
        debugDescription: "scenario has neither 'detections' nor 'oracle': expected one of them")
    }
    if oracle != nil, table == nil {
      throw DecodingError.dataCorruptedError(forKey: .oracle, in: c,
        debugDescription: "'oracle' needs a 'table' to take the truth from")
    }
  }
}

/// One scripted raw box and how the classifier "sees" it.
struct ScriptedDetection: Sendable, Hashable, Decodable {
  /// `[x1, y1, x2, y2]` in image pixels.
  var box: Box
  /// Detector score.
  var confidence: Double
  /// The scripted classification.
  var classification: ScriptedClass

  enum CodingKeys: String, CodingKey, CaseIterable {
    case box, confidence, card, logits, probabilities
    case classConfidence = "class_confidence"
  }

  /// Strict decoding: exactly one of `card` (with `class_confidence`, one number
  /// or four), `logits` (12) or `probabilities` (12).
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let xyxy = try c.decode([Double].self, forKey: .box)
    guard let b = Box(xyxy), b.width > 0, b.height > 0 else {
      throw DecodingError.dataCorruptedError(forKey: .box, in: c,
        debugDescription: "box \(xyxy) is not [x1, y1, x2, y2] with x2 > x1 and y2 > y1")
    }
    box = b
    confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 0.95
    let card = try c.decodeIfPresent(String.self, forKey: .card)
    let logits = try c.decodeIfPresent([Double].self, forKey: .logits)
    let probs = try c.decodeIfPresent([Double].self, forKey: .probabilities)
    guard [card != nil, logits != nil, probs != nil].filter({ $0 }).count == 1 else {
      throw DecodingError.dataCorruptedError(forKey: .card, in: c,
        debugDescription: "detection needs exactly one of 'card', 'logits', 'probabilities'")
    }
    if let card {
      guard let parsed = Card(parsing: card) else {
        throw DecodingError.dataCorruptedError(forKey: .card, in: c,
          debugDescription: "card '\(card)' is not NCSF digits 0-2 or a label like 2实红菱")
      }
      let conf: [Double]
      if let one = try? c.decodeIfPresent(Double.self, forKey: .classConfidence) {
        conf = [one, one, one, one]
      } else {
        conf = try c.decodeIfPresent([Double].self, forKey: .classConfidence) ?? [0.97, 0.97, 0.97, 0.97]
      }
      classification = .card(parsed, confidences: conf)
    } else if let logits {
      classification = .logits(logits)
    } else {
      classification = .probabilities(probs!)
    }
  }
}

/// Detections from the table's truth: every card box with these confidences.
struct ScenarioOracle: Sendable, Hashable, Decodable {
  /// Detector score given to every truth box.
  var detectionConfidence: Double
  /// Class confidence given to every head of every card.
  var classConfidence: Double

  enum CodingKeys: String, CodingKey, CaseIterable {
    case detectionConfidence = "detection_confidence", classConfidence = "class_confidence"
  }

  /// Strict decoding; both default to 0.95.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    detectionConfidence = try c.decodeIfPresent(Double.self, forKey: .detectionConfidence) ?? 0.95
    classConfidence = try c.decodeIfPresent(Double.self, forKey: .classConfidence) ?? 0.95
  }
}

/// Threshold overrides in a scenario (`detection`, `nms_iou`, `merged_ratio`, `class`).
struct ConfigSpec: Decodable {
  var config = PipelineConfig()
  enum CodingKeys: String, CodingKey, CaseIterable {
    case detection, nmsIoU = "nms_iou", mergedRatio = "merged_ratio", classThreshold = "class"
  }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let v = try c.decodeIfPresent(Double.self, forKey: .detection) { config.detectionThreshold = v }
    if let v = try c.decodeIfPresent(Double.self, forKey: .nmsIoU) { config.nmsIoUThreshold = v }
    if let v = try c.decodeIfPresent(Double.self, forKey: .mergedRatio) { config.mergedAreaRatio = v }
    if let v = try c.decodeIfPresent(Double.self, forKey: .classThreshold) { config.classThreshold = v }
  }
}

/// What a scenario run must show; every field is optional.
struct SetExpectation: Sendable, Hashable, Decodable {
  /// Cards after NMS and the merged filter.
  var cards: Int?
  /// Cards that joined Set finding.
  var included: Int?
  /// Number of Sets.
  var sets: Int?
  /// The exact Sets, as index triples into the result's cards.
  var setList: [[Int]]?
  /// The header of the first overlay.
  var header: String?
  /// The Sets, compared as card triples, equal the table truth's.
  var setsMatchTruth: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case cards, included, sets, header
    case setList = "set_list", setsMatchTruth = "sets_match_truth"
  }

  /// Strict decoding.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    cards = try c.decodeIfPresent(Int.self, forKey: .cards)
    included = try c.decodeIfPresent(Int.self, forKey: .included)
    sets = try c.decodeIfPresent(Int.self, forKey: .sets)
    setList = try c.decodeIfPresent([[Int]].self, forKey: .setList)
    header = try c.decodeIfPresent(String.self, forKey: .header)
    setsMatchTruth = try c.decodeIfPresent(Bool.self, forKey: .setsMatchTruth)
  }
}

extension Box: Decodable {
  /// Decodes `[x1, y1, x2, y2]`.
  public init(from decoder: Decoder) throws {
    let v = try decoder.singleValueContainer().decode([Double].self)
    guard let b = Box(v) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
        debugDescription: "box has \(v.count) numbers: expected [x1, y1, x2, y2]"))
    }
    self = b
  }
}
