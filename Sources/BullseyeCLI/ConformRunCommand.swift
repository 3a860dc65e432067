import ArgumentParser
import Conformance
import Core
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `bullseye conform run`.
struct ConformRun: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a testee against the suite and grade it.", discussion: "Example: bullseye conform run --testee 'bash Testees/python-archeryutils/run.sh' --stages score,nms --junit conform.xml")
  @Option(help: "The testee command line (run by /bin/sh -c).") var testee: String
  @Option(help: "Only these stages (comma-separated).") var stages: String?
  @Option(help: "Known failures: one 'ID # reason' a line.") var expectations: String?
  @Flag(help: "Rewrite --expectations to the current failures (refused when CI is set).") var fix = false
  @Option(help: "Write JUnit XML here.") var junit: String?
  @Option(help: "Write DIR/index.html, a self-contained report, with DIR/report.json and DIR/junit.xml for `bullseye report merge`.") var report: String?
  @Option(help: "Write a Markdown summary here (for a pull-request comment or a CI job summary).") var markdown: String?
  @Option(help: "The Markdown summary's heading (default: Testee `NAME`).") var markdownTitle: String?
  @Flag(help: "Print one JSON object instead of text.") var json = false
  @Option(help: "Run the K-th of N slices (K/N).") var shard: String?
  @Option(name: .customLong("timeout-ms"), help: "Per-case answer timeout in ms.") var timeoutMs: Int = 5000
  @Option(help: "Run this one case alone and show the exchange.") var repro: String?
  @Option(help: "A vector directory to run instead of the built-in suite.") var vectors: String?
  @Flag(help: "Never send run_batch, even to a testee that offers it.") var noBatch = false

  func validate() throws {
    guard (1...3_600_000).contains(timeoutMs) else { throw CLIError(message: "--timeout-ms \(timeoutMs) is out of range: expected 1...3600000") }
    if fix && expectations == nil { throw CLIError(message: "--fix needs --expectations FILE") }
    if markdownTitle != nil && markdown == nil { throw ValidationError("--markdown-title needs --markdown FILE: there is no summary to title") }
    if repro != nil, let other = shard != nil ? "--shard" : stages != nil ? "--stages" : nil {
      throw ValidationError("--repro runs one case alone: \(other) does not apply with it")
    }
    if fix, let ci = ProcessInfo.processInfo.environment["CI"], ci != "false" {
      throw CLIError(message: "--fix refused: CI is set to '\(ci)'; expectations are fixed by hand, never by CI")
    }
  }

  func run() throws {
    // --fix rewrites --expectations itself; no other output (--report's files included) may land on it, nor on each other.
    let reportFiles = ["index.html", "report.json", "junit.xml"].map { name in ("--report", report.map { $0 + "/" + name }) }
    try OutputPaths.checkDistinct(inputs: [("--expectations", fix ? nil : expectations)],
                                  outputs: [("--junit", junit), ("--markdown", markdown), ("--expectations (with --fix)", fix ? expectations : nil)]
                                    + reportFiles)
    // Every output is checked before the run: a bad one would otherwise fail after the others were written.
    if let report { try OutputPaths.checkDirectory(report, flag: "--report") }
    for (flag, path) in [("--junit", junit), ("--markdown", markdown)] { if let path { try OutputPaths.checkWritable(path, flag: flag) } }
    let stageList = try stages.map(parseStages)
    let shardPair = try shard.map(parseShard)
    let suite = try conformCall { () throws(ConformanceError) in
      if let vectors { return try VectorFiles.load(vectors) }
      // --repro needs every stage (the id names one); otherwise only the stages selected.
      return try VectorSuite.builtIn(only: repro == nil ? stageList.map(Set.init) : nil)
    }
    var known: Expectations?
    if let path = expectations {
      known = try conformCall { () throws(ConformanceError) in try Expectations.load(path, allowMissing: fix) }
    }
    var options = RunOptions(testee: testee)
    options.timeoutMs = timeoutMs
    options.allowBatch = !noBatch
    if let id = repro { return try runRepro(id, suite: suite, options: options) }
    let selected = ConformRunner.select(suite, stages: stageList, shard: shardPair)
    guard !selected.isEmpty else { throw CLIError(message: emptySelection(suite, stages: stageList)) }
    let outcome = try conformCall { () throws(ConformanceError) in try ConformRunner.run(selected, options: options) }
    // A skipped case is not a check: a run that graded nothing must never read as a pass.
    if outcome.count(.skipped) == outcome.results.count {
      let chosen = Stage.allCases.filter { st in selected.contains { $0.stage == st } }.map(\.rawValue)
      throw CLIError(message: "nothing was checked: all \(selected.count) selected cases were skipped (the testee lists stages \(outcome.ready.stages.isEmpty ? "none" : outcome.ready.stages.joined(separator: ", ")); the selection holds \(chosen.joined(separator: ", ")))")
    }
    let selectedIDs = Set(selected.map(\.id))
    let failing = outcome.failing
    var listed = (known?.ids ?? []).intersection(selectedIDs)
    if fix, let path = expectations, let known {
      let text = known.fixed(failing: failing, selected: selectedIDs) { id in
        let r = outcome.results.first { $0.vector.id == id }
        return r?.verdict == .errored ? "errored: \(r?.reason ?? "")" : "failed: expected \(JSONValue.oneLine(r?.expected)), got \(JSONValue.oneLine(r?.got))"
      }
      try conformCall { () throws(ConformanceError) in
        do { try AtomicFile.write(text, to: path) } catch { throw .usage("cannot write --expectations '\(path)': \(error)") }
      }
      listed = Set(failing)
    }
    let failingSet = Set(failing)
    let unexpectedFailures = failing.filter { !listed.contains($0) }
    let unexpectedPasses = selected.map(\.id).filter { listed.contains($0) && !failingSet.contains($0) }
    let conformant = unexpectedFailures.isEmpty && unexpectedPasses.isEmpty && !outcome.contradicted
    // Classify only the stages the testee was sent cases of.
    let stagesRun = Set(selected.map(\.stage)).filter { outcome.ready.stages.contains($0.rawValue) }
    if let junit {
      try conformCall { () throws(ConformanceError) in
        do { try AtomicFile.write(ConformReports.junit(outcome), to: junit) } catch { throw .usage("cannot write --junit '\(junit)': \(error)") }
      }
    }
    if let markdown {
      let text = ConformReports.markdown(outcome, conformant: conformant, stages: stagesRun, title: markdownTitle)
      try conformCall { () throws(ConformanceError) in
        do { try AtomicFile.write(text, to: markdown) } catch { throw .usage("cannot write --markdown '\(markdown)': \(error)") }
      }
    }
    if let report {
      try writeReport(ConformReports.html(outcome, conformant: conformant, unexpectedPasses: unexpectedPasses, known: listed, stages: stagesRun), to: report)
      // report.json and junit.xml beside the page, so `bullseye report merge` can join shard folders.
      let record = ConformRecord.json(outcome, known: listed, unexpectedPasses: unexpectedPasses, conformant: conformant)
      try conformCall { () throws(ConformanceError) in
        do {
          try AtomicFile.write(record.canonicalText(), to: report + "/report.json")
          try AtomicFile.write(ConformReports.junit(outcome), to: report + "/junit.xml")
        } catch { throw .usage("cannot write --report '\(report)': \(error)") }
      }
    }
    if json {
      let j = ConformReports.json(outcome, unexpectedPasses: unexpectedPasses, unexpectedFailures: unexpectedFailures,
                                  conformant: conformant, stages: stagesRun)
      writeLine(try j.compactText())
    } else {
      printText(outcome, listed: listed, unexpectedPasses: unexpectedPasses, stages: stagesRun)
    }
    if !conformant { Glibc.exit(1) }
  }

  func printText(_ o: RunOutcome, listed: Set<String>, unexpectedPasses: [String], stages: Set<Stage>) {
    // Every string the testee chose is escaped (Shown.terminal): it may hold a NUL, an escape sequence or a line break.
    let t = Shown.terminal
    writeLine("testee: \(t(o.ready.name)) (stages \(o.ready.stages.joined(separator: ", ")))")
    if !o.unknownAxes.isEmpty { writeLine("note: unknown axes declared and ignored: \(t(o.unknownAxes.joined(separator: ", ")))") }
    for r in o.results where r.verdict == .failed || r.verdict == .errored {
      let tag = listed.contains(r.vector.id) ? "known " : ""
      if r.verdict == .failed {
        writeLine(t("\(tag)FAIL \(r.vector.id) input=\(JSONValue.oneLine(r.vector.input)) expected=\(JSONValue.oneLine(r.expected)) got=\(JSONValue.oneLine(r.got))"))
      } else {
        writeLine(t("\(tag)ERROR \(r.vector.id) \(r.reason ?? "")"))
      }
    }
    for id in unexpectedPasses { writeLine("UNEXPECTED PASS \(id): listed as a known failure, passes now") }
    for c in o.classification where stages.contains(AxisTable.axis(c.axis)!.stage) { writeLine(Grading.line(c)) }
    writeLine(o.summary)
  }

  func runRepro(_ id: String, suite: VectorSuite, options: RunOptions) throws {
    guard let v = suite.vectors.first(where: { $0.id == id }) else {
      throw CLIError(message: "--repro '\(id)' is not a case of the suite: expected an id as the report lists them")
    }
    let session = Session(command: options.testee, timeoutMs: options.timeoutMs, allowBatch: false)
    session.keepLines = true
    let o = try conformCall { () throws(ConformanceError) in try ConformRunner.run([v], options: options, session: session) }
    let r = o.results[0]
    writeLine(Shown.terminal("request:  \(session.sentLines.first ?? "(not sent: \(r.reason ?? ""))")"))
    writeLine(Shown.terminal("answer:   \(session.answerLines.first ?? "(none)")"))
    writeLine("expected: \(JSONValue.oneLine(r.expected)) (under \(AxisTable.key(Grading.effective(o.semantics), axes: v.axes)))")
    writeLine(Shown.terminal("\(r.verdict.rawValue)\(r.reason.map { ": \($0)" } ?? "")"))
    if r.verdict != .passed { Glibc.exit(1) }
  }

  /// Says which of the suite, --stages and --shard left nothing to run.
  func emptySelection(_ suite: VectorSuite, stages stageList: [Stage]?) -> String {
    if suite.vectors.isEmpty { return "the selection is empty: \(vectors.map { "--vectors '\($0)'" } ?? "the suite") holds no case" }
    let byStages = ConformRunner.select(suite, stages: stageList, shard: nil)
    if byStages.isEmpty, let stages { return "the selection is empty: --stages \(stages) matches no case of \(vectors.map { "--vectors '\($0)'" } ?? "the suite")" }
    return "the selection is empty: --shard \(shard ?? "") selects none of the \(byStages.count) cases\(stages.map { " of --stages \($0)" } ?? "")"
  }

  func parseStages(_ s: String) throws -> [Stage] {
    try s.split(separator: ",").map { name in
      guard let st = Stage(rawValue: String(name)) else {
        throw CLIError(message: "--stages '\(name)' is unknown: expected \(Stage.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      return st
    }
  }

  func parseShard(_ s: String) throws -> (k: Int, n: Int) {
    let p = s.split(separator: "/").map { Int($0) }
    guard p.count == 2, let k = p[0], let n = p[1], n >= 1, (1...n).contains(k) else {
      throw CLIError(message: "--shard '\(s)' is not K/N with 1 ≤ K ≤ N")
    }
    return (k, n)
  }

  func writeReport(_ html: String, to dir: String) throws {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), !isDir.boolValue {
      throw CLIError(message: "--report '\(dir)' is a file: expected a directory")
    }
    do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
      throw CLIError(message: "--report '\(dir)' cannot be created: \(error.localizedDescription)")
    }
    try conformCall { () throws(ConformanceError) in
      do { try AtomicFile.write(html, to: dir + "/index.html") } catch { throw .usage("cannot write --report '\(dir)': \(error)") }
    }
  }
}

