import Foundation

/// Runs the built `bullseye` executable (it sits beside the test bundle).
struct CLIRunner {
  struct Result { let status: Int32; let stdout: String; let stderr: String }

  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bullseye")
  }

  /// Runs with `args`; `env` adds or overrides environment variables for this
  /// run only; `cwd` is the working directory (default: this process's).
  /// `executable` runs another program (a wrapper such as `setpriv`) with `args`.
  static func run(_ args: [String], env: [String: String] = [:], cwd: String? = nil, executable: String? = nil) throws -> Result {
    let p = Process()
    p.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
    p.arguments = args
    if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                  stderr: String(decoding: e, as: UTF8.self))
  }

  /// A fresh empty folder for one test.
  static func scratch(_ name: String) throws -> String {
    let dir = NSTemporaryDirectory() + "bullseye-cli-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }
}
