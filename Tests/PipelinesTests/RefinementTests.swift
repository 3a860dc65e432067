import Detection
import Foundation
import Scoring
import Synth
import Testing
@testable import Pipelines
@testable import Harness

/// The refinement plumbing with constant refiners (Fixtures/README.md): which
/// candidates reach the refiner, how its offsets map back to photo pixels, the
/// accept threshold, merging, and that faces keep the profile's threshold.
struct RefinementTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// A default-look 1280x960 photo (2 original pixels per input pixel) and its
  /// true boxes as candidates, plus a wide duplicate of the first arrow 2 input
  /// px away (IoU < 0.5, so NMS keeps both) and one faint candidate below the
  /// profile's threshold but above the refiner's.
  func request(refiner: String?) throws -> (RunRequest, GroundTruth) {
    var spec = SceneSpec(face: "10_zone", seed: 7_000_003, size: ImageSize(width: 1280, height: 960), arrowCount: 4)
    spec.camera.tiltDeg = 10
    let synth = try Synthesizer.render(spec)
    let arrows = synth.truth.arrows(in: .shafts)
    let profile = try PlatformProfile.named("android")
    let mapping = profile.mapping(width: 1280, height: 960)
    var boxes = truthBoxes(arrows, targetBox: synth.truth.targetBox, mapping: mapping, confidences: [0.9])
    let first = boxes[0]
    boxes.append(RawBox(cx: first.cx + 2, cy: first.cy, w: first.w * 4, h: first.h * 4, confidence: 0.6))
    boxes.append(RawBox(cx: 20, cy: 100, w: 10, h: 10, confidence: profile.confidence / 2))
    var req = RunRequest(image: synth.image, profile: profile, face: try FaceCatalog.face(named: "10_zone"),
                         rule: .inclusive, detector: .boxes(boxes), expectedArrows: arrows.count)
    // accept 0.5: between the two constant refiners' 0.2 and 0.9, whatever the shipped
    // setting; merge 3 input px, so the wide duplicate 2 px away is one arrow with the first
    var settings = RefinerSettings.shipped
    settings.accept = 0.5
    settings.mergeInputPx = 3
    // the fixtures answer the same map whatever they are shown, which no view turns back
    // into one answer: their windows are read once
    settings.views = 1
    req.refiner = try refiner.map { try ArrowRefiner(contentsOf: Self.fixtures.appendingPathComponent($0).path, settings: settings) }
    return (req, synth.truth)
  }

  @Test func withoutARefinerTheProfileThresholdRules() throws {
    let (req, truth) = try request(refiner: nil)
    let r = try ArcheryPipeline.run(req)
    // the faint candidate is dropped; the wide duplicate survives NMS
    #expect(r.detections.count == truth.arrows(in: .shafts).count + 1)
  }

  @Test func keptCandidatesMoveByTheOffsetAndMerge() throws {
    let (req, truth) = try request(refiner: "refiner-keep-shift.onnx")
    let r = try ArcheryPipeline.run(req)
    let arrows = truth.arrows(in: .shafts)
    #expect(r.target != nil)
    // every true arrow once (the duplicate merged into it) plus the faint candidate, now kept
    #expect(r.detections.count == arrows.count + 1)
    for t in arrows {
      let d = try #require(r.detections.min { hypot(Double($0.pixelX) - t.pixelX - 4, Double($0.pixelY) - t.pixelY + 2)
          < hypot(Double($1.pixelX) - t.pixelX - 4, Double($1.pixelY) - t.pixelY + 2) })
      // (+2, -1) input px = (+4, -2) photo px
      #expect(abs(Double(d.pixelX) - t.pixelX - 4) < 0.01 && abs(Double(d.pixelY) - t.pixelY + 2) < 0.01)
      #expect(d.confidence == Double(Float(0.9)))
    }
  }

  /// The shipped refiner looks at windows on several threads (one replica of
  /// the model each) and answers exactly as on one.
  @Test func windowsOnSeveralThreadsGiveTheSameArrows() throws {
    var (req, _) = try request(refiner: nil)
    req.refiner = try ArrowRefiner(contentsOf: EvalPaths.models.appendingPathComponent("arrow-refiner.onnx").path)
    var results: [[Double]] = []
    for threads in [1, 2, 3] {
      req.threads = threads
      let r = try ArcheryPipeline.run(req)
      results.append(r.detections.flatMap { [Double($0.pixelX), Double($0.pixelY), $0.confidence] })
    }
    #expect(!results[0].isEmpty && results[1] == results[0] && results[2] == results[0])
  }

  @Test func rejectedCandidatesLeaveNoArrowsButTheFace() throws {
    let (req, _) = try request(refiner: "refiner-reject.onnx")
    let r = try ArcheryPipeline.run(req)
    #expect(r.detections.isEmpty)
    #expect(r.target?.method.hasPrefix("ring-edges") == true)
  }
}

extension RefinementTests {
  /// A scenario's `detector.refiner` reaches every profile's run (read in one
  /// view: the constant refiner's shift would average away over mirrors).
  @Test func scenarioRefinerAppliesToEveryProfile() throws {
    let path = Self.fixtures.appendingPathComponent("refiner-keep-shift.onnx").path
    let s = try ArcheryScenario.decode(PipelineTests.base + """

      arrows:
        - {x: 0.0, y: 0.02}
        - {x: 0.3, y: -0.2}
      detector: {source: truth, refiner: '\(path)'}
      """, path: "t.yaml")
    let out = try ScenarioRunner.run(s, id: "t", workDir: NSTemporaryDirectory())
    #expect(out.runs.count == 2)
    for run in out.runs {
      #expect(run.result.detections.count == 2)
      for (d, t) in zip(run.result.detections, try #require(out.truth).arrows) {
        // 640x480 photo: one photo pixel per input pixel, so the shift is (+2, -1)
        #expect(abs(Double(d.pixelX) - t.pixelX - 2) < 0.01 && abs(Double(d.pixelY) - t.pixelY + 1) < 0.01, "\(run.profile)")
      }
    }
  }
}

/// The repository's shipped models, for tests that run them.
enum EvalPaths {
  static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Models")
}
