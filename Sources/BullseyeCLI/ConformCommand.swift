import ArgumentParser
import Conformance
import Core

#if canImport(Glibc)
  import Glibc
#endif

/// `bullseye conform`: run any implementation against Bullseye's semantics.
struct ConformCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "conform", abstract: "Conformance: export vectors, run a testee, or serve as a testee (docs/conformance.md).", discussion: "Example: bullseye conform run --testee 'bash Testees/python-archeryutils/run.sh' --report Renders/conform",
    subcommands: [ConformRun.self, ConformExport.self, ConformTestee.self])
}

/// `bullseye conform export DIR`.
struct ConformExport: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the built-in suite as JSON vector files.", discussion: "Example: bullseye conform export vectors/")
  @Argument(help: "Directory to write (must be empty or new).") var dir: String
  @Flag(help: "Replace DIR whole if it is not empty.") var force = false

  func run() throws {
    let suite = try conformCall { () throws(ConformanceError) in try VectorSuite.builtIn() }
    try conformCall { () throws(ConformanceError) in try VectorFiles.export(suite, to: dir, force: force) }
    writeLine("wrote \(suite.vectors.count) cases in \(suite.groups.count) files to \(dir) (suite \(suite.version))")
  }
}

/// `bullseye conform testee`.
struct ConformTestee: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "testee", abstract: "Speak the protocol on stdin/stdout with Bullseye's library behind it.", discussion: "Example: bullseye conform run --testee 'bullseye conform testee'")
  @Option(help: "What it computes with: axis=value,… (defaults: the seeds' iOS camera path).") var semantics: String = ""
  @Option(help: "What it declares instead (axis=value,…), to show a wrong declaration being caught.") var declare: String?
  @Flag(help: "Do not offer run_batch.") var noBatch = false

  func run() throws {
    let computed = try parseSemantics(semantics, flag: "--semantics")
    let declared = try declare.map { try parseSemantics($0, flag: "--declare") }
    let server = TesteeServer(semantics: computed, declared: declared.map { Grading.effective(computed).merging($0) { $1 } }, batch: !noBatch)
    server.serve()
  }
}

/// `axis=value,…` → semantics, every name checked.
func parseSemantics(_ text: String, flag: String) throws -> Semantics {
  var out: Semantics = [:]
  for pair in text.split(separator: ",") where !pair.isEmpty {
    let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
    guard kv.count == 2, let axis = AxisTable.axis(kv[0]) else {
      throw CLIError(message: "\(flag) '\(pair)' is not axis=value: expected axes \(AxisTable.all.map(\.name).joined(separator: ", "))")
    }
    guard axis.values.contains(kv[1]) else {
      throw CLIError(message: "\(flag) \(kv[0])=\(kv[1]) is unknown: expected one of \(axis.values.joined(separator: ", "))")
    }
    out[kv[0]] = kv[1]
  }
  return out
}

/// Runs a Conformance call, turning its typed error into the CLI's one-line error.
@discardableResult
func conformCall<T>(_ body: () throws(ConformanceError) -> T) throws -> T {
  do { return try body() } catch { throw CLIError(error) }
}
