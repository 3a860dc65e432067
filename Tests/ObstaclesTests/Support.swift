import Foundation
@testable import Obstacles
@testable import Harness
@testable import Synth

/// Scenario files shipped with the module, found relative to this source file.
enum ScenarioFiles {
  static let directory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast(3)  // Tests/ObstaclesTests/Support.swift
    return parts.joined(separator: "/") + "/Scenarios/obstacles"
  }()

  /// Every `*.yaml` file, sorted.
  static var paths: [String] {
    // An unreadable folder lists nothing here; the corpus-size test (at least 18 files) catches that.
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory + "/" + $0 }
  }

  /// Decodes one shipped scenario by id.
  static func load(_ id: String) throws -> ObstacleScenario {
    let path = directory + "/" + id + ".yaml"
    return try ObstacleScenario.decode(try String(contentsOfFile: path, encoding: .utf8), path: path)
  }

  /// Runs one shipped scenario by id.
  static func run(_ id: String) throws -> ObstacleResult {
    try ObstacleResult.run(try load(id))
  }
}

/// A scenario of one or more single-object frames, for focused tests.
func scenario(_ frames: [ObstacleFrame], semantics: ObstacleSemantics = .batsight, modes: [ModeEvent] = [])
  -> ObstacleScenario
{
  var s = ObstacleScenario(id: "test", seed: 7)
  s.frames = frames
  s.objects = frames.map { _ in [] }
  s.semantics = semantics
  s.modes = modes
  return s
}

/// A frame with one Vision object and the same box as its only YOLO box.
func objectFrame(_ t: Double, _ label: String = "chair", box: NormalizedBox, confidence: Double = 0.9)
  -> ObstacleFrame
{
  ObstacleFrame(
    time: t, vision: [VisionObservation(source: .objects, label: label, confidence: confidence, box: box)],
    yolo: [YOLOBox(confidence: 0.8, box: box)])
}

/// `[x, y, w, h]` shorthand.
func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> NormalizedBox {
  NormalizedBox(x: x, y: y, width: w, height: h)
}
