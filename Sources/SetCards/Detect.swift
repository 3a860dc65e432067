import Imaging

/// Where detections come from: the detector's raw output, or boxes a scenario
/// scripts (raw, so NMS and the merged filter still run on them).
public enum DetectionSource: Sendable {
  /// Ultralytics YOLO output `[1, 5, anchors]` (channel-major: cx, cy, w, h,
  /// score; 8400 anchors at 640²) in letterboxed model pixels.
  case tensor([Float], anchors: Int = 8400, frame: ModelFrame)
  /// Boxes already in image pixels with confidences, in list order.
  case boxes([CardDetection])
}

/// The letterbox between an image and the square detector input, as
/// Ultralytics `LetterBox(center=True)` / `scale_boxes` compute it (the
/// numbers come from Imaging's `Letterbox`).
public struct ModelFrame: Sendable, Hashable {
  /// The shared letterbox geometry.
  let geometry: Letterbox
  /// Source image width.
  var imageWidth: Int { geometry.imageWidth }
  /// Source image height.
  var imageHeight: Int { geometry.imageHeight }
  /// Square model input side (640 for YOLO11n).
  var inputSize: Int { geometry.input }
  /// min(input/h, input/w).
  var gain: Double { geometry.gain }
  /// Left padding in model pixels, round(dw − 0.1) with Python's half-even rounding.
  var padX: Double { geometry.backPadX }
  /// Top padding in model pixels.
  var padY: Double { geometry.backPadY }

  /// The frame for an image of `imageWidth`×`imageHeight` and a square input.
  public init(imageWidth: Int, imageHeight: Int, inputSize: Int = 640) {
    geometry = Letterbox(imageWidth: imageWidth, imageHeight: imageHeight, input: inputSize)
  }

  /// A model-space box mapped back to image pixels and clipped to the image.
  func toImage(_ b: Box) -> Box {
    Box(x1: (b.x1 - padX) / gain, y1: (b.y1 - padY) / gain,
        x2: (b.x2 - padX) / gain, y2: (b.y2 - padY) / gain)
      .clipped(width: imageWidth, height: imageHeight)
  }

  /// An image-pixel box in model pixels (for scripting tensors in tests).
  public func toModel(_ b: Box) -> Box {
    Box(x1: b.x1 * gain + padX, y1: b.y1 * gain + padY,
        x2: b.x2 * gain + padX, y2: b.y2 * gain + padY)
  }
}

/// Decoding and suppression of detector output.
enum Detect {
  /// Decodes a `[1, 5, anchors]` tensor: keeps anchors whose score is strictly
  /// above `threshold` (Ultralytics `conf_thres`), maps boxes to image pixels.
  static func decode(
    _ tensor: [Float], anchors: Int, frame: ModelFrame, threshold: Double
  ) throws(SetCardsError) -> [CardDetection] {
    guard tensor.count == 5 * anchors else {
      throw .invalid(name: "detector output", value: "\(tensor.count) values",
                     expected: "1x5x\(anchors) = \(5 * anchors) values")
    }
    var out: [CardDetection] = []
    for a in 0..<anchors {
      let score = Double(tensor[4 * anchors + a])
      guard score > threshold else { continue }
      // Rows of the [5, anchors] plane: cx, cy, w, h, score.
      let box = Box(cx: Double(tensor[a]), cy: Double(tensor[anchors + a]),
                    w: Double(tensor[2 * anchors + a]), h: Double(tensor[3 * anchors + a]))
      out.append(CardDetection(box: frame.toImage(box), confidence: score, source: a))
    }
    return out
  }

  /// Standard greedy NMS (torchvision `nms`, as Ultralytics runs it): order by
  /// confidence descending (ties by `source`), keep a box unless its IoU with an
  /// already kept box is strictly above `iouThreshold`; at most `maxDetections`.
  static func nms(_ detections: [CardDetection], iouThreshold: Double,
                         maxDetections: Int = 300) -> [CardDetection] {
    guard maxDetections > 0 else { return [] }
    // Imaging's greedy suppression visits by score, ties by index: index by source.
    let bySource = detections.sorted { $0.source < $1.source }
    let policy = NMSPolicy(overlap: .greater, classes: .agnostic, order: .byScore, measure: .union, maxKept: maxDetections)
    let kept = suppress(corners: bySource.map { ($0.box.x1, $0.box.y1, $0.box.x2, $0.box.y2) }, scores: bySource.map(\.confidence),
                        classes: [Int](repeating: 0, count: bySource.count), policy: policy, threshold: iouThreshold)
    return kept.map { bySource[$0] }
  }

  /// The reference's merged-detection filter (solve.py): with at least 3 boxes,
  /// median = sorted(areas)[n/2] (the upper median for even n) and a box is kept
  /// when its float area ≤ `ratio` × median (exactly `ratio` is kept). Fewer
  /// than 3 boxes pass untouched. Order is preserved.
  static func dropMerged(_ detections: [CardDetection], ratio: Double = 2.2) -> [CardDetection] {
    guard detections.count >= 3 else { return detections }
    let median = detections.map(\.box.area).sorted()[detections.count / 2]
    return detections.filter { $0.box.area <= ratio * median }
  }
}
