import Foundation
import Imaging
import Synth
import Testing
@testable import Harness
@testable import Pipelines

/// Boxes far off the face (a stand's bolt, a post, grass on a real photo):
/// the apps score them as misses; `best` drops them; `--keep-outside` marks them.
struct OutsideImpactTests {
  static let scene = PipelineTests.base + "\n" + """
    arrow_count: 3
    detector: {boxes: [{cx: 30, cy: 110, w: 12, h: 12, confidence: 0.9}]}

    """

  static func run(_ outside: OutsideImpacts) throws -> RunResult {
    let s = try ArcheryScenario.decode(scene, path: "o.yaml")
    let synth = try Synthesizer.render(s.scene)
    var p = try PlatformProfile.named("android")
    p.outside = outside
    let det = try ScenarioRunner.detector(s, truth: synth.truth, profile: p, image: synth.image)
    let req = RunRequest(image: synth.image, profile: p, face: synth.truth.scene.face, diameterCm: synth.truth.scene.diameterCm,
                         rule: .inclusive, detector: det, expectedArrows: 3)
    return try ArcheryPipeline.run(req)
  }

  @Test func farOffBoxesAreScoredDroppedOrMarked() throws {
    let keep = try Self.run(.keep), drop = try Self.run(.drop), mark = try Self.run(.mark)
    #expect(keep.detections.count == 4 && keep.detections.contains { $0.score.label == "M" })
    #expect(!keep.detections.contains { $0.outside })
    #expect(drop.detections.count == 3 && !drop.detections.contains { $0.score.label == "M" })
    #expect(mark.detections.count == 4 && mark.detections.filter(\.outside).count == 1)
    #expect(mark.detections.first { $0.outside }?.score.label == "M")
  }

  @Test func theBestProfileRefinesAndDropsTheAppsDoNeither() throws {
    let best = try PlatformProfile.named("best")
    #expect(best.refine && best.outside == .drop && best.preprocess == "letterbox" && best.iou == 0.5)
    for app in ["ios", "android"] {
      let p = try PlatformProfile.named(app)
      #expect(!p.refine && p.outside == .keep, "\(app) must stay faithful to the app")
    }
  }

  /// Just off the face (within one outer ring width) is still a real miss, never dropped.
  @Test func aMissJustOffTheFaceIsKept() throws {
    let face = try Synthesizer.render(try ArcheryScenario.decode(Self.scene, path: "o.yaml").scene).truth.scene.face
    var p = try PlatformProfile.named("best")
    p.refine = false
    let req = RunRequest(image: RGBA8Image(unchecked: 1, height: 1, pixels: [0, 0, 0, 255]), profile: p, face: face, diameterCm: 122, rule: .inclusive, detector: .none, expectedArrows: 1)
    #expect(!ArcheryPipeline.isFarOutside(x: 1.05, y: 0, req))
    #expect(ArcheryPipeline.isFarOutside(x: 1.15, y: 0, req))
  }
}
