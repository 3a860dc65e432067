import Scoring

extension ScoringCampaign {
  /// Every property at one point. `previous` holds, per rule, the last
  /// (distance, score) on this ray, for the monotonicity check.
  static func check(_ face: Face, spot: Int, x: Double, y: Double, _ o: CampaignOptions, _ st: inout CampaignState,
                    _ previous: inout [BoundaryRule: (d: Double, s: Int)]) {
    func score(_ rule: BoundaryRule, _ p: Precision = .double, arrow: Double? = nil) -> ScoreResult {
      Scorer.scoreUnchecked(ScoreRequest(face: face, x: x, y: y, rule: rule, arrowMM: arrow ?? o.arrowMM, precision: p, spot: .index(spot)))
    }
    var by: [BoundaryRule: ScoreResult] = [:]
    for rule in o.rules { by[rule] = score(rule) }
    let d = by.values.first?.distance ?? 0
    let boundary = face.zones.map(\.radius).min { abs($0 - d) < abs($1 - d) }
    let shaft = o.arrowMM / 2 / face.spotRadiusMM(diameterCm: face.diametersCm[0])
    func finding(_ sev: String, _ prop: String, _ compared: String, _ scores: [Int], _ detail: String, near: Double? = boundary) {
      st.record(Finding(severity: sev, property: prop, face: face.id, compared: compared, x: x, y: y, distance: d,
                        boundary: near, scores: scores, detail: detail))
    }
    for (rule, r) in by {
      // 1. The score never increases with distance (along one ray).
      st.checks += 1
      if let p = previous[rule], p.d <= r.distance, r.score > p.s {
        finding("violation", "monotonic", rule.rawValue, [p.s, r.score], "score rose from \(p.s) at d=\(p.d) to \(r.score) at d=\(r.distance)")
      }
      previous[rule] = (r.distance, r.score)
      // 2. X implies the face's top score.
      st.checks += 1
      if r.isX && r.score != face.topScore {
        finding("violation", "x-implies-top", rule.rawValue, [r.score, face.topScore], "X scored \(r.score), top is \(face.topScore)")
      }
      // 3. Persisting the coordinates as Float32 and rescoring gives the same verdict.
      st.checks += 1
      let stored = score(rule, .float32)
      if stored.score != r.score || stored.isX != r.isX {
        finding("discrepancy", "persistence-float32", rule.rawValue, [r.score, stored.score],
                "confirmed \(r.label), rescored from Float32 coordinates \(stored.label)")
      }
      // 4. iOS (Double) and Android (Float) score the same placement alike.
      st.checks += 1
      let android = score(rule, .float32Native)
      if android.score != r.score || android.isX != r.isX {
        finding("discrepancy", "platform-ios-android", rule.rawValue, [r.score, android.score], "ios \(r.label), android \(android.label)")
      }
    }
    // 5. Rule order: inclusive and line-cutter never below strict; line-cutter with no shaft is inclusive.
    if let s = by[.strict] {
      for rule in [BoundaryRule.inclusive, .lineCutter] {
        guard let r = by[rule] else { continue }
        st.checks += 1
        if r.score < s.score { finding("violation", "not-below-strict", "\(rule.rawValue) vs strict", [r.score, s.score], "\(rule.rawValue) scored below strict") }
      }
    }
    if by[.lineCutter] != nil, let inc = by[.inclusive] {
      st.checks += 1
      let zero = score(.lineCutter, arrow: 0)
      if zero.score != inc.score || zero.isX != inc.isX {
        finding("violation", "zero-shaft-is-inclusive", "line-cutter(0 mm) vs inclusive", [zero.score, inc.score], "a 0 mm line cutter differs from inclusive")
      }
    }
    // 6. Rules disagree only on boundaries: within FP noise of a line, or within the shaft for line-cutter.
    let rules = o.rules
    for (i, a) in rules.enumerated() {
      for b in rules[(i + 1)...] {
        guard let ra = by[a], let rb = by[b] else { continue }
        st.checks += 1
        guard ra.score != rb.score || ra.isX != rb.isX else { continue }
        let gap = abs(d - (boundary ?? .infinity)), xGap = face.xRadius.map { abs(d - $0) } ?? .infinity
        let noise = 1e-12, reach = (a == .lineCutter || b == .lineCutter) ? shaft + noise : noise
        let near = gap <= reach || xGap <= reach
        finding(near ? "discrepancy" : "violation", near ? "rules-disagree-on-boundary" : "rules-disagree-off-boundary",
                "\(a.rawValue) vs \(b.rawValue)", [ra.score, rb.score], "\(a.rawValue) \(ra.label), \(b.rawValue) \(rb.label)")
      }
    }
    // 7. The floor-division trap: Int(d / width) lands in another band than the
    // band edges as the table writes them (k × width, to 12 decimals) say.
    if by[.floor] != nil, d <= 1 {
      st.checks += 1
      let u = face.floorUnit, bands = Int((1 / u).rounded())
      let edges = (1...bands).map { (Double($0) * u * 1e12).rounded() / 1e12 }
      let written = min(edges.filter { $0 <= d }.count, bands - 1)
      let got = min(Int(d / u), bands - 1)
      if got != written {
        finding("discrepancy", "floor-division-trap", "floor", [got, written], "Int(\(d) / \(u)) = \(got), but the band edges as written put it in band \(written)")
      }
    }
  }
}
