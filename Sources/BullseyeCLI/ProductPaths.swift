import ArgumentParser
import Foundation
import Imaging
import Inference

/// Files that ship with Bullseye (the models), found from the executable's
/// own location, never from the working directory: a checkout's
/// `.build/release/bullseye` finds `Models/` at the checkout root; an install
/// under `PREFIX/bin` finds `PREFIX/share/bullseye/Models/`.
enum ProductPaths {
  /// The running executable's directory (`/proc/self/exe`, resolved).
  static let executableDirectory: URL = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
  }()

  /// The models Bullseye ships, with what each is for (`model list`).
  static let shippedModels: [(name: String, role: String)] = [
    ("arrow-detector.onnx", "arrow detector (run archery, eval archery)"),
    ("arrow-refiner.onnx", "arrow refiner, the second look (--refiner, --profile best)"),
    ("setcards-detector.onnx", "card detector (run setcards, eval setcards)"),
    ("setcards-classifier.onnx", "card classifier (run setcards, eval setcards)"),
  ]

  /// `BULLSEYE_MODELS` when set: the only folder the defaults are read from.
  static var override: String? {
    ProcessInfo.processInfo.environment["BULLSEYE_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Every path `Models/<name>` is looked for at, in order: `$BULLSEYE_MODELS/<name>`
  /// alone when the variable is set; otherwise `Models/` and `share/bullseye/Models/`
  /// beside the executable and up to five folders above it.
  static func candidates(_ name: String) -> [String] {
    if let dir = override { return [URL(fileURLWithPath: dir).appendingPathComponent(name).path] }
    var dir = executableDirectory, out: [String] = []
    for _ in 0..<6 {
      out += [dir.appendingPathComponent("Models/" + name).path, dir.appendingPathComponent("share/bullseye/Models/" + name).path]
      dir.deleteLastPathComponent()
    }
    return out
  }

  /// `Models/<name>` of the installed product, or nil when none is found.
  static func model(_ name: String) -> String? {
    candidates(name).first { FileManager.default.fileExists(atPath: $0) }
  }

  /// Where `Models/<name>` was looked for, for the error when it is missing
  /// (never a path that exists, so a caller checking it falls through to its error).
  static func expected(_ name: String) -> String {
    if let dir = override { return "\(name) (BULLSEYE_MODELS=\(dir))" }
    return "Models/\(name) (searched upward from \(executableDirectory.path))"
  }

  /// The shipped `name`, or a usage error naming where it was looked for.
  static func require(_ name: String) throws -> String {
    guard let path = model(name) else { throw CLIError(message: "\(expected(name)) not found; set BULLSEYE_MODELS=DIR or give the file on the command line") }
    return path
  }
}

/// `--orientation apply|ignore` (the semantics lives in Imaging).
extension OrientationSemantics: ExpressibleByArgument {}

/// Reads a user's photo (PNG, JPEG or HEIC, by content); errors name the flag and the file.
func readPhoto(_ path: String, flag: String) throws -> Photo {
  do { return try ImageFile.read(path: path) } catch { throw CLIError(message: "\(flag) '\(path)': \(error)") }
}

/// Loads a detector model up front so a missing, truncated or wrong-shaped
/// file is a usage error (exit 2), not a note inside the result.
func loadDetector(_ path: String, flag: String) throws -> InferenceModel {
  let m: InferenceModel
  do { m = try InferenceModel(contentsOf: path) } catch { throw CLIError(message: "\(flag) '\(path)': \(error)") }
  guard let input = m.inputs.first, let output = m.outputs.first else {
    throw CLIError(message: "\(flag) '\(path)' has no inputs or outputs: expected one image input [1, 3, H, W] and one output")
  }
  if let shape = input.shape, shape.count != 4 || shape[1] != .value(3) {
    throw CLIError(message: "\(flag) '\(path)' takes input \(shape): expected an image [1, 3, H, W]")
  }
  if let shape = output.shape, shape.count != 3 {
    throw CLIError(message: "\(flag) '\(path)' gives output \(shape): expected detections [1, channels, anchors]")
  }
  return m
}
