import ArgumentParser
import CBuildInfo
import Inference

#if canImport(Glibc)
  import Glibc
#endif

/// `bullseye`: golden-data verification and simulation for camera-based scoring apps.
@main
struct Bullseye: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bullseye",
    abstract: "Reproducible golden-data verification and simulation for camera-based scoring apps.",
    version: "0.2.0 (commit \(String(cString: bullseye_build_commit())))",
    subcommands: [VerifyCommand.self, FuzzCommand.self, ModelCommand.self, EvalCommand.self, ScoreCommand.self, SynthCommand.self, RenderCommand.self, RunCommand.self, ResumeCommand.self, SimulateRoundCommand.self, FacesCommand.self, BenchCommand.self, ConformCommand.self, ReportCommand.self])

  /// Every failure is one line on stderr and exit status 2; a check that found
  /// differences exits 1 with its own summary last; help and version exit 0.
  static func main() {
    do {
      var command = try parseAsRoot(LegacySpelling.rewrite(Array(CommandLine.arguments.dropFirst())))
      do { try InferenceModel.checkEnvironment() } catch { throw CLIError(message: "\(error)") }
      try command.run()
      // Printed results sit in stdout's buffer: a full disk or a closed pipe shows only when it is
      // flushed, so the flush is checked, as every file output is.
      if bullseye_stdout_failed() != 0 {
        throw CLIError(message: "standard output cannot be written: \(String(cString: strerror(errno)))")
      }
    } catch {
      // A check that ran and found differences reports them itself and exits 1 (never as an error line).
      if let e = error as? ExitCode, e != .success { Glibc.exit(e.rawValue) }
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        Glibc.exit(0)
      }
      let message = explained(oneLine(message(for: error)) ?? "\(error)")
      let line = Array("error: \(message)\n".utf8)
      _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
      Glibc.exit(2)
    }
  }
}

/// An error message on one line: ArgumentParser's "Please provide one of the
/// following:" bullet list (faces, say) joined onto it, other lines dropped.
func oneLine(_ message: String) -> String? {
  let lines = message.split(separator: "\n").map(String.init)
  guard let first = lines.first else { return nil }
  let bullets = lines.dropFirst().prefix { $0.hasPrefix("  - ") }.map { $0.dropFirst(4) }
  return bullets.isEmpty ? first : first + " " + bullets.joined(separator: ", ")
}

/// ArgumentParser's "The value 'abc' is invalid for '--threads <threads>'" with
/// what was expected added: a value that reads as a number but was refused
/// went to a whole-number option; one that does not is no number at all.
/// Messages that already list the accepted values are left as they are.
func explained(_ message: String) -> String {
  guard message.hasPrefix("The value '"), message.hasSuffix(">'"),
        let close = message.dropFirst(11).firstIndex(of: "'") else { return message }
  let value = String(message[message.index(message.startIndex, offsetBy: 11)..<close])
  return message + (Double(value) != nil ? ": expected a whole number" : ": expected a number")
}

/// A failure from a library stage, shown as its one-line description.
struct CLIError: Error, CustomStringConvertible {
  let description: String
  init(_ error: some CustomStringConvertible) { description = error.description }
  init(message: String) { description = message }
}

/// A named choice given on the command line (`--flag value`), or a one-line
/// error listing the names it accepts.
func choice<T: RawRepresentable & CaseIterable>(_ value: String, flag: String) throws -> T where T.RawValue == String {
  guard let v = T(rawValue: value) else {
    throw CLIError(message: "\(flag) '\(value)' is unknown: expected \(T.allCases.map(\.rawValue).joined(separator: " or "))")
  }
  return v
}

/// `--line-mm`: a printed ring line is at most a few mm wide (WA: 2 mm); 0 turns the offset off.
func checkLineMM(_ mm: Double) throws {
  guard mm.isFinite, (0...10).contains(mm) else { throw ValidationError("--line-mm \(mm) is out of range: expected 0...10") }
}

/// Writes one line to stdout unbuffered, so progress and commit lines appear
/// (and survive a kill) at once.
func writeLine(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
}
