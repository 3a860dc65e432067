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
