import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Differential fuzzing of a testee's `score` stage: the boundary-seeking
/// points of `bullseye fuzz scoring`, sent through the protocol and graded
/// under the semantics the testee declared; each disagreement is shrunk and
/// becomes a vector the runner can replay.
package struct DiffFuzz {
  /// One disagreement, shrunk.
  package struct Finding: Sendable {
    /// What differs (`points`, `x`, `points+x`) and on which line (`ring 9`, `x-edge`).
    package let kind: String
    package let face: String
    package let input: JSONValue
    package let expected: JSONValue
    package let got: JSONValue
  }

  /// What a campaign found.
  package struct Result: Sendable {
    package let checks: Int
    package let seconds: Double
    package let findings: [Finding]
    /// Answers that were not answers (errored cases), by reason's first words.
    package let errored: [String: Int]
    /// Why the campaign stopped early (the testee could not be kept running), if it did.
    package let aborted: String?
    /// Cases the testee answered `skipped`: not checked.
    package var skipped = 0
    package var checksPerSecond: Double { seconds > 0 ? Double(checks) / seconds : 0 }
  }

  package var faces: [Face] = FaceCatalog.all
  package var cases: Int? = 100_000
  package var seconds: Double?
  package var seed: UInt64 = 1
  package init() {}

  /// Runs the campaign against an open session.
  package func run(_ session: Session, declared: Semantics) throws(ConformanceError) -> Result {
    let semantics = Grading.effective(declared)
    var rng = SeededGenerator(seed: seed)
    var found: [String: Finding] = [:]
    var order: [String] = []
    var errored: [String: Int] = [:]
    var checks = 0, skipped = 0
    let start = Clock.now()
    let chunk = 4096
    while true {
      if let n = cases, checks >= n { break }
      if let s = seconds, Clock.now() - start >= s { break }
      let count = cases.map { min(chunk, $0 - checks) } ?? chunk
      var inputs: [JSONValue] = []
      inputs.reserveCapacity(count)
      for i in 0..<count { inputs.append(point(faces[(checks + i) % faces.count], &rng)) }
      do {
        let answers = try session.run(inputs.enumerated().map { WireCase(id: "fuzz.\(checks + $0.offset)", stage: .score, input: $0.element) })
        checks += count
        for (input, answer) in zip(inputs, answers) {
          if case .skipped = answer { skipped += 1 }
          guard let (kind, face, got, expected) = disagreement(input, answer, semantics, &errored) else { continue }
          let key = "\(face) \(kind)"
          if found[key] == nil {
            let raw = Finding(kind: kind, face: face, input: input, expected: expected, got: got)
            found[key] = raw
            order.append(key)
            found[key] = try shrink(raw, session, semantics)
          }
        }
      } catch {
        // The testee could not be kept running: keep what was found so far.
        return Result(checks: checks, seconds: Clock.now() - start, findings: order.sorted().map { found[$0]! }, errored: errored,
                      aborted: error.description, skipped: skipped)
      }
    }
    return Result(checks: checks, seconds: Clock.now() - start, findings: order.sorted().map { found[$0]! }, errored: errored, aborted: nil,
                  skipped: skipped)
  }

  /// A point near a ring or X line of `face` (or a random one), in mm from the spot centre.
  func point(_ face: Face, _ g: inout SeededGenerator) -> JSONValue {
    let diameter = g.pick(face.diametersCm)
    let big = face.spotRadiusMM(diameterCm: diameter)
    let theta = g.chance(0.5) ? Double(g.int(0...3)) * .pi / 2 : g.uniform(0...(2 * .pi))
    var r: Double
    if g.chance(0.9) {
      let z = g.pick(face.zones).radius
      let shaft = 5.5 / 2 / big
      r = g.pick([z.nextDown, z, z.nextUp, Double(Float(z).nextDown), Double(Float(z)), Double(Float(z).nextUp), z + shaft, (z + shaft).nextUp])
    } else {
      r = g.uniform(0...1.2)
    }
    if g.chance(0.3) { r = r * (1 + Double(g.int(-8...8)) * Double.ulpOfOne) }
    return Self.input(face.id, diameter, r * big * cos(theta), r * big * sin(theta))
  }

  static func input(_ face: String, _ d: Double, _ x: Double, _ y: Double) -> JSONValue {
    .object(["face": .string(face), "diameter_cm": .double(d), "x_mm": .double(x), "y_mm": .double(y), "arrow_diameter_mm": .double(5.5)])
  }

  /// The kind of disagreement, or nil when the answer agrees (or is no answer).
  func disagreement(_ input: JSONValue, _ a: Answer, _ s: Semantics, _ errored: inout [String: Int])
    -> (String, String, JSONValue, JSONValue)?
  {
    guard case .object(let f) = input, case .string(let face)? = f["face"] else { return nil }
    guard let expected = try? Oracle.answer(.score, input, s) else { return nil }
    switch a {
    case .skipped: return nil
    case .errored(let why):
      errored[String(why.prefix(40)), default: 0] += 1
      return nil
    case .output(let got):
      if let p = Grader.shapeProblem(expected: expected, got: got) { errored[String(p.prefix(40)), default: 0] += 1; return nil }
      guard case .object(let e) = expected, case .object(let g) = got else { return nil }
      let points = e["points"] != g["points"], x = e["x"] != g["x"]
      guard points || x else { return nil }
      let what = points && x ? "points+x" : points ? "points" : "x"
      return ("\(what) on \(line(face: face, input: f))", face, got, expected)
    }
  }

  /// The line a point is nearest to: `x-edge` or `ring N` (N = the zone's label).
  func line(face name: String, input f: [String: JSONValue]) -> String {
    guard let face = try? FaceCatalog.face(named: name), let d = spotDistance(face, f) else { return "?" }
    let zone = face.zones.min { abs($0.radius - d) < abs($1.radius - d) }!
    return zone.isX ? "x-edge" : "ring \(zone.label)"
  }

  func spotDistance(_ face: Face, _ f: [String: JSONValue]) -> Double? {
    guard let d = f["diameter_cm"]?.number, let x = f["x_mm"]?.number, let y = f["y_mm"]?.number else { return nil }
    let r = face.spotRadiusMM(diameterCm: d)
    return ((x / r) * (x / r) + (y / r) * (y / r)).squareRoot()
  }
}
