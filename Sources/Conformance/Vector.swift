import Core

/// One conformance case, Wycheproof-shaped: an id, a comment, flags, the input
/// and the expected answer — one for every combination of the axes that matter to it.
package struct Vector: Sendable, Hashable {
  package let id: String
  package let stage: Stage
  let group: String
  let comment: String
  let flags: [String]
  package let input: JSONValue
  let expected: Expected

  /// A case answered the same under every semantics, or one per combination.
  enum Expected: Sendable, Hashable {
    case single(JSONValue)
    /// `axes` in alphabetical order; `answers` keyed as `AxisTable.key` writes.
    case bySemantics(axes: [String], answers: [String: JSONValue])
  }

  /// A case; `expected` comes from the oracle or a vector file.
  init(id: String, stage: Stage, group: String, comment: String, flags: [String], input: JSONValue, expected: Expected) {
    self.id = id; self.stage = stage; self.group = group; self.comment = comment; self.flags = flags
    self.input = input; self.expected = expected
  }

  /// The axes whose value changes this case's answer.
  package var axes: [String] {
    if case .bySemantics(let a, _) = expected { return a }
    return []
  }

  /// The expected answer under `semantics` (missing axes take their defaults).
  func expected(under semantics: Semantics) -> JSONValue? {
    switch expected {
    case .single(let v): return v
    case .bySemantics(let axes, let answers): return answers[AxisTable.key(semantics, axes: axes)]
    }
  }

  /// Computes the expected answers by asking the oracle under every
  /// combination of the stage's axes, keeping only the axes that matter:
  /// an axis matters when changing it alone changes the answer somewhere.
  static func computed(id: String, stage: Stage, group: String, comment: String, flags: [String],
                              input: JSONValue) throws(ConformanceError) -> Vector {
    let combos = AxisTable.combinations(of: stage)
    var answers: [JSONValue] = []
    answers.reserveCapacity(combos.count)
    for c in combos { answers.append(try Oracle.answer(stage, input, c)) }
    let axes = AxisTable.axes(of: stage)
    var matters: [String] = []
    for axis in axes {
      let differs = combos.indices.contains { a in
        combos.indices.contains { b in
          combos[b][axis.name] != combos[a][axis.name]
            && axes.allSatisfy { $0.name == axis.name || combos[a][$0.name] == combos[b][$0.name] }
            && !Grader.equal(answers[a], answers[b], stage.tolerance)
        }
      }
      if differs { matters.append(axis.name) }
    }
    guard !matters.isEmpty else {
      return Vector(id: id, stage: stage, group: group, comment: comment, flags: flags, input: input, expected: .single(answers[0]))
    }
    matters.sort()
    var keyed: [String: JSONValue] = [:]
    for (c, a) in zip(combos, answers) {
      let k = AxisTable.key(c, axes: matters)
      if keyed[k] == nil { keyed[k] = a }
    }
    return Vector(id: id, stage: stage, group: group, comment: comment, flags: flags, input: input,
                  expected: .bySemantics(axes: matters, answers: keyed))
  }
}

/// A file's worth of cases: one stage, one group, the meaning of its flags.
package struct VectorGroup: Sendable, Hashable {
  let stage: Stage
  let group: String
  let notes: [String: String]
  var tests: [Vector]

  /// A group of cases.
  init(stage: Stage, group: String, notes: [String: String], tests: [Vector]) {
    self.stage = stage; self.group = group; self.notes = notes; self.tests = tests
  }
}

/// The whole suite: groups in stage order.
package struct VectorSuite: Sendable {
  /// SemVer of the cases and their answers.
  static let builtInVersion = "1.0.0"
  package let version: String
  package let groups: [VectorGroup]

  /// A suite of groups.
  init(version: String, groups: [VectorGroup]) {
    self.version = version; self.groups = groups
  }

  /// Every case, in file order.
  package var vectors: [Vector] { groups.flatMap(\.tests) }
}
