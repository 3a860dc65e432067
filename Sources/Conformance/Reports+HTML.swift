import Core

extension ConformReports {
  /// One self-contained page: summary, classification, then failures first,
  /// grouped by stage and by the axes the failing cases depend on.
  package static func html(_ o: RunOutcome, conformant: Bool, unexpectedPasses: [String], known: Set<String>, stages: Set<Stage>) -> String {
    let h = xml
    var p = """
      <!doctype html><html><head><meta charset="utf-8"><title>bullseye conform: \(h(o.ready.name))</title><style>
      body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}
      td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}code{font:12px monospace;word-break:break-all}
      .bad{color:#b00020}.ok{color:#0a7d32}.known{color:#777}h2{margin-top:1.5em}details{margin:.3em 0}
      </style></head><body>
      <h1>\(h(o.ready.name)): <span class="\(conformant ? "ok" : "bad")">\(conformant ? "conformant" : "not conformant")</span></h1>
      <p>\(h(o.summary))</p>

      """
    let failing = o.results.filter { $0.verdict == .failed || $0.verdict == .errored }
    if !failing.isEmpty || !unexpectedPasses.isEmpty {
      p += "<h2>Failures</h2>\n"
      if !unexpectedPasses.isEmpty {
        p += "<p class=\"bad\">Listed as known failures but passing now: \(unexpectedPasses.map { "<code>\(h($0))</code>" }.joined(separator: ", "))</p>\n"
      }
      for stage in Stage.allCases {
        let rs = failing.filter { $0.vector.stage == stage }
        guard !rs.isEmpty else { continue }
        p += "<h3>\(stage.rawValue) (\(rs.count))</h3>\n"
        let byAxes = Dictionary(grouping: rs) { $0.vector.axes.isEmpty ? "no axis" : $0.vector.axes.joined(separator: ", ") }
        for key in byAxes.keys.sorted() {
          let group = byAxes[key]!
          p += "<details open><summary>depends on: \(h(key)) — \(group.count) case(s)</summary><table><tr><th>id</th><th>input</th><th>expected</th><th>got</th></tr>\n"
          for r in group.prefix(500) {
            let cls = known.contains(r.vector.id) ? "known" : "bad"
            let got = r.verdict == .errored ? "errored: " + (r.reason ?? "") : compact(r.got)
            p += "<tr class=\"\(cls)\"><td><code>\(h(r.vector.id))</code>\(known.contains(r.vector.id) ? " (known)" : "")</td><td><code>\(h(compact(r.vector.input)))</code></td><td><code>\(h(compact(r.expected)))</code></td><td><code>\(h(got))</code></td></tr>\n"
          }
          if group.count > 500 { p += "<tr><td colspan=4>… \(group.count - 500) more</td></tr>\n" }
          p += "</table></details>\n"
        }
      }
    }
    p += "<h2>Semantics: declared and observed</h2><table><tr><th>axis</th><th>declared</th><th>observed</th><th>matches / distinguishing</th></tr>\n"
    for c in o.classification where stages.contains(AxisTable.axis(c.axis)!.stage) {
      let m = c.matches.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
      p += "<tr class=\"\(c.contradicted ? "bad" : "")\"><td>\(h(c.axis))</td><td>\(h(c.declared ?? "undeclared (\(c.graded))"))</td><td>\(h(c.observed ?? "—"))</td><td>\(h(m)) / \(c.distinguishing)</td></tr>\n"
    }
    p += "</table>\n<h2>By stage</h2><table><tr><th>stage</th><th>passed</th><th>failed</th><th>skipped</th><th>errored</th></tr>\n"
    for stage in Stage.allCases {
      let rs = o.results.filter { $0.vector.stage == stage }
      guard !rs.isEmpty else { continue }
      let n = { (v: Verdict) in rs.filter { $0.verdict == v }.count }
      p += "<tr><td>\(stage.rawValue)</td><td>\(n(.passed))</td><td>\(n(.failed))</td><td>\(n(.skipped))</td><td>\(n(.errored))</td></tr>\n"
    }
    p += "</table>\n"
    if !o.stderrTail.isEmpty {
      p += "<h2>Testee stderr (last lines)</h2><pre>\(h(o.stderrTail.joined(separator: "\n")))</pre>\n"
    }
    return p + "</body></html>\n"
  }
}
