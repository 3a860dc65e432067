import ArgumentParser
import Core
import Foundation
import Harness

/// `bullseye verify`: the main job — every scenario against its goldens.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Run scenarios and diff every output against Golden/; write Renders/report.html, Renders/junit.xml and Renders/report.json.", discussion: "Example: bullseye verify Scenarios/archery --filter x-edge --report Renders/x-edge")

  @Argument(help: "Scenario files or folders (default: the scenario root).") var paths: [String] = []
  @Option(help: "What to do with differences (forced to verify when CI is set).") var mode: GoldenMode = .verify
  @Option(help: "Only scenarios whose id, kind or path contains this.") var filter: String?
  @Option(help: "Run shard k of n (deterministic by id hash), e.g. 1/4.") var shard: String?
  @Option(parsing: .unconditional, help: "Scenarios run at once.") var jobs: Int = 2
  @Option(help: "Report folder (default: Renders; a shard writes to Renders/shard-K-of-N so shards started at once never overwrite each other).")
  var report: String?
  @Option(help: "Golden folder.") var golden: String = "Golden"
  @Option(name: .customLong("scenario-root"), help: "Scenario tree that file references must stay inside (default: Scenarios).") var scenarioRootFlag: String?
  @Flag(help: "Delete orphan goldens (only on unfiltered, unsharded runs).") var prune = false
  @Option(parsing: .unconditional, help: "Threads each scenario's models run on (default: the CPUs this process may use, shared among --jobs).")
  var threads: Int?

  func validate() throws {
    // --prune judges orphans on the whole tree; a subset run must never delete anything.
    if prune, filter != nil || shard != nil || !paths.isEmpty {
      throw ValidationError("--prune cannot go with \(filter != nil ? "--filter" : shard != nil ? "--shard" : "scenario paths"): pruning needs a full, unfiltered, unsharded run")
    }
    guard (1...64).contains(jobs) else { throw ValidationError("--jobs \(jobs) is out of range: expected 1...64") }
    if let threads, !(1...256).contains(threads) { throw ValidationError("--threads \(threads) is out of range: expected 1...256") }
    if let shard {
      let parts = shard.split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
        throw ValidationError("--shard '\(shard)' is not k/n with 1 ≤ k ≤ n: expected e.g. 1/4")
      }
    }
  }

  /// The golden folder and scenario root must be folders (the golden one may be
  /// new), and the report may not land inside either: a report written into
  /// Golden/ID turned that scenario's goldens stale.
  static func checkFolders(golden: String, scenarioRoot: String, given: Bool, report: String) throws {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    if fm.fileExists(atPath: golden, isDirectory: &isDir), !isDir.boolValue {
      throw CLIError(message: "--golden '\(golden)' is a file: expected a folder of goldens")
    }
    guard !given || fm.fileExists(atPath: scenarioRoot, isDirectory: &isDir) && isDir.boolValue else {
      throw CLIError(message: "--scenario-root '\(scenarioRoot)' is not a folder: expected the scenario tree")
    }
    func resolved(_ p: String) -> String { URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path }
    let r = resolved(report)
    for (flag, root) in [("--golden", golden), ("--scenario-root", scenarioRoot)] {
      let g = resolved(root)
      if r == g || r.hasPrefix(g + "/") {
        throw CLIError(message: "--report '\(report)' lies inside \(flag) '\(root)': expected a folder outside it (a report there mixes with what verify reads)")
      }
    }
  }

  /// The scenario tree: the flag's, or Scenarios.
  var scenarioRoot: String { scenarioRootFlag ?? "Scenarios" }

  func run() throws {
    var o = VerifyOptions()
    o.mode = mode
    o.inputs = paths.isEmpty ? [scenarioRoot] : paths
    o.scenarioRoot = scenarioRoot
    o.goldenRoot = golden
    o.filter = filter
    o.prune = prune
    o.jobs = jobs
    o.threads = threads ?? ProcessorCount.perJob(jobs)
    if let shard {
      let parts = shard.split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
        throw CLIError(message: "--shard '\(shard)' is not k/n with 1 ≤ k ≤ n: expected e.g. 1/4")
      }
      o.shard = (parts[0], parts[1])
    }
    let report = report ?? o.shard.map { "Renders/shard-\($0.k)-of-\($0.n)" } ?? "Renders"
    o.reportDir = report
    try Self.checkFolders(golden: golden, scenarioRoot: scenarioRoot, given: scenarioRootFlag != nil, report: report)
    let ci = ProcessInfo.processInfo.environment["CI"].map { !["", "0", "false"].contains($0.lowercased()) } ?? false
    o.ci = ci || ProcessInfo.processInfo.environment["TF_BUILD"] != nil
    // The run writes into a staging folder inside the report folder and moves it into place
    // at the end; on failure the staging folder goes (and the report folder, if this run made it).
    let fm = FileManager.default
    let created = !fm.fileExists(atPath: report)
    try OutputPaths.makeDirectory(report)
    let staging = report + "/.staging-\(getpid())"
    try? fm.removeItem(atPath: staging)
    try OutputPaths.makeDirectory(staging)
    o.reportDir = staging
    var placed = false
    defer {
      try? fm.removeItem(atPath: staging)
      if !placed, created { try? fm.removeItem(atPath: report) }
    }
    let result: VerifyReport
    do {
      result = try Verifier.run(o) { line in writeLine(line) }
      try Reports.write(result, to: staging, options: o)
      try ReportManifest.place(staging, into: report)
      placed = true
    } catch let e as GoldenError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) }
    for n in result.notes { writeLine(n) }
    if !result.orphans.isEmpty { writeLine("orphan goldens (no scenario): \(result.orphans.joined(separator: ", "))") }
    for v in result.verdicts where v.status == "failed" {
      writeLine(v.inputError ? "FAILED \(v.id) (\(v.file)): cannot be run" : "FAILED \(v.id) (\(v.file)); artifacts in \(report)/\(v.id)/")
      for m in v.messages.prefix(5) { writeLine("  \(m)") }
    }
    writeLine("report: \(report)/report.html, \(report)/junit.xml")
    writeLine("\(result.passed) passed, \(result.failed) failed")
    // A scenario that cannot be read or run is bad input (exit 2), named on stderr, one line each;
    // the others were still checked and are in the report.
    let unreadable = result.verdicts.filter(\.inputError)
    if !unreadable.isEmpty {
      for v in unreadable {
        let line = (v.messages.first ?? "cannot be run").split(separator: "\n").first.map(String.init) ?? ""
        // A located message (`FILE:line:col: …`) names the file already.
        let named = line.hasPrefix(v.file + ":") ? line : "\(v.file): \(line)"
        FileHandle.standardError.write(Data("error: \(named)\n".utf8))
      }
      throw ExitCode(2)
    }
    if result.exitCode != 0 { throw ExitCode(1) }
  }
}
