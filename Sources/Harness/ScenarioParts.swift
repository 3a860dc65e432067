import Pipelines
import Adjustment
import Core
import Persistence
import Scoring

/// A gesture script: drags as cumulative translations, taps, buttons.
///
/// Shape (YAML): `{view_radius: 150, steps: [...]}` or just the list of steps;
/// a step is `confirm`, `cancel`, `reset`, `toggle_placement`, `manual_entry`,
/// `{drag: ARROW, translations: [[dx, dy], …], end: true}`, `{tap: [x, y]}` or
/// `{detection_error: "message"}`. Without a confirm or cancel step, the run
/// confirms at the end.
public struct GestureScript: Sendable, Decodable {
  public var viewRadius: Double = 150
  var steps: [Gesture] = []
  public init() {}

  enum CodingKeys: String, CodingKey, CaseIterable { case viewRadius = "view_radius", steps }

  public init(from decoder: Decoder) throws {
    if (try? decoder.unkeyedContainer()) != nil {
      steps = try decoder.singleValueContainer().decode([Step].self).flatMap(\.gestures)
      return
    }
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    viewRadius = try c.decodeIfPresent(Double.self, forKey: .viewRadius) ?? 150
    guard viewRadius.isFinite, viewRadius > 0, viewRadius <= 10_000 else {
      throw DecodingError.dataCorruptedError(forKey: .viewRadius, in: c, debugDescription: "view_radius \(viewRadius) is out of range: expected (0, 10000] points")
    }
    steps = try (c.decodeIfPresent([Step].self, forKey: .steps) ?? []).flatMap(\.gestures)
  }

  /// The steps, with a final confirm when the script has neither confirm nor cancel.
  public var effectiveSteps: [Gesture] {
    let ends = steps.contains { if case .confirm = $0 { return true }; if case .cancel = $0 { return true }; return false }
    return ends ? steps : steps + [.confirm]
  }

  struct Step: Decodable {
    let gestures: [Gesture]
    enum Keys: String, CodingKey, CaseIterable { case drag, translations, end, tap, detectionError = "detection_error" }
    init(from decoder: Decoder) throws {
      if let word = try? decoder.singleValueContainer().decode(String.self) {
        switch word {
        case "confirm": gestures = [.confirm]
        case "cancel": gestures = [.cancel]
        case "reset": gestures = [.reset]
        case "toggle_placement": gestures = [.togglePlacement]
        case "manual_entry": gestures = [.manualEntry]
        default:
          throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
            "gesture '\(word)' is unknown: expected confirm, cancel, reset, toggle_placement, manual_entry, or a drag/tap/detection_error map"))
        }
        return
      }
      try decoder.rejectUnknownKeys(Keys.self)
      let c = try decoder.container(keyedBy: Keys.self)
      if let arrow = try c.decodeIfPresent(Int.self, forKey: .drag) {
        guard arrow >= 0 else {
          throw DecodingError.dataCorruptedError(forKey: .drag, in: c, debugDescription: "drag \(arrow) is not an arrow index: expected 0 or more")
        }
        let ts = try c.decode([[Double]].self, forKey: .translations)
        guard ts.count <= 10_000 else {
          throw DecodingError.dataCorruptedError(forKey: .translations, in: c, debugDescription: "\(ts.count) translations: expected at most 10000 in one drag")
        }
        var g: [Gesture] = []
        for t in ts {
          guard t.count == 2, t.allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else {
            throw DecodingError.dataCorruptedError(forKey: .translations, in: c, debugDescription: "translation \(t) is not a finite [dx, dy] pair in points")
          }
          g.append(.dragChanged(arrow: arrow, translation: Double2(t[0], t[1])))
        }
        if try c.decodeIfPresent(Bool.self, forKey: .end) ?? true { g.append(.dragEnded(arrow: arrow)) }
        gestures = g
      } else if let p = try c.decodeIfPresent([Double].self, forKey: .tap) {
        guard p.count == 2, p.allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else {
          throw DecodingError.dataCorruptedError(forKey: .tap, in: c, debugDescription: "tap \(p) is not a finite [x, y] pair")
        }
        gestures = [.tap(Double2(p[0], p[1]))]
      } else if let m = try c.decodeIfPresent(String.self, forKey: .detectionError) {
        gestures = [.detectionError(m)]
      } else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a gesture map needs drag, tap or detection_error"))
      }
    }
  }
}

/// Persistence steps of a scenario: what is already in the database, how this
/// end is saved, and whether the app crashes part-way.
struct PersistSpec: Sendable, Decodable {
  /// nil: the profile's (`ios`: dropped, as seed 000's camera flow; seed 002's tap path keeps them).
  var coordinates: CoordinatePolicy?
  var upsert: UpsertSemantics = .update
  var end: Int = 1
  var prior: [PriorEnd] = []
  var resume: ResumeSemantics = .seed002
  /// Simulated crash: only the first `crashAfter` arrows of this end commit.
  var crashAfter: Int?
  /// Start from a version-36 database and migrate it.
  var fromVersion36: Bool = false

  enum CodingKeys: String, CodingKey, CaseIterable {
    case coordinates, upsert, end, prior, resume
    case crashAfter = "crash_after", fromVersion36 = "from_version_36"
  }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    coordinates = try c.decodeIfPresent(CoordinatePolicy.self, forKey: .coordinates)
    upsert = try c.decodeIfPresent(UpsertSemantics.self, forKey: .upsert) ?? .update
    end = try c.decodeIfPresent(Int.self, forKey: .end) ?? 1
    guard (1...1000).contains(end) else {
      throw DecodingError.dataCorruptedError(forKey: .end, in: c, debugDescription: "end \(end) is out of range: expected 1...1000")
    }
    prior = try c.decodeIfPresent([PriorEnd].self, forKey: .prior) ?? []
    resume = try c.decodeIfPresent(ResumeSemantics.self, forKey: .resume) ?? .seed002
    crashAfter = try c.decodeIfPresent(Int.self, forKey: .crashAfter)
    if let n = crashAfter, !(0...1000).contains(n) {
      throw DecodingError.dataCorruptedError(forKey: .crashAfter, in: c, debugDescription: "crash_after \(n) is out of range: expected 0...1000 arrows")
    }
    var seen = Set<Int>()
    for e in prior where !seen.insert(e.end).inserted {
      throw DecodingError.dataCorruptedError(forKey: .prior, in: c, debugDescription: "prior end \(e.end) is given twice: expected each end once")
    }
    fromVersion36 = try c.decodeIfPresent(Bool.self, forKey: .fromVersion36) ?? false
  }

  /// An end saved before this run: arrows as `[score, is_x, x, y]` (x, y may be null).
  struct PriorEnd: Sendable, Decodable {
    var end: Int
    var arrows: [[JSONScalar]]
    var complete: Bool
    enum CodingKeys: String, CodingKey, CaseIterable { case end, arrows, complete }
    init(from decoder: Decoder) throws {
      try decoder.rejectUnknownKeys(CodingKeys.self)
      let c = try decoder.container(keyedBy: CodingKeys.self)
      end = try c.decode(Int.self, forKey: .end)
      guard (1...1000).contains(end) else {
        throw DecodingError.dataCorruptedError(forKey: .end, in: c, debugDescription: "prior end \(end) is out of range: expected 1...1000")
      }
      arrows = try c.decode([[JSONScalar]].self, forKey: .arrows)
      for (i, a) in arrows.enumerated() {
        // [score, is_x, x, y]: a whole score, a flag, coordinates finite or null.
        let why = "prior end \(end) arrow \(i + 1) is [\(a.map(\.text).joined(separator: ", "))]: expected [score, is_x, x, y] with a whole score 0...100, true or false, and finite x, y (or null)"
        guard a.count == 4, let score = a[0].double, score.rounded() == score, (0...100).contains(score), a[1].bool != nil,
              a[2...].allSatisfy({ $0 == .null || ($0.double?.isFinite ?? false) }) else {
          throw DecodingError.dataCorruptedError(forKey: .arrows, in: c, debugDescription: why)
        }
      }
      complete = try c.decodeIfPresent(Bool.self, forKey: .complete) ?? true
    }
  }
}

/// A number, bool or null inside a YAML list.
enum JSONScalar: Sendable, Decodable, Hashable {
  case number(Double), bool(Bool), null
  init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) } else { self = .number(try c.decode(Double.self)) }
  }
  var double: Double? { if case .number(let d) = self { return d }; return nil }
  var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
  /// As the scenario spells it, for messages.
  var text: String {
    switch self {
    case .number(let d): return d.description
    case .bool(let b): return String(b)
    case .null: return "null"
    }
  }
}

/// Explicit expectations checked besides the goldens (every run profile).
struct Expectations: Sendable, Decodable {
  var detections: Int?, confirmed: Int?, endTotal: Int?
  var scores: [Int]?, x: [Bool]?, confirmedScores: [Int]?, wasAdjusted: [Bool]?
  var placementMode: Bool?, extraWarning: Bool?, error: Bool?
  var rescoreChanges: Int?, resumeArrowNumber: Int?, resumeEnd: Int?
  enum CodingKeys: String, CodingKey, CaseIterable {
    case detections, confirmed, scores, x, error
    case endTotal = "end_total", confirmedScores = "confirmed_scores", wasAdjusted = "was_adjusted"
    case placementMode = "placement_mode", extraWarning = "extra_warning"
    case rescoreChanges = "rescore_changes", resumeArrowNumber = "resume_arrow_number", resumeEnd = "resume_end"
  }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    detections = try c.decodeIfPresent(Int.self, forKey: .detections)
    confirmed = try c.decodeIfPresent(Int.self, forKey: .confirmed)
    endTotal = try c.decodeIfPresent(Int.self, forKey: .endTotal)
    scores = try c.decodeIfPresent([Int].self, forKey: .scores)
    x = try c.decodeIfPresent([Bool].self, forKey: .x)
    confirmedScores = try c.decodeIfPresent([Int].self, forKey: .confirmedScores)
    wasAdjusted = try c.decodeIfPresent([Bool].self, forKey: .wasAdjusted)
    placementMode = try c.decodeIfPresent(Bool.self, forKey: .placementMode)
    extraWarning = try c.decodeIfPresent(Bool.self, forKey: .extraWarning)
    error = try c.decodeIfPresent(Bool.self, forKey: .error)
    rescoreChanges = try c.decodeIfPresent(Int.self, forKey: .rescoreChanges)
    resumeArrowNumber = try c.decodeIfPresent(Int.self, forKey: .resumeArrowNumber)
    resumeEnd = try c.decodeIfPresent(Int.self, forKey: .resumeEnd)
    for (key, v) in [(CodingKeys.detections, detections), (.confirmed, confirmed), (.endTotal, endTotal),
                     (.rescoreChanges, rescoreChanges), (.resumeArrowNumber, resumeArrowNumber), (.resumeEnd, resumeEnd)] {
      if let v, v < 0 {
        throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expect \(key.stringValue) \(v) is negative: expected 0 or more")
      }
    }
  }

  /// The first expected score the face cannot give, as a sentence; nil when all can.
  func problem(on face: Face) -> String? {
    for (key, list) in [("scores", scores), ("confirmed_scores", confirmedScores)] {
      if let bad = list?.first(where: { !face.possibleScores.contains($0) }) {
        return "expect \(key) holds \(bad), which face \(face.id) does not give: expected one of \(face.possibleScoresListed) (0 is a miss)"
      }
    }
    return nil
  }
}
