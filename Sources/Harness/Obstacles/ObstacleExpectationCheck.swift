import Obstacles

/// Compares a result with the scenario's `expect` block.
enum ExpectationCheck {
  /// One sentence per mismatch, with the actual and the expected value.
  static func failures(_ e: ObstacleExpectation, _ r: ObstacleRun) -> [String] {
    var out: [String] = []
    if let want = e.announcements {
      let got = r.announcements
      if got.count != want.count {
        out.append("transcript has \(got.count) announcements: expected \(want.count)")
      }
      for (i, (g, w)) in zip(got, want).enumerated() {
        let sameTime = ObstaclePipeline.milliseconds(g.time) == ObstaclePipeline.milliseconds(w.time)
        if !sameTime || g.text != w.text {
          out.append("announcement \(i) is \(g.time) s '\(g.text)': expected \(w.time) s '\(w.text)'")
        }
      }
    }
    for w in e.frames {
      let f = r.frames[w.index]
      func check<T: Equatable>(_ name: String, _ got: T?, _ want: T?) {
        guard let want, got != want else { return }
        out.append("frame \(w.index) \(name) is \(got.map { "\($0)" } ?? "none"): expected \(want)")
      }
      check("zone", f.zone?.rawValue, w.zone?.rawValue)
      check("category", f.category?.name ?? "none", w.category)
      check("announced", f.announced, w.announced)
      check("reason", f.reason.rawValue, w.reason?.rawValue)
      check("matched_yolo", f.matchedYOLO, w.matchedYOLO)
    }
    return out
  }
}
