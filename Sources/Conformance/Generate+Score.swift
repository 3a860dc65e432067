import Core
import Scoring

/// The built-in `score` cases: every face, every ring line at and ±1 ulp in
/// Double and in Float32, the X edge, line-cutter touches, the centre, far
/// misses and random points. One group (file) per face.
enum ScoreCases {
  static let notes: [String: String] = [
    "ring-line": "The point is on, or within an ulp of, a ring's outer edge.",
    "x-edge": "The point is on, or within an ulp of, the X ring's edge.",
    "line-cutter-touch": "The shaft's edge touches the ring line: distance = ring radius + shaft radius.",
    "ulp-edge": "The exact distance lies within 4 ulp (of a Double) of a boundary: two correct implementations in different arithmetic may answer differently.",
    "float32-step": "The spot-unit coordinate is a Float32 neighbour of the ring radius: Float32 and Double arithmetic part here.",
    "double-step": "The millimetre coordinate is a Double neighbour of the ring line.",
    "centre": "The centre of the spot.",
    "far-miss": "Far outside the scoring area.",
    "random": "A random point on or near the face.",
    "multi-spot": "A face with several spots; the point is relative to one spot's centre.",
    "arrow-size": "A shaft diameter other than 5.5 mm.",
  ]

  struct Case { let id: String; let comment: String; let flags: [String]; let x: Double; let y: Double; let arrow: Double }

  static func groups() throws(ConformanceError) -> [VectorGroup] {
    var out: [VectorGroup] = []
    for face in FaceCatalog.all {
      var tests: [Vector] = []
      for (n, d) in face.diametersCm.prefix(2).enumerated() {
        for c in cases(face, diameter: d, full: n == 0) {
          let input: JSONValue = .object([
            "face": .string(face.id), "diameter_cm": .double(d), "x_mm": .double(c.x), "y_mm": .double(c.y),
            "arrow_diameter_mm": .double(c.arrow),
          ])
          var flags = c.flags
          if face.spots.count > 1 { flags.append("multi-spot") }
          if nearBoundary(face, diameter: d, x: c.x, y: c.y, arrow: c.arrow) { flags.append("ulp-edge") }
          tests.append(try Vector.computed(id: "score.\(face.id).\(size(d)).\(c.id)", stage: .score, group: face.id,
                                           comment: c.comment, flags: flags.sorted(), input: input))
        }
      }
      out.append(VectorGroup(stage: .score, group: face.id, notes: notes, tests: tests))
    }
    return out
  }

  static func size(_ d: Double) -> String { d.rounded() == d ? String(Int(d)) : String(d) }

  /// Directions a line is approached from: +x, −y and the diagonal.
  static let directions: [(String, Double, Double)] = [("px", 1, 0), ("ny", 0, -1), ("diag", 0.6, 0.8)]

  static func cases(_ face: Face, diameter: Double, full: Bool) -> [Case] {
    let r = face.spotRadiusMM(diameterCm: diameter)
    var out: [Case] = []
    for (zi, zone) in face.zones.enumerated() {
      let edge = zone.isX ? "x-edge" : "ring-line"
      let name = zone.isX ? "x" : "ring\(zi)-\(zone.label)"
      let rho = zone.radius
      let mm = rho * r
      let f = Float(rho)
      // Positions along a unit direction: mm neighbours in Double, spot-unit neighbours in Float32.
      var steps: [(String, Double, String)] = [("at", mm, "double-step"), ("up1", mm.nextUp, "double-step"), ("down1", mm.nextDown, "double-step")]
      if full {
        steps += [("f32", Double(f) * r, "float32-step"), ("f32up1", Double(f.nextUp) * r, "float32-step"),
                  ("f32down1", Double(f.nextDown) * r, "float32-step")]
      }
      for (dn, ux, uy) in directions where full || dn == "px" {
        for (sn, dist, flag) in steps {
          out.append(Case(id: "\(name).\(sn).\(dn)", comment: "\(zone.label) edge (r = \(rho)) \(sn) along \(dn)", flags: [edge, flag],
                          x: dist * ux, y: dist * uy, arrow: 5.5))
        }
      }
      // Line-cutter touches: the shaft's edge on the line, for two shaft sizes.
      for arrow in full ? [5.5, 9.3] : [5.5] {
        let touch = (rho + (arrow / 2) / r) * r
        for (sn, dist) in [("at", touch), ("up1", touch.nextUp), ("down1", touch.nextDown)] {
          var flags = ["line-cutter-touch", edge]
          if arrow != 5.5 { flags.append("arrow-size") }
          out.append(Case(id: "\(name).touch\(arrow == 5.5 ? "" : "-\(arrow)").\(sn)", comment: "shaft of \(arrow) mm touching the \(zone.label) line, \(sn)",
                          flags: flags, x: -dist, y: 0, arrow: arrow))
        }
      }
    }
    out.append(Case(id: "centre", comment: "the centre", flags: ["centre"], x: 0, y: 0, arrow: 5.5))
    out.append(Case(id: "centre-negzero", comment: "the centre as -0.0", flags: ["centre"], x: -0.0, y: -0.0, arrow: 5.5))
    for (n, k) in [1.5, 10, 1000].enumerated() {
      out.append(Case(id: "far\(n)", comment: "\(k) × the scoring radius", flags: ["far-miss"], x: k * r * 0.6, y: -k * r * 0.8, arrow: 5.5))
    }
    var rng = SeededGenerator(seed: SeededGenerator.hash("score.\(face.id).\(diameter)"))
    for n in 0..<(full ? 24 : 8) {
      let rad = rng.uniform(0...1.1) * r, a = rng.uniform(0...(2 * .pi))
      out.append(Case(id: "random\(n)", comment: "random point", flags: ["random"], x: rad * cos(a), y: rad * sin(a),
                      arrow: rng.pick([0, 5.5, 9.3])))
    }
    return out
  }

  /// True when the exact distance (Float80 here, far finer than Double) lies
  /// within 4 ulp of any boundary any semantics scores by: ring radii, the
  /// line-cutter thresholds and the floor bands' edges.
  static func nearBoundary(_ face: Face, diameter: Double, x: Double, y: Double, arrow: Double) -> Bool {
    let r = face.spotRadiusMM(diameterCm: diameter)
    let d = (Float80(x) * Float80(x) + Float80(y) * Float80(y)).squareRoot() / Float80(r)
    var bounds = face.zones.map(\.radius)
    bounds += face.zones.map { $0.radius + (arrow / 2) / r }
    let bands = Int((1 / face.floorUnit).rounded())
    bounds += (1...bands).map { Double($0) * face.floorUnit }
    return bounds.contains { b in abs(d - Float80(b)) <= 4 * Float80(b.ulp) }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
