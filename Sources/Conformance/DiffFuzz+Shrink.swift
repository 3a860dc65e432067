import Foundation
import Core
import Scoring

extension DiffFuzz {
  /// Shrinks a finding in a fixed order while it keeps its kind: the smallest
  /// diameter of the same face, then the point moved toward the line it straddles
  /// until it is at most 1 ulp (of the Double distance in spot units) from it,
  /// then as few significant digits as keep the kind.
  func shrink(_ f: Finding, _ session: Session, _ s: Semantics) throws(ConformanceError) -> Finding {
    guard let face = try? FaceCatalog.face(named: f.face), case .object(let o) = f.input,
      var d = o["diameter_cm"]?.number, var x = o["x_mm"]?.number, var y = o["y_mm"]?.number
    else { return f }
    var best = f
    func attempt(_ d2: Double, _ x2: Double, _ y2: Double) throws(ConformanceError) -> Bool {
      let input = Self.input(face.id, d2, x2, y2)
      let answer = try session.run([WireCase(id: "shrink", stage: .score, input: input)])[0]
      var ignored: [String: Int] = [:]
      guard let (kind, _, got, expected) = disagreement(input, answer, s, &ignored), kind == f.kind else { return false }
      best = Finding(kind: kind, face: face.id, input: input, expected: expected, got: got)
      d = d2; x = x2; y = y2
      return true
    }
    // 1. A smaller face of the same family: the same face at a smaller standard diameter, same spot-unit point.
    for smaller in face.diametersCm.sorted() where smaller < d {
      let k = face.spotRadiusMM(diameterCm: smaller) / face.spotRadiusMM(diameterCm: d)
      if try attempt(smaller, x * k, y * k) { break }
    }
    // 2. Toward the line: bisect between the point and its projection on the nearest line.
    let r = face.spotRadiusMM(diameterCm: d)
    let dist = ((x / r) * (x / r) + (y / r) * (y / r)).squareRoot()
    if dist > 0, let rho = face.zones.map(\.radius).min(by: { abs($0 - dist) < abs($1 - dist) }) {
      var near = (x * rho / dist, y * rho / dist)
      var far = (x, y)
      for _ in 0..<80 {
        let cur = ((far.0 / r) * (far.0 / r) + (far.1 / r) * (far.1 / r)).squareRoot()
        if abs(cur - rho) <= rho.ulp { break }
        let mid = ((near.0 + far.0) / 2, (near.1 + far.1) / 2)
        if mid == far || mid == near { break }
        if try attempt(d, mid.0, mid.1) { far = mid } else { near = mid }
      }
    }
    // 3. Fewer significant digits.
    for digits in 1...16 {
      let (rx, ry) = (Self.round(x, digits), Self.round(y, digits))
      if (rx, ry) == (x, y) { break }
      if try attempt(d, rx, ry) { break }
    }
    return best
  }

  /// `v` to `digits` significant decimal digits.
  static func round(_ v: Double, _ digits: Int) -> Double {
    guard v != 0, v.isFinite else { return v }
    let text = String(format: "%.\(digits - 1)e", v)
    return Double(text) ?? v
  }

  /// The findings as a vector suite (`score/findings.json`) the runner replays.
  package static func suite(_ findings: [Finding]) throws(ConformanceError) -> VectorSuite {
    var tests: [Vector] = []
    for (i, f) in findings.enumerated() {
      tests.append(try Vector.computed(id: "fuzz.\(String(format: "%03d", i + 1))", stage: .score, group: "findings",
                                       comment: "\(f.face): \(f.kind); the testee answered \(JSONValue.oneLine(f.got))",
                                       flags: ["fuzz-finding"], input: f.input))
    }
    let notes = ["fuzz-finding": "A disagreement found by `bullseye fuzz scoring --testee`, shrunk."]
    return VectorSuite(version: "fuzz", groups: [VectorGroup(stage: .score, group: "findings", notes: notes, tests: tests)])
  }

  /// Whether `dir` holds exactly what an earlier `fuzz scoring --testee --out` wrote
  /// (`manifest.json` of suite "fuzz" and `score/findings.json`, nothing else), the
  /// only folder the next one may replace: any other folder may be a user's vectors.
  package static func isEarlierExport(_ dir: String) -> Bool {
    let fm = FileManager.default
    guard (try? fm.contentsOfDirectory(atPath: dir))?.sorted() == ["manifest.json", "score"],
          (try? fm.contentsOfDirectory(atPath: dir + "/score")) == ["findings.json"],
          let data = fm.contents(atPath: dir + "/manifest.json"),
          case .object(let m)? = try? JSONParser.parse(bytes: Array(data)), m["suite_version"] == .string("fuzz"),
          case .object(let stages)? = m["stages"], Array(stages.keys) == ["score"] else { return false }
    return true
  }
}
