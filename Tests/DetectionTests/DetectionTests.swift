import Testing
import TestSupport
@testable import Detection
import Imaging

struct DetectionTests {
  @Test func decodesUltralyticsAndSeedLayouts() throws {
    // Two anchors, 6 rows: cx, cy, w, h, s0, s1.
    let t: [Float] = [100, 200, 110, 210, 10, 20, 12, 22, 0.9, 0.1, 0.3, 0.8]
    let u = try decodeOutput(t, shape: [1, 6, 2], layout: .ultralytics)
    #expect(u[0].classID == 0 && u[0].confidence == Double(Float(0.9)))
    #expect(u[1].classID == 1 && u[1].confidence == Double(Float(0.8)))
    let s = try decodeOutput(t, shape: [1, 6, 2], layout: .seed001)
    #expect(s[0].confidence == Double(Float(0.9)) && s[0].classID == 0)  // row 5 = 0.3 → class 0
    #expect(s[1].confidence == Double(Float(0.1)) && s[1].classID == 1)
    #expect(throws: DetectionError.self) { try decodeOutput(t, shape: [1, 6, 3], layout: .ultralytics) }
    #expect(throws: DetectionError.self) { try decodeOutput(t, shape: [1, 4, 3], layout: .ultralytics) }
    #expect(throws: DetectionError.self) { try decodeOutput([Float](repeating: 0, count: 14), shape: [1, 7, 2], layout: .seed001) }
  }

  /// Numbers no detector gives (a score of 2, a box at 1e30) are a broken model, not detections.
  @Test func scoresOutsideZeroToOneAndHugeBoxesAreRefused() throws {
    let good: [Float] = [100, 200, 110, 210, 10, 20, 12, 22, 0.9, 0.1, 0.3, 0.8]
    var score = good
    score[9] = 2
    #expect { try decodeOutput(score, shape: [1, 6, 2], layout: .ultralytics) } throws: { "\($0)".contains("row 4 holds 2.0 at anchor 1") }
    var box = good
    box[0] = 1e30
    #expect { try decodeOutput(box, shape: [1, 6, 2], layout: .ultralytics) } throws: { "\($0)".contains("within ±1e6") }
    // seed 001's row 5 is a class id, not a score: 3 there is a class
    var classID = good
    classID[10] = 3
    #expect(try decodeOutput(classID, shape: [1, 6, 2], layout: .seed001)[0].classID == 3)
  }

  /// Two 10×10 boxes offset so their IoU lands just either side of a threshold.
  func pair(iouTarget: Double) -> [RawBox] {
    // Overlap along x by d: IoU = 10d / (200 − 10d) → d = 200·t / (10 + 10t).
    let d = 200 * iouTarget / (10 + 10 * iouTarget)
    return [RawBox(cx: 5, cy: 5, w: 10, h: 10, confidence: 0.9), RawBox(cx: 15 - d, cy: 5, w: 10, h: 10, confidence: 0.8)]
  }

  @Test func nmsThresholdEdges() {
    for (variant, t) in [(NMSVariant.greedySorted, 0.7), (.ultralytics, 0.5)] {
      #expect(suppress(pair(iouTarget: t - 0.0001), variant: variant, threshold: t).count == 2)
      #expect(suppress(pair(iouTarget: t + 0.0001), variant: variant, threshold: t).count == 1)
    }
    // Ultralytics keeps overlapping boxes of different classes.
    var mixed = pair(iouTarget: 0.9)
    mixed[1].classID = 1
    #expect(suppress(mixed, variant: .ultralytics, threshold: 0.5).count == 2)
    #expect(suppress(mixed, variant: .greedySorted, threshold: 0.5).count == 1)
  }

  @Test func batsightIsOrderDependentAndUnderstatesIoU() {
    // An earlier low-confidence box suppresses a later high-confidence one.
    var boxes = pair(iouTarget: 0.8)
    boxes[0].confidence = 0.2
    #expect(suppress(boxes, variant: .batsight, threshold: 0.5) == [0])
    #expect(suppress(boxes, variant: .greedySorted, threshold: 0.5) == [1])
    // Enclosing-rectangle ratio is below the true IoU for offset boxes.
    let a = (0.0, 0.0, 10.0, 10.0), b = (3.0, 3.0, 13.0, 13.0)
    #expect(enclosingIoU(a, b) < iou(a, b))
  }

  @Test func letterboxRoundingMatchesUltralytics() {
    // anchors/archery.md (d)10.
    let g = Letterbox(imageWidth: 4032, imageHeight: 3024, input: 640)
    #expect(Tolerance.close.accepts(g.gain, 640.0 / 4032) && g.backPadX == 0 && g.backPadY == 80)
    let h = Letterbox(imageWidth: 3000, imageHeight: 2001, input: 640)
    #expect(h.resizedWidth == 640 && h.resizedHeight == 427 && h.top == 106 && h.backPadY == 106)
    #expect(h.rawPadY == 106.5)
    // The naive unrounded padding shifts y by ~0.5 / gain original pixels.
    let box = RawBox(cx: 320, cy: 320, w: 10, h: 10, confidence: 1)
    let rounded = InputMapping.letterbox(imageWidth: 3000, imageHeight: 2001, input: 640, roundedPadding: true).toImage(box)
    let naive = InputMapping.letterbox(imageWidth: 3000, imageHeight: 2001, input: 640, roundedPadding: false).toImage(box)
    // anchors: using 106.5 instead of 106 shifts y by 2.34 original pixels.
    #expect(abs((rounded.centerY - naive.centerY) - 2.34) < 0.01)
  }

  @Test func visionFlipPutsTopBoxesAtTheTop() {
    let m = InputMapping.stretch(imageWidth: 1280, imageHeight: 960, input: 640)
    let b = m.toImage(RawBox(cx: 320, cy: 64, w: 64, h: 64, confidence: 1))
    #expect(Tolerance.geometric.accepts(b.centerX, 640) && Tolerance.geometric.accepts(b.centerY, 96))
    #expect(Tolerance.geometric.accepts(b.width, 128) && Tolerance.geometric.accepts(b.height, 96))
  }

  @Test func thresholdIsInclusive() {
    let s = DetectionSettings(confidenceThreshold: 0.4, nms: .greedySorted, iouThreshold: 0.7,
                              mapping: .stretch(imageWidth: 640, imageHeight: 640, input: 640))
    let boxes = [RawBox(cx: 10, cy: 10, w: 4, h: 4, confidence: Double(Float(0.4))),
                 RawBox(cx: 100, cy: 10, w: 4, h: 4, confidence: Double(Float(0.3999)))]
    let out = DetectionStage.run(boxes, settings: s)
    #expect(out.arrows.count == 1 && out.arrows[0].source == 0)
  }
}
