import Pipelines
import Scoring

/// The arrows a person marked on a photo scenario's picture: the reference
/// `verify` checks the run against when there is no synthesized truth.
///
/// Shape (YAML): `marks: {tolerance_px: 8, arrows: [{x: 412, y: 300, score: 9}, {x: 380, y: 288, score: 10, is_x: true}]}`;
/// positions in the upright picture's pixels, scores optional.
struct PhotoMarks: Sendable, Decodable {
  var tolerancePx: Double = 8
  var arrows: [Mark] = []

  /// One marked arrow.
  struct Mark: Sendable, Decodable {
    var x: Double, y: Double
    var score: Int?
    var isX: Bool
    enum CodingKeys: String, CodingKey, CaseIterable { case x, y, score, isX = "is_x" }
    init(from decoder: Decoder) throws {
      try decoder.rejectUnknownKeys(CodingKeys.self)
      let c = try decoder.container(keyedBy: CodingKeys.self)
      x = try c.decode(Double.self, forKey: .x); y = try c.decode(Double.self, forKey: .y)
      for (key, v) in [(CodingKeys.x, x), (.y, y)] where !(v.isFinite && v >= 0 && v <= 16384) {
        throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "mark \(key.stringValue) \(v) is out of range: expected 0...16384 pixels of the upright picture")
      }
      score = try c.decodeIfPresent(Int.self, forKey: .score)
      if let s = score, !(0...20).contains(s) {
        throw DecodingError.dataCorruptedError(forKey: .score, in: c, debugDescription: "mark score \(s) is out of range: expected 0...20 (0 is a miss)")
      }
      isX = try c.decodeIfPresent(Bool.self, forKey: .isX) ?? false
      if isX, score == nil {
        throw DecodingError.dataCorruptedError(forKey: .isX, in: c, debugDescription: "a mark with is_x: true needs its score")
      }
    }
  }

  enum CodingKeys: String, CodingKey, CaseIterable { case tolerancePx = "tolerance_px", arrows }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    tolerancePx = try c.decodeIfPresent(Double.self, forKey: .tolerancePx) ?? 8
    guard tolerancePx.isFinite, tolerancePx > 0, tolerancePx <= 200 else {
      throw DecodingError.dataCorruptedError(forKey: .tolerancePx, in: c, debugDescription: "marks tolerance_px \(tolerancePx) is out of range: expected (0, 200] pixels")
    }
    arrows = try c.decodeIfPresent([Mark].self, forKey: .arrows) ?? []
  }

  /// The first mark whose score the face cannot give, as a sentence naming
  /// the mark, its score and the face's scores; nil when every mark fits.
  func problem(on face: Face) -> String? {
    let xScores = face.xScores
    for (i, m) in arrows.enumerated() {
      guard let s = m.score else { continue }
      if !face.possibleScores.contains(s) {
        return "mark \(i) has score \(s), which face \(face.id) does not give: expected one of \(face.possibleScoresListed) (0 is a miss)"
      }
      if m.isX, !xScores.contains(s) {
        return xScores.isEmpty
          ? "mark \(i) has is_x: true, but face \(face.id) has no X ring"
          : "mark \(i) has is_x: true with score \(s): an X on face \(face.id) scores \(xScores.sorted().map(String.init).joined(separator: ", "))"
      }
    }
    return nil
  }

  /// The marks as the gate's references, in the frame the run saw: `toFrame`
  /// maps an upright-picture point there (the identity unless orientation is ignored).
  func references(_ toFrame: (Double, Double) -> (Double, Double)) -> [TruthGate.Reference] {
    arrows.enumerated().map { i, m in
      let p = toFrame(m.x, m.y)
      let want = m.score.map { s in TruthGate.Want(score: s, isX: m.isX, label: m.isX ? "X" : s == 0 ? "M" : "\(s)") }
      return TruthGate.Reference(x: p.0, y: p.1, want: want, name: "mark \(i) at (\(m.x), \(m.y))")
    }
  }

  /// The run against the marks, with the truth gate's rules and the scenario's declarations.
  func check(_ s: ArcheryScenario, run: RunResult, profile: String, toFrame: (Double, Double) -> (Double, Double)) -> (failures: [String], declared: [String]) {
    TruthGate.check(references(toFrame), radius: tolerancePx, declared: s.expectWrong[profile] ?? [], run: run, profile: profile, what: "marks")
  }
}
