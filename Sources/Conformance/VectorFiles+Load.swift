import Core
import Foundation

extension VectorFiles {
  /// Reads a vector directory strictly: any bad file is refused before a case
  /// runs, with one line naming the file and, where it parses, the test id.
  package static func load(_ dir: String) throws(ConformanceError) -> VectorSuite {
    let manifestPath = "\(dir)/manifest.json"
    let manifest = try parse(manifestPath)
    guard case .object(let m) = manifest else { throw .usage("\(manifestPath): expected a JSON object") }
    var version = "unversioned"
    if case .string(let v)? = m["suite_version"] { version = v }
    guard case .object(let stages)? = m["stages"] else { throw .usage("\(manifestPath): expected a 'stages' object") }
    try checkManifest(m, path: manifestPath)
    var groups: [VectorGroup] = []
    var seen = Set<String>()
    for (name, entry) in stages.sorted(by: { $0.key < $1.key }) {
      guard let stage = Stage(rawValue: name) else {
        throw .usage("\(manifestPath): stage '\(name)' is unknown: expected one of \(Stage.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      guard case .object(let e) = entry, case .array(let files)? = e["files"] else { throw .usage("\(manifestPath): stage '\(name)' has no 'files' array") }
      var stageCount = 0
      for f in files {
        var rel: String?
        if case .string(let s) = f { rel = s }
        if case .object(let o) = f, case .string(let s)? = o["file"] { rel = s }
        guard let rel, !rel.hasPrefix("/"), !rel.split(separator: "/").contains("..") else {
          throw .usage("\(manifestPath): a file entry of stage '\(name)' is not a relative path inside the directory")
        }
        try checkInside("\(dir)/\(rel)", dir: dir, path: manifestPath)
        let g = try group("\(dir)/\(rel)", stage: stage)
        if case .object(let o) = f { try checkCount(o["cases"], g.tests.count, path: manifestPath, key: "stages.\(name) file '\(rel)' cases") }
        stageCount += g.tests.count
        for t in g.tests where !seen.insert(t.id).inserted { throw .usage("\(dir)/\(rel): test '\(t.id)' appears twice in the suite") }
        groups.append(g)
      }
      try checkCount(e["cases"], stageCount, path: manifestPath, key: "stages.\(name).cases")
    }
    return VectorSuite(version: version, groups: groups.sorted { $0.stage < $1.stage })
  }

  static func parse(_ path: String) throws(ConformanceError) -> JSONValue {
    guard let data = FileManager.default.contents(atPath: path) else { throw .usage("\(path): cannot be read: expected a JSON file") }
    do { return try JSONParser.parse(bytes: Array(data)) } catch { throw .usage("\(path): not JSON (\(error))") }
  }

  static func group(_ path: String, stage: Stage) throws(ConformanceError) -> VectorGroup {
    guard case .object(let o) = try parse(path) else { throw .usage("\(path): expected a JSON object") }
    guard o["stage"] == .string(stage.rawValue) else { throw .usage("\(path): 'stage' is not \"\(stage.rawValue)\" as the manifest says") }
    var group = "group"
    if case .string(let g)? = o["group"] { group = g }
    var notes: [String: String] = [:]
    if case .object(let n)? = o["notes"] { for (k, v) in n { if case .string(let s) = v { notes[k] = s } } }
    guard case .array(let tests)? = o["tests"] else { throw .usage("\(path): expected a 'tests' array") }
    var out: [Vector] = []
    for (n, t) in tests.enumerated() {
      guard case .object(let f) = t else { throw .usage("\(path): test #\(n) is not an object") }
      guard case .string(let id)? = f["id"], !id.isEmpty else { throw .usage("\(path): test #\(n) has no string 'id'") }
      // An id is one word of an expectations line (`ID # reason`): no spaces, line breaks or '#'.
      if id.contains(where: { $0.isWhitespace || $0 == "#" || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
        throw .usage("\(path): test #\(n) has id \(JSONValue.oneLine(.string(id))): expected no spaces, line breaks, control characters or '#'")
      }
      func bad(_ why: String) -> ConformanceError { .usage("\(path): test '\(id)': \(why)") }
      guard let input = f["input"] else { throw bad("no 'input'") }
      // The input must be one the stage can run: numbers as numbers, keys present.
      let model: JSONValue
      do { model = try Oracle.answer(stage, input, [:]) } catch { throw bad("input: \(error)") }
      var comment = ""
      if case .string(let c)? = f["comment"] { comment = c }
      var flags: [String] = []
      if case .array(let fl)? = f["flags"] { flags = fl.compactMap { if case .string(let s) = $0 { return s } else { return nil } } }
      let expected: Vector.Expected
      if let e = f["expected"] {
        if let p = Grader.shapeProblem(expected: model, got: e, path: "expected") { throw bad(p) }
        expected = .single(e)
      } else if case .object(let by)? = f["expected_by_semantics"], !by.isEmpty {
        expected = try bySemantics(by, stage: stage, model: model, bad: bad)
      } else {
        throw bad("no 'expected' or 'expected_by_semantics'")
      }
      out.append(Vector(id: id, stage: stage, group: group, comment: comment, flags: flags, input: input, expected: expected))
    }
    return VectorGroup(stage: stage, group: group, notes: notes, tests: out)
  }

  /// Checks the keys (`axis=value` pairs of the stage's axes, alphabetical, every
  /// combination present) and the answers' shapes.
  static func bySemantics(_ by: [String: JSONValue], stage: Stage, model: JSONValue,
                          bad: (String) -> ConformanceError) throws(ConformanceError) -> Vector.Expected {
    var axesNames: [String]?
    for (key, answer) in by {
      let pairs = key.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
      var names: [String] = []
      for p in pairs {
        guard p.count == 2, let axis = AxisTable.axis(p[0]), axis.stage == stage, axis.values.contains(p[1]) else {
          throw bad("expected_by_semantics key '\(key)' is not axis=value pairs of the \(stage.rawValue) stage's axes")
        }
        names.append(p[0])
      }
      guard names == names.sorted() else { throw bad("expected_by_semantics key '\(key)': expected its axes in alphabetical order") }
      if let a = axesNames, a != names { throw bad("expected_by_semantics keys name different axes ('\(key)')") }
      axesNames = names
      if let p = Grader.shapeProblem(expected: model, got: answer, path: "expected_by_semantics[\(key)]") { throw bad(p) }
    }
    let names = axesNames ?? []
    let needed = names.reduce(1) { $0 * (AxisTable.axis($1)?.values.count ?? 1) }
    guard by.count == needed else { throw bad("expected_by_semantics has \(by.count) entries, expected all \(needed) combinations of \(names.joined(separator: ", "))") }
    return .bySemantics(axes: names, answers: by)
  }
}
