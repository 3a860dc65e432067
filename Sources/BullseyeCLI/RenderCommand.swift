import ArgumentParser
import Canvas
import Core
import Foundation
import Harness
import Synth

/// `bullseye render`: run scenarios and write their outputs and overlays for
/// review, without checking anything.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Run scenario files and write their outputs and overlays under DIR/<id>/ for review (no golden checks).", discussion: "Example: bullseye render Scenarios/archery/photo-exif-6-ignore.yaml --out Renders")

  @Argument(help: "Scenario files or folders.") var paths: [String] = ["Scenarios"]
  @Option(help: "Output folder.") var out: String = "Renders"
  @Option(name: .customLong("scenario-root")) var scenarioRoot: String = "Scenarios"

  func run() throws {
    // A folder this run creates is removed again when it fails: nothing half-written is left.
    let created = !FileManager.default.fileExists(atPath: out)
    try OutputPaths.makeDirectory(out)
    defer { if created, (try? FileManager.default.contentsOfDirectory(atPath: out))?.isEmpty == true { try? FileManager.default.removeItem(atPath: out) } }
    do {
      for line in try Verifier.render(paths, root: scenarioRoot, out: out) { print(line) }
    } catch { throw CLIError(message: "\(error)") }
  }
}
