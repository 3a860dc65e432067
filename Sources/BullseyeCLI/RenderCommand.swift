import ArgumentParser
import Canvas
import Core
import Foundation
import Synth

/// `bullseye render`: render scene files for review (image, truth, overlay).
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render scene files into a review folder: image.png, truth.json and overlay.png per scene.")

  @Argument(help: "Scene files or folders of them (default: Scenarios).") var paths: [String] = ["Scenarios"]
  @Option(help: "Output folder.") var out: String = "Renders"

  func run() throws {
    let files = try SceneFiles.collect(paths)
    guard !files.isEmpty else { throw CLIError(message: "no scene files (*.yaml) under \(paths.joined(separator: ", "))") }
    var failed = 0
    var seen: [String: String] = [:]
    for (i, file) in files.enumerated() {
      let id = (try? SceneFiles.id(of: file)) ?? file
      do {
        if let other = seen[id] { throw CLIError(message: "duplicate scene id '\(id)' in \(file) and \(other)") }
        seen[id] = file
        let spec = try SceneFiles.load(file)
        let result = try Synthesizer.render(spec)
        let dir = out + "/" + id
        try OutputPaths.makeDirectory(dir)
        try PNG.write(result.image, to: dir + "/image.png")
        try AtomicFile.write(try result.truth.json.canonicalText(), to: dir + "/truth.json")
        try PNG.write(try TruthOverlay.draw(result.truth, on: result.image), to: dir + "/overlay.png")
        let total = result.truth.arrows.reduce(0) { $0 + $1.inclusive.score }
        print("[\(i + 1)/\(files.count)] \(id): \(result.truth.arrows.count) arrows, total \(total)")
      } catch {
        failed += 1
        print("[\(i + 1)/\(files.count)] \(id): FAILED \(error)")
      }
    }
    print("\(files.count - failed) rendered, \(failed) failed")
    if failed > 0 { throw ExitCode(2) }
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
