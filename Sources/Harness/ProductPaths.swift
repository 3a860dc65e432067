import Foundation

/// Files that ship with Bullseye (the models), found from the executable's
/// own location, never from the working directory: a checkout's
/// `.build/release/bullseye` finds `Models/` at the checkout root; an install
/// under `PREFIX/bin` finds `PREFIX/share/bullseye/Models/`.
public enum ProductPaths {
  /// The running executable's directory (`/proc/self/exe`, resolved).
  public static let executableDirectory: URL = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
  }()

  /// The models Bullseye ships, with what each is for (`model list`).
  public static let shippedModels: [(name: String, role: String)] = [
    ("arrow-detector.onnx", "arrow detector (run archery, eval archery)"),
    ("arrow-refiner.onnx", "arrow refiner, the second look (--refiner, --profile best)"),
    ("setcards-detector.onnx", "card detector (run setcards, eval setcards)"),
    ("setcards-classifier.onnx", "card classifier (run setcards, eval setcards)"),
  ]

  /// `BULLSEYE_MODELS` when set: the only folder the defaults are read from.
  public static var override: String? {
    ProcessInfo.processInfo.environment["BULLSEYE_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Every path `Models/<name>` is looked for at, in order: `$BULLSEYE_MODELS/<name>`
  /// alone when the variable is set; otherwise `Models/` and `share/bullseye/Models/`
  /// beside the executable and up to five folders above it.
  public static func candidates(_ name: String) -> [String] {
    if let dir = override { return [URL(fileURLWithPath: dir).appendingPathComponent(name).path] }
    var dir = executableDirectory, out: [String] = []
    for _ in 0..<6 {
      out += [dir.appendingPathComponent("Models/" + name).path, dir.appendingPathComponent("share/bullseye/Models/" + name).path]
      dir.deleteLastPathComponent()
    }
    return out
  }

  /// `Models/<name>` of the installed product, or nil when none is found.
  public static func model(_ name: String) -> String? {
    candidates(name).first { FileManager.default.fileExists(atPath: $0) }
  }

  /// Where `Models/<name>` was looked for, for the error when it is missing
  /// (never a path that exists, so a caller checking it falls through to its error).
  public static func expected(_ name: String) -> String {
    if let dir = override { return "\(name) (BULLSEYE_MODELS=\(dir))" }
    return "Models/\(name) (searched upward from \(executableDirectory.path))"
  }
}
