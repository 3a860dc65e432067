import Core
import Foundation
import Pipelines
@testable import Harness
import Scoring
import Testing

/// Detection-time and confirm-time arithmetic, on detections injected in face
/// coordinates (no ring fit between the point and its score).
struct PrecisionTests {
  func run(_ yaml: String, _ name: String) throws -> ScenarioOutcome {
    let work = NSTemporaryDirectory() + "bullseye-precision-\(name)-\(getpid())"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    return try ScenarioRunner.run(try ArcheryScenario.decode(yaml, path: "\(name).yaml"), id: name, workDir: work)
  }

  func yaml(face: String, precision: Precision, rule: BoundaryRule = .inclusive, spots: SpotRule = .nearest, points: [[Double]]) -> String {
    """
    id: p
    face: \(face)
    seed: 1
    size: 160x120
    profile: ios
    precision: \(precision.rawValue)
    rule: \(rule.rawValue)
    spots: \(spots.rawValue)
    scene: {noise: 0, jpeg: 0}
    arrows: []
    detector: {source: face, points: [\(points.map { "[\($0[0]), \($0[1])]" }.joined(separator: ", "))]}
    expected_arrows: \(points.count)
    """
  }

  @Test func removingTheFloat32RoundingChangesAResult() throws {
    // Float(0.1) lies outside the 10 line: only the Double path keeps the 10.
    let points = [[0.1, 0.0]]
    let double = try run(yaml(face: "10_zone", precision: .double, points: points), "double").runs[0].result.detections[0].score.score
    let float32 = try run(yaml(face: "10_zone", precision: .float32, points: points), "float32").runs[0].result.detections[0].score.score
    #expect(double == 10)
    #expect(float32 == 9)
  }

  @Test(arguments: BoundaryRule.allCases) func detectionAndConfirmAgreeForUnmovedArrowsAwayFromLines(_ rule: BoundaryRule) throws {
    var g = SeededGenerator(seed: 77)
    for (face, spots) in [("10_zone", SpotRule.nearest), ("wa_vegas_3_spot", .nearest), ("wa_vegas_3_spot", .sequential)] {
      let f = try FaceCatalog.face(named: face)
      // Points at least 1e-6 (spot units) from every boundary, so Float positions cannot change a verdict.
      var points: [[Double]] = []
      while points.count < 6 {
        let s = f.spots[points.count % f.spots.count]
        let r = g.uniform(0...1.05), a = g.uniform(0...(2 * .pi))
        let bounds = f.zones.flatMap { [$0.radius, $0.radius + 5.5 / 2 / f.spotRadiusMM(diameterCm: f.diametersCm[0])] }
          + (1...Int((1 / f.floorUnit).rounded())).map { Double($0) * f.floorUnit }
        guard bounds.allSatisfy({ abs($0 - r) > 1e-6 }) else { continue }
        points.append([s.x + r * s.radius * cos(a), s.y + r * s.radius * sin(a)])
      }
      let out = try run(yaml(face: face, precision: .double, rule: rule, spots: spots, points: points), "agree-\(rule.rawValue)-\(spots.rawValue)")
      let result = out.runs[0].result
      let detected = result.detections.map { [$0.score.score, $0.score.isX ? 1 : 0] }
      let confirmed = (result.confirmed ?? []).map { [$0.score, $0.isX ? 1 : 0] }
      #expect(!detected.isEmpty)
      #expect(detected == confirmed, "\(face) \(rule) \(spots)")
    }
  }
}
