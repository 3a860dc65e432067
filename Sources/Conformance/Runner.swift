import Core

/// What `bullseye conform run` was asked to do.
package struct RunOptions: Sendable {
  package var testee: String
  var stages: [Stage]?
  var shard: (k: Int, n: Int)?
  package var timeoutMs = 5000
  package var allowBatch = true
  package init(testee: String) { self.testee = testee }
}

/// A finished run: the testee, every graded case and the classification.
package struct RunOutcome: Sendable {
  package let ready: Ready
  package let semantics: Semantics
  package let unknownAxes: [String]
  package let results: [CaseResult]
  package let classification: [AxisClassification]
  let stderrTail: [String]

  /// Count of cases with this verdict.
  package func count(_ v: Verdict) -> Int { results.filter { $0.verdict == v }.count }
  /// Failed and errored case ids, in run order.
  package var failing: [String] { results.filter { $0.verdict == .failed || $0.verdict == .errored }.map(\.vector.id) }
  /// Some axis's answers contradict its declaration.
  package var contradicted: Bool { classification.contains(where: \.contradicted) }
  /// The summary line.
  package var summary: String {
    "\(count(.passed)) passed, \(count(.failed)) failed, \(count(.skipped)) skipped, \(count(.errored)) errored"
  }
}

/// Runs a suite against a testee.
package enum ConformRunner {
  /// The cases a run selects: `stages` (all when nil), then the shard `k` of `n`
  /// (every n-th case from the (k−1)-th, so shards 1…n partition the selection).
  package static func select(_ suite: VectorSuite, stages: [Stage]?, shard: (k: Int, n: Int)?) -> [Vector] {
    var vs = suite.vectors
    if let stages { vs = vs.filter { stages.contains($0.stage) } }
    if let (k, n) = shard { vs = vs.enumerated().filter { $0.offset % n == k - 1 }.map(\.element) }
    return vs
  }

  /// Starts the testee, sends every selected case it supports, grades and classifies.
  package static func run(_ vectors: [Vector], options o: RunOptions, session: Session? = nil) throws(ConformanceError) -> RunOutcome {
    let s = session ?? Session(command: o.testee, timeoutMs: o.timeoutMs, allowBatch: o.allowBatch)
    let ready = try s.open()
    defer { s.close() }
    let unknown = try AxisTable.validate(ready.semantics)
    let effective = Grading.effective(ready.semantics)
    let supported = Set(ready.stages)
    var wire: [WireCase] = [], wireIndex: [Int] = []
    for (i, v) in vectors.enumerated() where supported.contains(v.stage.rawValue) {
      wire.append(WireCase(id: v.id, stage: v.stage, input: v.input)); wireIndex.append(i)
    }
    let answers = try s.run(wire)
    var byIndex = [Answer?](repeating: nil, count: vectors.count)
    for (k, i) in wireIndex.enumerated() { byIndex[i] = answers[k] }
    let results = vectors.enumerated().map { i, v in
      Grading.grade(v, byIndex[i] ?? .skipped("the testee does not list the \(v.stage.rawValue) stage"), effective)
    }
    return RunOutcome(ready: ready, semantics: ready.semantics, unknownAxes: unknown, results: results,
                      classification: Grading.classify(results, declared: ready.semantics), stderrTail: s.stderrLines)
  }
}
