/// One raw detector candidate in model-input pixels (640×640 space): centre,
/// size, confidence and class, before thresholds and NMS.
public struct RawBox: Sendable, Hashable {
  public var cx: Double, cy: Double, w: Double, h: Double
  public var confidence: Double
  public var classID: Int
  /// A candidate; `classID` 0 = arrow impact, 1 = target face.
  public init(cx: Double, cy: Double, w: Double, h: Double, confidence: Double, classID: Int = 0) {
    self.cx = cx; self.cy = cy; self.w = w; self.h = h; self.confidence = confidence; self.classID = classID
  }
  /// Corners (x1, y1, x2, y2).
  var corners: (Double, Double, Double, Double) { (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2) }
}

/// An axis-aligned box in image pixels, origin top-left.
public struct PixelBox: Sendable, Hashable {
  public var x: Double, y: Double, width: Double, height: Double
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x; self.y = y; self.width = width; self.height = height
  }
  public var centerX: Double { x + width / 2 }
  public var centerY: Double { y + height / 2 }
  var area: Double { max(0, width) * max(0, height) }
}

/// A detection after thresholds, NMS and the coordinate transform.
public struct Detection: Sendable, Hashable {
  /// Box in image pixels.
  public var box: PixelBox
  /// Centre in image pixels, as the app stores it (Float on both platforms).
  public var centerX: Float, centerY: Float
  public var confidence: Double
  var classID: Int
  /// Index of the candidate in the decoded list it came from (for reports).
  var source: Int
}

/// How the model's output tensor is laid out.
public enum OutputLayout: String, Sendable, Hashable, CaseIterable {
  /// Ultralytics: [1, 4 + classes, anchors]; rows 4… are per-class scores.
  case ultralytics
  /// Seed 001's reading of [1, 6, 8400]: row 4 is a confidence, row 5 a class id.
  case seed001 = "seed-001"
}
