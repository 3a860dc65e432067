import Scoring
import Testing
@testable import Fuzz

struct CampaignTests {
  func run(_ faces: [String], iterations: Int) throws -> CampaignResult {
    var o = CampaignOptions()
    o.faces = try faces.map { try FaceCatalog.face(named: $0) }
    o.iterations = iterations
    var t = 0.0
    return ScoringCampaign.run(o) { t += 1; return t }
  }

  @Test func theScorerBreaksNoPropertyAndTheKnownTrapsAreFound() throws {
    let r = try run(["10_zone"], iterations: 3000)
    #expect(r.violations.isEmpty, "\(r.violations.prefix(3))")
    #expect(r.checks > 100_000)
    // anchors/archery.md (d)4: Int(d / 0.1) at 0.3, 0.6, 0.7.
    let traps = Set(r.discrepancies.filter { $0.property == "floor-division-trap" }.map(\.distance))
    #expect(traps.isSuperset(of: [0.3, 0.6, 0.7]), "\(traps.sorted())")
    // (d)6: the Float32 X at 0.05 — a persistence discrepancy on the X boundary.
    #expect(r.discrepancies.contains { $0.property == "persistence-float32" && $0.boundary == 0.05 && $0.face == "10_zone" })
    // Float vs Double platforms disagree somewhere on the rings.
    #expect(r.discrepancies.contains { $0.property == "platform-ios-android" })
    // The kept (minimal) example of each floor trap sits on an axis, where the distance is exact.
    let floorTraps = r.discrepancies.filter { $0.property == "floor-division-trap" && [0.3, 0.6, 0.7].contains($0.distance) }
    #expect(floorTraps.count >= 3 && floorTraps.allSatisfy { min(abs($0.x), abs($0.y)) < 1e-15 })
  }

  @Test func findingsBecomeRunnableScenarios() throws {
    let r = try run(["5_zone"], iterations: 300)
    let f = try #require(r.discrepancies.first)
    let yaml = FindingReport.scenario(f, index: 7)
    #expect(yaml.contains("id: fuzz-007-\(f.property)") && yaml.contains("face: 5_zone") && yaml.contains("{tap: ["))
    #expect(FindingReport.summary(r).split(separator: "\n").count == r.violations.count + r.discrepancies.count + 2)
  }
}
