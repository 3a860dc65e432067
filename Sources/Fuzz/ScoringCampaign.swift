import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#endif

/// Settings of a boundary-seeking scoring campaign.
package struct CampaignOptions: Sendable {
  package var faces: [Face] = FaceCatalog.all
  package var rules: [BoundaryRule] = BoundaryRule.allCases
  package var iterations = 100_000
  package var seed: UInt64 = 1
  var arrowMM = 5.5
  package init() {}
}

/// What a campaign checked and found.
package struct CampaignResult: Sendable {
  package let checks: Int
  /// One per (property, face, comparison, boundary), first occurrence; `count` has the totals.
  package let violations: [Finding]
  package let discrepancies: [Finding]
  let counts: [String: Int]
  package let seconds: Double
  package var checksPerSecond: Double { seconds > 0 ? Double(checks) / seconds : 0 }
}

/// Points at, just inside and just outside every ring and X radius (nextUp,
/// nextDown, and the neighbours a Float32 round trip produces), at many angles,
/// plus uniform random points; each point checked against the properties.
package enum ScoringCampaign {
  package static func run(_ o: CampaignOptions, clock: () -> Double) -> CampaignResult {
    var g = SeededGenerator(seed: o.seed)
    var state = CampaignState()
    let start = clock()
    let angles = [0.0, 0.5, 1.0, 1.5].map { $0 * .pi }  // axes: distances exact
    for i in 0..<o.iterations {
      let face = o.faces[i % o.faces.count]
      let spotIndex = g.int(0...(face.spots.count - 1))
      let spot = face.spots[spotIndex]
      let theta = g.chance(0.5) ? angles[g.int(0...3)] : g.uniform(0...(2 * .pi))
      var radii: [Double]
      if g.chance(0.9) {
        let r = g.pick(face.zones).radius
        let f = Double(Float(r))
        let shaft = o.arrowMM / 2 / face.spotRadiusMM(diameterCm: face.diametersCm[0])
        radii = [r.nextDown, r, r.nextUp, f.nextDown, f, f.nextUp, r + shaft, (r + shaft).nextUp]
      } else {
        radii = [g.uniform(0...1.2)]
      }
      radii.sort()
      var previous: [BoundaryRule: (d: Double, s: Int)] = [:]
      for r in radii {
        let x = spot.x + r * spot.radius * cos(theta), y = spot.y + r * spot.radius * sin(theta)
        check(face, spot: spotIndex, x: x, y: y, o, &state, &previous)
      }
    }
    let seconds = clock() - start
    return CampaignResult(checks: state.checks, violations: state.unique.values.filter { $0.severity == "violation" }.sorted(by: order),
                          discrepancies: state.unique.values.filter { $0.severity == "discrepancy" }.sorted(by: order),
                          counts: state.counts, seconds: seconds)
  }

  static func order(_ a: Finding, _ b: Finding) -> Bool { a.key < b.key }
}

/// Running totals; findings are kept once per key.
struct CampaignState {
  var checks = 0
  var unique: [String: Finding] = [:]
  var counts: [String: Int] = [:]

  /// Keeps the simplest example per key: the one closest to an axis (where
  /// the distance is exactly the coordinate), so the scenario is easy to read.
  mutating func record(_ f: Finding) {
    counts[f.key, default: 0] += 1
    if let old = unique[f.key], min(abs(old.x), abs(old.y)) <= min(abs(f.x), abs(f.y)) { return }
    unique[f.key] = f
  }
}
