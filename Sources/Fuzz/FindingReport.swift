import Core

/// Turns findings into ready-to-run scenario files and a summary table.
package enum FindingReport {
  /// A minimal archery scenario that taps the point exactly (seed 002's tap
  /// path), confirms, persists with coordinates and resumes, so `bullseye
  /// render` or `verify` replays the finding.
  package static func scenario(_ f: Finding, index: Int) -> String {
    let rule = f.compared.split(separator: " ").first.map(String.init) ?? "inclusive"
    let known = ["inclusive", "floor", "strict", "line-cutter"]
    let r = known.contains(rule) ? rule : "inclusive"
    return """
      # \(f.severity): \(f.property) on \(f.face) (\(f.compared))
      # point (\(f.x.description), \(f.y.description)), distance \(f.distance.description) = \(hexString(f.distance))
      # scores \(f.scores.map(String.init).joined(separator: " / ")): \(f.detail)
      id: fuzz-\(String(repeating: "0", count: max(0, 3 - String(index).count)))\(index)-\(f.property)
      face: \(f.face)
      seed: 1
      size: 320x240
      profile: ios
      rule: \(r)
      camera: {center: [160, 120], radius: 100, rotation_deg: 0, tilt_deg: 0, focal_px: 800}
      scene: {background: plain, boss: foam, noise: 0, jpeg: 0, blur: 0, old_holes: 0, torn_centre: false, lighting: 0, vignette: 0}
      arrows: []
      detector: {source: none}
      expected_arrows: 1
      gestures: [{tap: [\(f.x.description), \(f.y.description)]}, confirm]
      persist: {coordinates: keep-coordinates, end: 1}

      """
  }

  /// A Markdown table: one row per unique finding, with how often it occurred.
  package static func summary(_ result: CampaignResult) -> String {
    var s = "| # | severity | property | face | compared | distance (hex) | scores | occurrences |\n|---|---|---|---|---|---|---|---|\n"
    for (i, f) in (result.violations + result.discrepancies).enumerated() {
      s += "| \(i + 1) | \(f.severity) | \(f.property) | \(f.face) | \(f.compared) | `\(hexString(f.distance))` | \(f.scores.map(String.init).joined(separator: " / ")) | \(result.counts[f.key] ?? 1) |\n"
    }
    return s
  }

  /// `{checks, violations, discrepancies, checks_per_second, seconds, findings}`.
  package static func json(_ r: CampaignResult) -> JSONValue {
    .object([
      "checks": .int(r.checks), "violations": .int(r.violations.count), "discrepancies": .int(r.discrepancies.count),
      "violation_occurrences": .int(r.violations.reduce(0) { $0 + (r.counts[$1.key] ?? 0) }),
      "discrepancy_occurrences": .int(r.discrepancies.reduce(0) { $0 + (r.counts[$1.key] ?? 0) }),
      "checks_per_second": .double(r.checksPerSecond.rounded()), "seconds": .double(r.seconds),
      "findings": .array((r.violations + r.discrepancies).map(\.json)),
    ])
  }
}
