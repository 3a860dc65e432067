import Core

extension ConformReports {
  /// A Markdown section for a pull-request comment or a CI job summary: the
  /// counts, where the testee's answers put each axis, failures per stage and
  /// the first five failures. Shape:
  /// `## Testee … / Result: … / | axis | declared | observed | matches / distinguishing |`.
  /// What the testee sent (its name, its answers) is shown in `<code>`, escaped by `Shown.markdown`.
  package static func markdown(_ o: RunOutcome, conformant: Bool, stages: Set<Stage>, title: String? = nil) -> String {
    var out = ["## \(title ?? "Testee <code>\(Shown.markdown(o.ready.name))</code>")", ""]
    out.append("Result: \(o.summary) (\(conformant ? "conformant" : "not conformant")).")
    out += ["", "| axis | declared | observed | matches / distinguishing |", "|---|---|---|---|"]
    for c in o.classification.sorted(by: { $0.axis < $1.axis })
    where stages.contains(AxisTable.axis(c.axis)!.stage) && (c.distinguishing > 0 || c.declared != nil) {
      let matches = c.matches.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      let flag = c.contradicted ? " **contradicted**" : ""
      out.append("| \(c.axis) | \(c.declared ?? "undeclared") | \(c.observed ?? "—")\(flag) | \(matches) / \(c.distinguishing) |")
    }
    out.append("")
    let failed = o.results.filter { $0.verdict == .failed }
    if !failed.isEmpty {
      var byStage: [String: Int] = [:]
      for r in failed { byStage[r.vector.stage.rawValue, default: 0] += 1 }
      out.append("Failures by stage: " + byStage.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ".")
      out += ["", "First failures:", ""]
      for r in failed.prefix(5) {
        let code = { (text: String) in "<code>\(Shown.markdown(text))</code>" }
        out.append("- \(code(r.vector.id)): expected \(code(compact(r.expected))), got \(code(compact(r.got)))")
      }
      out.append("")
    }
    return out.joined(separator: "\n") + "\n"
  }
}
