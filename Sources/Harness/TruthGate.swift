import Pipelines
import Scoring
import Synth

/// A difference a scenario declares between a run and the truth, with its reason.
struct DeclaredWrong: Sendable, Hashable, Decodable {
  /// A truth arrow (index in the truth file's `arrows`) scored or flagged wrong.
  var arrow: Int?
  /// How many truth arrows no detection matches.
  var missed: Int?
  /// How many detections match no truth arrow.
  var extra: Int?
  /// The confirmed end total differs from the truth's.
  var total: Bool?
  /// Why: shown in the report, required.
  var reason: String

  enum CodingKeys: String, CodingKey, CaseIterable { case arrow, missed, extra, total, reason }
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    arrow = try c.decodeIfPresent(Int.self, forKey: .arrow)
    missed = try c.decodeIfPresent(Int.self, forKey: .missed)
    extra = try c.decodeIfPresent(Int.self, forKey: .extra)
    total = try c.decodeIfPresent(Bool.self, forKey: .total)
    reason = try c.decode(String.self, forKey: .reason)
    let named = [arrow != nil, missed != nil, extra != nil, total != nil].filter { $0 }.count
    guard named == 1 else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
        "an expect_wrong entry names exactly one of arrow, missed, extra, total (with a reason)"))
    }
    for (key, v) in [(CodingKeys.arrow, arrow), (.missed, missed), (.extra, extra)] {
      if let v, v < 0 {
        throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expect_wrong \(key.stringValue) \(v) is negative: expected 0 or more")
      }
    }
    guard !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw DecodingError.dataCorruptedError(forKey: .reason, in: c, debugDescription: "an expect_wrong entry needs a reason")
    }
  }
}

/// The truth gate: a run with a perfect or model detector is compared with the
/// ground truth the synthesizer stored, independently of its golden, so a golden
/// can never pin a wrong score unless the scenario says so (and why).
enum TruthGate {
  /// Matching radius in photo pixels.
  static let matchPixels = 8.0

  /// True when the gate applies: the detector is the truth or a model, and no
  /// gesture other than confirm edits the end (taps, drags and scripted boxes keep their own `expect`).
  static func applies(_ s: ArcheryScenario) -> Bool {
    guard ["truth", "model"].contains(s.detector.source), s.detector.boxes.isEmpty else { return false }
    return s.gestures.effectiveSteps.allSatisfy { if case .confirm = $0 { return true } else { return false } }
  }

  /// One arrow the run is checked against: where it is in the photo's pixels,
  /// the score it should get (nil: position only) and how a failure names it.
  struct Reference {
    let x: Double, y: Double
    let want: Want?
    let name: String
  }

  /// The score a reference arrow should get.
  struct Want {
    let score: Int, isX: Bool, label: String
  }

  /// Differences between the run and the truth, each a line naming what differs.
  /// Declared ones are checked too: a declared difference that does not occur is an unexpected pass.
  static func check(_ s: ArcheryScenario, truth: GroundTruth, run: RunResult, profile: String) -> (failures: [String], declared: [String]) {
    let face = truth.scene.face
    let refs = truth.arrows.enumerated().map { t, a in
      let spot: SpotAssignment = s.spots == .sequential ? .index(t % face.spots.count) : .nearest
      let want = Scorer.scoreUnchecked(ScoreRequest(face: face, x: a.normalizedX, y: a.normalizedY, rule: s.rule,
                                                    diameterCm: truth.scene.diameterCm, arrowMM: run.request.arrowMM, spot: spot))
      return Reference(x: a.pixelX, y: a.pixelY, want: Want(score: want.score, isX: want.isX, label: want.label), name: "arrow \(t) (truth at \(r3(a.normalizedX)), \(r3(a.normalizedY)))")
    }
    return check(refs, radius: matchPixels, declared: s.expectWrong[profile] ?? [], run: run, profile: profile, what: "truth")
  }

  /// The gate against `refs`, matching within `radius` pixels; `what` names the
  /// reference in messages ("truth", "marks").
  static func check(_ refs: [Reference], radius: Double, declared: [DeclaredWrong], run: RunResult, profile: String,
                    what source: String) -> (failures: [String], declared: [String]) {
    let pairs = match(refs.map { ($0.x, $0.y) }, run, radius: radius)
    var wrongArrows: [Int: String] = [:]
    var truthTotal = 0
    for (t, r) in refs.enumerated() {
      truthTotal += r.want?.score ?? 0
      guard let d = pairs[t], let want = r.want else { continue }
      let got = run.detections[d].score
      if got.score != want.score || got.isX != want.isX {
        wrongArrows[t] = "\(r.name): expected \(want.label), got \(got.label)"
      }
    }
    let missed = refs.count - pairs.count
    let extra = run.detections.count - pairs.count
    let confirmedTotal = run.confirmed?.reduce(0) { $0 + $1.score }
    // A total is only known when every reference says its score.
    let totalWrong = refs.allSatisfy { $0.want != nil } ? confirmedTotal.map { $0 != truthTotal } ?? false : false

    var failures: [String] = []
    var shown: [String] = []
    let declaredArrows = Dictionary(declared.compactMap { d in d.arrow.map { ($0, d.reason) } }, uniquingKeysWith: { a, _ in a })
    for (t, line) in wrongArrows.sorted(by: { $0.key < $1.key }) {
      if let why = declaredArrows[t] { shown.append("\(profile): \(line) — declared: \(why)") } else { failures.append("\(profile): \(line)") }
    }
    for (t, why) in declaredArrows.sorted(by: { $0.key < $1.key }) where wrongArrows[t] == nil {
      guard refs.indices.contains(t) else {
        failures.append("\(profile): expect_wrong names arrow \(t): expected " +
                        (refs.isEmpty ? "none, there are no arrows in the \(source)" : "an index from 0 to \(refs.count - 1) (\(refs.count) arrows in the \(source))"))
        continue
      }
      failures.append("\(profile): arrow \(t) is declared wrong (\(why)) but now scores as the \(source): an unexpected pass")
    }
    func count(_ what: String, _ actual: Int, _ want: Int?, _ why: String?) {
      let w = want ?? 0
      if actual == w {
        if actual > 0, let why { shown.append("\(profile): \(actual) \(what) — declared: \(why)") }
      } else if want == nil {
        failures.append("\(profile): \(actual) \(what) (\(source) \(refs.count) arrows, \(run.detections.count) detections)")
      } else {
        failures.append("\(profile): \(actual) \(what), declared \(w) (\(why ?? "")): \(actual < w ? "an unexpected pass" : "more than declared")")
      }
    }
    let m = declared.first { $0.missed != nil }, x = declared.first { $0.extra != nil }
    count("arrows missed", missed, m?.missed, m?.reason)
    count("extra detections", extra, x?.extra, x?.reason)
    let t = declared.first { $0.total != nil }
    if totalWrong {
      let line = "end total: expected \(truthTotal), got \(confirmedTotal ?? 0)"
      if let t { shown.append("\(profile): \(line) — declared: \(t.reason)") } else { failures.append("\(profile): \(line)") }
    } else if let t, t.total == true {
      failures.append("\(profile): the end total is declared wrong (\(t.reason)) but matches the \(source): an unexpected pass")
    }
    return (failures, shown)
  }

  /// Detections matched to reference arrows one to one, closest pairs first, within `radius`:
  /// reference index → detection index.
  static func match(_ refs: [(x: Double, y: Double)], _ run: RunResult, radius: Double) -> [Int: Int] {
    var candidates: [(Double, Int, Int)] = []
    for (t, a) in refs.enumerated() {
      for (d, det) in run.detections.enumerated() {
        let dx = Double(det.pixelX) - a.x, dy = Double(det.pixelY) - a.y
        let dist = (dx * dx + dy * dy).squareRoot()
        if dist <= radius { candidates.append((dist, t, d)) }
      }
    }
    candidates.sort { $0.0 != $1.0 ? $0.0 < $1.0 : ($0.1, $0.2) < ($1.1, $1.2) }
    var byTruth: [Int: Int] = [:], used = Set<Int>()
    for (_, t, d) in candidates where byTruth[t] == nil && !used.contains(d) {
      byTruth[t] = d; used.insert(d)
    }
    return byTruth
  }

  static func r3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
