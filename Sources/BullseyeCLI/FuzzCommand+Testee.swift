import ArgumentParser
import Conformance
import Core
import Foundation
import Scoring

extension FuzzScoring {
  /// `fuzz scoring --testee`: differential fuzzing of another implementation.
  func runDifferential(_ command: String) throws {
    guard cases == nil || seconds == nil else { throw CLIError(message: "give --cases or --seconds, not both") }
    if let n = cases, !(1...100_000_000).contains(n) { throw CLIError(message: "--cases \(n) is out of range: expected 1...100000000") }
    if let s = seconds, !(s > 0 && s <= 86_400) { throw CLIError(message: "--seconds \(s) is out of range: expected (0, 86400]") }
    let timeoutMs = self.timeoutMs ?? 5000
    guard (1...3_600_000).contains(timeoutMs) else { throw CLIError(message: "--timeout-ms \(timeoutMs) is out of range: expected 1...3600000") }
    guard rule.isEmpty else { throw CLIError(message: "--rule does not apply with --testee: the testee's declared boundary is graded") }
    // Checked before any case runs: findings replace only an earlier fuzz export, never another folder's files.
    var replace = false
    if let out {
      replace = DiffFuzz.isEarlierExport(out)
      if !replace, let items = try? FileManager.default.contentsOfDirectory(atPath: out), !items.isEmpty {
        throw CLIError(message: "--out '\(out)' is not empty and holds no earlier fuzz export (manifest.json and score/findings.json alone): expected a new or empty folder, or one an earlier fuzz --testee --out wrote")
      }
      do { _ = try VectorFiles.checkTarget(out, force: replace) } catch { throw CLIError(message: "--out \(error)") }
    }
    var fuzz = DiffFuzz()
    fuzz.seed = seed
    fuzz.cases = seconds == nil ? (cases ?? 100_000) : nil
    fuzz.seconds = seconds
    if !face.isEmpty { fuzz.faces = face.map(\.face) }
    let session = Session(command: command, timeoutMs: timeoutMs)
    let ready = try conformCall { () throws(ConformanceError) in try session.open() }
    defer { session.close() }
    _ = try conformCall { () throws(ConformanceError) in try AxisTable.validate(ready.semantics) }
    guard ready.stages.contains("score") else { throw CLIError(message: "testee '\(ready.name)' does not list the score stage: nothing to fuzz") }
    let result = try conformCall { () throws(ConformanceError) in try fuzz.run(session, declared: ready.semantics) }
    if let out {
      let suite = try conformCall { () throws(ConformanceError) in try DiffFuzz.suite(result.findings) }
      try conformCall { () throws(ConformanceError) in try VectorFiles.export(suite, to: out, force: replace) }
    }
    let effective = Grading.effective(ready.semantics)
    if json {
      print(try Self.differentialJSON(result, testee: ready.name, graded: effective).canonicalText(), terminator: "")
    } else {
      print("testee \(Shown.terminal(ready.name)), graded as boundary=\(effective["boundary"]!), precision=\(effective["precision"]!)")
      for f in result.findings {
        print(Shown.terminal("finding [\(f.face)] \(f.kind): input \(JSONValue.oneLine(f.input)) expected \(JSONValue.oneLine(f.expected)) got \(JSONValue.oneLine(f.got))"))
      }
      let kinds = Dictionary(grouping: result.findings, by: \.kind).mapValues(\.count).sorted { $0.key < $1.key }
      for (k, n) in kinds { print("  \(n) × \(k)") }
      for (why, n) in result.errored.sorted(by: { $0.key < $1.key }) { print("  errored \(n) × \(Shown.terminal(why))") }
    }
    if let why = result.aborted {
      if !json { print("stopped early: \(Shown.terminal(why))") }
      FileHandle.standardError.write(Data("error: the testee could not be kept running (\(result.findings.count) findings so far written): \(Shown.terminal(why))\n".utf8))
      Foundation.exit(2)
    }
    if !json { print("\(result.checks) checks in \(String(format: "%.2f", result.seconds)) s (\(Int(result.checksPerSecond)) checks/s): \(result.findings.count) findings") }
    // A testee that answers every case with an error was never checked: "0 findings" would pass it.
    let errored = result.errored.values.reduce(0, +)
    if errored > 0, errored >= result.checks {
      FileHandle.standardError.write(Data("error: the testee answered all \(errored) cases with an error (\(Shown.terminal(result.errored.keys.sorted().first ?? ""))): nothing was checked\n".utf8))
      Foundation.exit(2)
    }
    // Skipped cases (or none run at all) are not checks either.
    if result.checks - errored - result.skipped <= 0 {
      FileHandle.standardError.write(Data("error: nothing was checked: of \(result.checks) cases sent, \(result.skipped) were skipped and \(errored) errored\n".utf8))
      Foundation.exit(2)
    }
    if !result.findings.isEmpty { Foundation.exit(1) }
  }

  /// `--json` with `--testee`: `{testee, graded: {boundary, precision}, checks, findings: [{face, kind, input, expected,
  /// got}], errored: {reason: count}, aborted, seconds}`. Only `seconds` varies between runs of one seed and `--cases`.
  static func differentialJSON(_ r: DiffFuzz.Result, testee: String, graded: [String: String]) -> JSONValue {
    .object([
      "testee": .string(testee), "graded": .object(graded.mapValues(JSONValue.string)), "checks": .int(r.checks),
      "findings": .array(r.findings.map { f in
        .object(["face": .string(f.face), "kind": .string(f.kind), "input": f.input, "expected": f.expected, "got": f.got])
      }),
      "errored": .object(r.errored.mapValues(JSONValue.int)), "aborted": r.aborted.map(JSONValue.string) ?? .null,
      "seconds": .double((r.seconds * 1000).rounded() / 1000),
    ])
  }
}
