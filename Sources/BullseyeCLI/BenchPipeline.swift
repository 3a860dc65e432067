import Adjustment
import ArgumentParser
import Core
import Detection
import Foundation
import Persistence
import Pipelines
import Scoring
import Synth

/// `bullseye bench pipeline`: per-stage time on one synthesized photo.
struct PipelineBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "pipeline", abstract: "Per-stage and end-to-end time of the archery pipeline on one photo.", discussion: "Example: bullseye bench pipeline --size 1280x960")
  @Option(help: "Image size WIDTHxHEIGHT.", transform: ImageSize.argument) var size = ImageSize(width: 1280, height: 960)
  @Option(name: .customLong("repeat")) var repeat_: Int = 10
  @Flag var json = false

  func validate() throws {
    guard (1...1000).contains(repeat_) else { throw ValidationError( "--repeat \(repeat_) is out of range: expected 1...1000") }
  }

  func run() throws {
    let s = size
    var spec = SceneSpec(face: "10_zone", seed: 7, size: s, arrowCount: 6)
    spec.camera.tiltDeg = 15
    let synth = try Synthesizer.render(spec)
    let face = synth.truth.scene.face
    let profile = try PlatformProfile.named("ios")
    let mapping = profile.mapping(width: s.width, height: s.height)
    var boxes = synth.truth.arrows.map { a in
      mapping.toInput(PixelBox(x: a.box[0], y: a.box[1], width: a.box[2] - a.box[0], height: a.box[3] - a.box[1]), confidence: 0.9, classID: 0)
    }
    let t = synth.truth.targetBox
    boxes.append(mapping.toInput(PixelBox(x: t[0], y: t[1], width: t[2] - t[0], height: t[3] - t[1]), confidence: 0.95, classID: 1))
    // 8400 candidates as a real export gives: the true boxes plus low-confidence background anchors.
    var g = SeededGenerator(seed: 1)
    while boxes.count < 8400 { boxes.append(RawBox(cx: g.uniform(0...640), cy: g.uniform(0...640), w: 8, h: 8, confidence: g.uniform(0...0.2))) }
    let settings = DetectionSettings(confidenceThreshold: profile.confidence, nms: profile.nms, iouThreshold: profile.iou, mapping: mapping)
    let clock = ContinuousClock()
    var stages: [(String, [Duration])] = []
    func time(_ name: String, _ body: () throws -> Void) rethrows {
      var samples: [Duration] = []
      try body()
      for _ in 0..<repeat_ { samples.append(try clock.measure(body)) }
      stages.append((name, samples))
    }
    var det = DetectionStage.run(boxes, settings: settings)
    time("detect: threshold + NMS + flip (8400 candidates)") { det = DetectionStage.run(boxes, settings: settings) }
    let tb = det.targets[0].box
    let hint = FittedEllipse(cx: tb.centerX, cy: tb.centerY, a: tb.width / 2, b: tb.height / 2, angleDeg: 0)
    let lines = face.lineWidth(diameterCm: synth.truth.scene.diameterCm)
    var fit = TargetLocator.locate(synth.image, face: face, hint: hint, lineWidth: lines)
    time("locate: ring-edge ellipse fit") { fit = TargetLocator.locate(synth.image, face: face, hint: hint, lineWidth: lines) }
    time("score: normalize + score 6 arrows") {
      for d in det.arrows {
        let n = fit.normalize(Double(d.centerX), Double(d.centerY))
        _ = Scorer.scoreUnchecked(ScoreRequest(face: face, x: n.0, y: n.1, precision: .float32Native))
      }
    }
    let editable = det.arrows.enumerated().map { EditableArrow(id: String($0), x: 0.1, y: 0.1, isManual: false, confidence: $1.confidence) }
    time("adjust: 20-step drag + confirm") {
      let steps: [Gesture] = (1...20).map { .dragChanged(arrow: 0, translation: Double2(Double($0), 0)) } + [.dragEnded(arrow: 0), .confirm]
      _ = AdjustmentStage.run(AdjustmentInput(detected: editable, expected: 6, gestures: steps),
                              adjuster: Adjuster(drag: .startPlusTranslation, ids: ArrowIDs(style: .int, seed: 0)),
                              face: face, rule: .inclusive, diameterCm: 122, arrowMM: 5.5)
    }
    let db = NSTemporaryDirectory() + "bullseye-bench-\(getpid()).sqlite"
    let store = try RoundStore(path: db)
    let round = try store.createRound(name: "bench", face: face.id, arrowsPerEnd: 6, ends: 1, createdAt: "bench")
    try time("persist: 6 saveArrowScore transactions") {
      for a in 1...6 { try store.saveArrowScore(round: round, end: 1, arrow: a, score: 9, isX: false, x: 0.15, y: 0) }
    }
    var req = RunRequest(image: synth.image, profile: profile, face: face, detector: .boxes(boxes), expectedArrows: 6)
    req.gestures = [.confirm]
    try time("end to end (no model): detect → … → confirm") { _ = try ArcheryPipeline.run(req) }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
    let e2e = medianMS(stages.last!.1)
    if json {
      var fields: [String: JSONValue] = ["size": .string(s.description), "photos_per_second": .double(1000 / e2e)]
      fields["stages_ms"] = .object(Dictionary(uniqueKeysWithValues: stages.map { ($0.0, .double(medianMS($0.1))) }))
      print(try JSONValue.object(fields).canonicalText(), terminator: "")
    } else {
      for (name, samples) in stages { print("\(name): \(String(format: "%.3f", medianMS(samples))) ms") }
      print("end to end: \(String(format: "%.1f", 1000 / e2e)) photos/s at \(s) (model inference not included: time it with `bullseye model run Models/arrow-detector.onnx --image PHOTO`)")
    }
  }
}
