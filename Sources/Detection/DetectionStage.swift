/// Settings for decode → threshold → NMS → back-transform.
public struct DetectionSettings: Sendable, Hashable {
  var confidenceThreshold: Double
  var nms: NMSVariant
  var iouThreshold: Double
  var mapping: InputMapping
  /// How confidences meet the threshold.
  var confidenceTest: ConfidenceTest
  public init(confidenceThreshold: Double, nms: NMSVariant, iouThreshold: Double, mapping: InputMapping,
              confidenceTest: ConfidenceTest = ConfidenceTest()) {
    self.confidenceThreshold = confidenceThreshold; self.nms = nms; self.iouThreshold = iouThreshold; self.mapping = mapping
    self.confidenceTest = confidenceTest
  }
}

/// What happened to each candidate, for reports and goldens.
public struct DetectionOutput: Sendable, Hashable {
  /// Kept arrow impacts (class 0), in NMS order.
  public var arrows: [Detection]
  /// Kept target-face boxes (class 1), best first.
  public var targets: [Detection]
  /// Candidates at or above the threshold (before NMS).
  public var aboveThreshold: Int
  /// Candidates suppressed by NMS.
  public var suppressed: Int
}

/// The Detection stage's entry point.
public enum DetectionStage {
  /// Thresholds (by `confidenceTest`), suppresses, and maps boxes to image pixels.
  public static func run(_ candidates: [RawBox], settings s: DetectionSettings) -> DetectionOutput {
    let passing = candidates.indices.filter { s.confidenceTest.passes(candidates[$0].confidence, threshold: s.confidenceThreshold) }
    let boxes = passing.map { candidates[$0] }
    let kept = suppress(boxes, variant: s.nms, threshold: s.iouThreshold)
    var arrows: [Detection] = [], targets: [Detection] = []
    for k in kept {
      let b = boxes[k]
      let px = s.mapping.toImage(b)
      let d = Detection(box: px, centerX: Float(px.centerX), centerY: Float(px.centerY),
                        confidence: b.confidence, classID: b.classID, source: passing[k])
      if b.classID == 1 { targets.append(d) } else { arrows.append(d) }
    }
    targets.sort { $0.confidence > $1.confidence }
    return DetectionOutput(arrows: arrows, targets: targets, aboveThreshold: boxes.count, suppressed: boxes.count - kept.count)
  }
}
