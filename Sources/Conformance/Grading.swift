import Core

/// How one case ended.
package enum Verdict: String, Sendable, Hashable {
  case passed, failed, skipped, errored
}

/// One graded case.
package struct CaseResult: Sendable {
  package let vector: Vector
  package let verdict: Verdict
  /// The testee's output, when it gave one.
  package let got: JSONValue?
  /// The answer it was graded against.
  package let expected: JSONValue?
  /// Why it was skipped or errored.
  package let reason: String?
}

/// What a testee's answers say about one axis.
package struct AxisClassification: Sendable, Hashable {
  package let axis: String
  let declared: String?
  /// The value graded under: declared, else the default.
  let graded: String
  let observed: String?
  let matches: [String: Int]
  let distinguishing: Int
  /// The answers match another value than the declared one.
  var contradicted: Bool { declared != nil && observed != nil && observed != declared }
}

/// Grades answers and classifies semantics from them.
package enum Grading {
  /// The semantics a run grades under: each known axis as declared, else its default.
  package static func effective(_ declared: Semantics) -> Semantics {
    AxisTable.defaults.merging(declared.filter { AxisTable.axis($0.key) != nil }) { $1 }
  }

  /// Grades one answer against the vector's expected answer under `semantics`.
  static func grade(_ v: Vector, _ a: Answer, _ semantics: Semantics) -> CaseResult {
    let expected = v.expected(under: semantics)
    switch a {
    case .skipped(let why): return CaseResult(vector: v, verdict: .skipped, got: nil, expected: expected, reason: why)
    case .errored(let why): return CaseResult(vector: v, verdict: .errored, got: nil, expected: expected, reason: why)
    case .output(let got):
      guard let expected else {
        return CaseResult(vector: v, verdict: .errored, got: got, expected: nil,
                          reason: "the vector has no expected answer for \(AxisTable.key(semantics, axes: v.axes))")
      }
      if let problem = Grader.shapeProblem(expected: expected, got: got) {
        return CaseResult(vector: v, verdict: .errored, got: got, expected: expected, reason: problem)
      }
      let ok = Grader.equal(expected, got, v.stage.tolerance)
      return CaseResult(vector: v, verdict: ok ? .passed : .failed, got: got, expected: expected, reason: nil)
    }
  }

  /// Classifies, per axis of each stage with answered cases, which value the answers match.
  static func classify(_ results: [CaseResult], declared: Semantics) -> [AxisClassification] {
    let effective = effective(declared)
    var out: [AxisClassification] = []
    let byStage = Dictionary(grouping: results.filter { $0.got != nil && ($0.verdict == .passed || $0.verdict == .failed) }, by: \.vector.stage)
    for stage in Stage.allCases {
      let axes = AxisTable.axes(of: stage)
      guard !axes.isEmpty else { continue }
      let answered = byStage[stage] ?? []
      let combos = AxisTable.combinations(of: stage)
      let declaredCombo = combos.first { c in axes.allSatisfy { c[$0.name] == effective[$0.name] } } ?? combos[0]
      func agrees(_ r: CaseResult, _ c: Semantics) -> Bool {
        guard let e = r.vector.expected(under: c), let g = r.got else { return false }
        return Grader.equal(e, g, stage.tolerance)
      }
      var best = declaredCombo, bestCount = answered.filter { agrees($0, declaredCombo) }.count
      for c in combos where c != declaredCombo {
        let n = answered.filter { agrees($0, c) }.count
        if n > bestCount { best = c; bestCount = n }
      }
      for axis in axes {
        var matches = Dictionary(uniqueKeysWithValues: axis.values.map { ($0, 0) })
        var distinguishing = 0
        for r in answered {
          guard let base = r.vector.expected(under: best) else { continue }
          let variants = axis.values.map { v in (v, r.vector.expected(under: best.merging([axis.name: v]) { $1 })) }
          let distinct = variants.contains { $0.0 != best[axis.name] && ($0.1.map { !Grader.equal(base, $0, stage.tolerance) } ?? false) }
          guard distinct else { continue }
          distinguishing += 1
          for (v, e) in variants { if let e, let g = r.got, Grader.equal(e, g, stage.tolerance) { matches[v, default: 0] += 1 } }
        }
        out.append(AxisClassification(axis: axis.name, declared: declared[axis.name], graded: effective[axis.name]!,
                                      observed: distinguishing > 0 ? best[axis.name] : nil, matches: matches,
                                      distinguishing: distinguishing))
      }
    }
    return out
  }

  /// The one-line summary of an axis, as the run prints it.
  package static func line(_ c: AxisClassification) -> String {
    let head = c.declared.map { "declared \($0)" } ?? "undeclared (graded as \(c.graded))"
    guard let observed = c.observed else { return "\(c.axis): \(head), no answered case distinguishes its values" }
    var s = "\(c.axis): \(head), answers match \(observed) on \(c.matches[observed] ?? 0)/\(c.distinguishing) distinguishing cases"
    if c.contradicted {
      s += " (declared \(c.declared!): \(c.matches[c.declared!] ?? 0)/\(c.distinguishing)) — the declaration is contradicted"
    }
    return s
  }
}
