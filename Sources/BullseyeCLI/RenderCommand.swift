import ArgumentParser
import Canvas
import Core
import Foundation
import Golden
import Synth

/// `bullseye render`: run scenarios and write their outputs and overlays for
/// review, without checking anything.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Run scenario files and write their outputs and overlays under DIR/<id>/ for review (no golden checks).")

  @Argument(help: "Scenario files or folders (default: Scenarios).") var paths: [String] = ["Scenarios"]
  @Option(help: "Output folder.") var out: String = "Renders"
  @Option(name: .customLong("scenario-root")) var scenarioRoot: String = "Scenarios"

  func run() throws {
    try OutputPaths.makeDirectory(out)
    do {
      for line in try Verifier.render(paths, root: scenarioRoot, out: out) { print(line) }
    } catch { throw CLIError(message: "\(error)") }
  }
}

/// Finding and loading scene files.
enum SceneFiles {
  static func collect(_ paths: [String]) throws -> [String] {
    var out: [String] = []
    for p in paths {
      var isDir: ObjCBool = false
      guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else {
        throw CLIError(message: "path '\(p)' does not exist: expected a scene file or folder")
      }
      if isDir.boolValue {
        let items = FileManager.default.enumerator(atPath: p)?.compactMap { $0 as? String } ?? []
        out += items.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { p + "/" + $0 }
      } else {
        out.append(p)
      }
    }
    return out
  }

  static func load(_ file: String) throws -> SceneSpec {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw CLIError(message: "scene file '\(file)' cannot be read")
    }
    do { return try SceneFile.decode(text, path: file) } catch { throw CLIError(error) }
  }

  /// The scene's id: its `id` key, else the file name without extension.
  static func id(of file: String) throws -> String {
    let spec = try load(file)
    let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let id = spec.id ?? base
    guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !id.hasPrefix(".") else {
      throw CLIError(message: "scene id '\(id)' in \(file) is not a plain name: expected letters, digits, '-', '_' or '.'")
    }
    return id
  }
}
