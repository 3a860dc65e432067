import ArgumentParser
import Conformance
import Core
import Foundation
import Harness

/// `bullseye report`: work on report folders that verify and conform run wrote.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report", abstract: "Work on report folders (merge the folders of sharded runs).",
    discussion: "Example: bullseye report merge Renders/shard-1-of-2 Renders/shard-2-of-2 --out Renders/merged",
    subcommands: [ReportMergeCommand.self])
}

/// `bullseye report merge DIR… --out DIR`.
struct ReportMergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge", abstract: "Merge shard report folders into one page, one JUnit file and one report.json.",
    discussion: """
      Reads each folder's report.json (written by `bullseye verify` and by `bullseye conform run --report DIR`), \
      copies the verify folders' per-scenario files into --out and writes --out/report.html, junit.xml and report.json \
      with the counts an unsharded run would give. Refused (exit 2): a folder without report.json, verify and conform \
      folders mixed, conform shards of different testees, the same scenario or case id in two folders, or --out naming \
      an input folder. Exits 1 when the merged report holds failures (for conform: ones the shards' expectations did \
      not list, or a shard that was not conformant), 0 otherwise.

      Example: bullseye report merge Renders/shard-1-of-2 Renders/shard-2-of-2 --out Renders/merged
      """)

  @Argument(help: "Shard report folders, each holding a report.json.") var dirs: [String] = []
  @Option(help: "Folder to write the merged report into (created if missing).") var out: String

  func run() throws {
    guard !dirs.isEmpty else { throw CLIError(message: "no report folder given: expected one or more DIR before --out") }
    // Compared as resolved folders (device and inode where they exist), so a link to a shard is caught too.
    let outID = OutputPaths.identity(out)
    if let same = dirs.first(where: { outID != nil && OutputPaths.identity($0) == outID }) {
      throw CLIError(message: "--out '\(out)' is the input folder '\(same)': expected a folder apart from the shards")
    }
    do {
      let records = try dirs.map { d in (d, try ReportMerge.load(d)) }
      let kind = try ReportMerge.kind(records[0].1, dir: records[0].0)
      for (d, r) in records where try ReportMerge.kind(r, dir: d) != kind {
        throw CLIError(message: "'\(d)' holds a \(try ReportMerge.kind(r, dir: d)) report, '\(records[0].0)' a \(kind) report: expected folders of one command")
      }
      if kind == "verify" {
        let merged = try ReportMerge.verify(dirs, out: out)
        try finish(passed: merged.passed, failed: merged.failed)
      } else {
        try mergeConform(records)
      }
    } catch let e as GoldenError { throw CLIError(e) }
  }

  func mergeConform(_ records: [(String, JSONValue)]) throws {
    var owner: [String: String] = [:]
    for (d, r) in records {
      if let why = ConformRecord.problem(r) { throw CLIError(message: "'\(d)/report.json' \(why) (a report of bullseye conform run --report)") }
      let name = ConformRecord.testee(r), first = ConformRecord.testee(records[0].1)
      guard name == first else {
        throw CLIError(message: "'\(d)' is a report of testee '\(name ?? "?")', '\(records[0].0)' of '\(first ?? "?")': expected shards of one testee")
      }
      for id in ConformRecord.ids(r) {
        if let other = owner[id] { throw CLIError(message: "case '\(id)' is in both '\(other)' and '\(d)': expected each case in one shard") }
        owner[id] = d
      }
    }
    try OutputPaths.makeDirectory(out)
    ReportManifest.clean(out)
    let merged = ConformRecord.merge(records.map(\.1))
    do {
      try AtomicFile.write(ConformRecord.html(merged), to: out + "/report.html")
      try AtomicFile.write(ConformRecord.junit(merged), to: out + "/junit.xml")
      try AtomicFile.write(merged.canonicalText(), to: out + "/report.json")
      try ReportManifest.write(["report.html", "junit.xml", "report.json"], to: out)
    } catch { throw CLIError(message: "cannot write the merged report into '\(out)': \(error)") }
    let bad = ConformRecord.failing(merged)
    // Failures the shards' expectations listed leave the merged run conformant: exit 0 then, as each shard did.
    let unexpected = ConformRecord.failing(merged, known: false)
    try finish(passed: owner.count - bad, failed: bad, known: bad - unexpected,
               pass: unexpected == 0 && ConformRecord.conformant(merged))
  }

  /// Prints where the report went and the counts; exits 1 when the merged run did not pass.
  func finish(passed: Int, failed: Int, known: Int = 0, pass: Bool? = nil) throws {
    writeLine("report: \(out)/report.html, \(out)/junit.xml, \(out)/report.json")
    writeLine("\(passed) passed, \(failed) failed" + (known > 0 ? " (\(known) known)" : ""))
    if !(pass ?? (failed == 0)) { throw ExitCode(1) }
  }
}
