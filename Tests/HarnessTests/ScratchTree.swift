import Foundation
@testable import Harness

/// A throwaway scenario tree (`Scenarios/`, `Golden/`, `Renders/`) holding
/// `scenarios` (file name → YAML), with verify options pointing at it.
func scratchTree(_ name: String, scenarios: [String: String]) throws -> VerifyOptions {
  let root = NSTemporaryDirectory() + "bullseye-\(name)-\(getpid())"
  try? FileManager.default.removeItem(atPath: root)  // absent on a first run
  try FileManager.default.createDirectory(atPath: root + "/Scenarios", withIntermediateDirectories: true)
  for (file, yaml) in scenarios { try yaml.write(toFile: root + "/Scenarios/" + file, atomically: true, encoding: .utf8) }
  var o = VerifyOptions()
  o.inputs = [root + "/Scenarios"]; o.scenarioRoot = root + "/Scenarios"
  o.goldenRoot = root + "/Golden"; o.reportDir = root + "/Renders"
  return o
}

/// Three small archery scenarios (`tiny-0` … `tiny-2`, faces 10_zone, 5_zone,
/// WA_field, two arrows each); `tiny-0` is drawn at `firstSize`, the rest at 160x120.
func tinyScenarios(firstSize: String = "160x120") -> [String: String] {
  var files: [String: String] = [:]
  for (i, face) in ["10_zone", "5_zone", "WA_field"].enumerated() {
    files["tiny-\(i).yaml"] = """
      id: tiny-\(i)
      face: \(face)
      seed: \(i)
      size: \(i == 0 ? firstSize : "160x120")
      profile: ios
      scene: {noise: 0, jpeg: 0}
      arrows: [{x: 0.1, y: 0.1}, {x: -0.3, y: 0.2}]
      """
  }
  return files
}
