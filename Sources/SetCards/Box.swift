import Imaging

/// An axis-aligned box in image pixels, corners (x1, y1) top-left and (x2, y2)
/// bottom-right, as floats (the detector's xyxy).
public struct Box: Sendable, Hashable, CustomStringConvertible {
  /// Left edge.
  public var x1: Double
  /// Top edge.
  public var y1: Double
  /// Right edge.
  public var x2: Double
  /// Bottom edge.
  public var y2: Double

  /// Memberwise.
  public init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
  }

  /// From the Ultralytics centre form (cx, cy, w, h).
  init(cx: Double, cy: Double, w: Double, h: Double) {
    self.init(x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2)
  }

  /// `[x1, y1, x2, y2]`; nil unless exactly four values.
  public init?(_ xyxy: [Double]) {
    guard xyxy.count == 4 else { return nil }
    self.init(x1: xyxy[0], y1: xyxy[1], x2: xyxy[2], y2: xyxy[3])
  }

  /// Width, 0 when inverted.
  public var width: Double { max(0, x2 - x1) }
  /// Height, 0 when inverted.
  public var height: Double { max(0, y2 - y1) }
  /// Float area (the merged filter uses this, before truncation).
  var area: Double { width * height }
  /// `[x1, y1, x2, y2]`.
  public var xyxy: [Double] { [x1, y1, x2, y2] }

  /// Intersection over union (Imaging's `iou`, the one every stage uses); 0 when
  /// either box is empty or inverted.
  public func iou(_ other: Box) -> Double { Imaging.iou((x1, y1, x2, y2), (other.x1, other.y1, other.x2, other.y2)) }

  /// Clipped to `0...width` × `0...height`.
  public func clipped(width: Int, height: Int) -> Box {
    let w = Double(width), h = Double(height)
    return Box(x1: min(max(x1, 0), w), y1: min(max(y1, 0), h),
               x2: min(max(x2, 0), w), y2: min(max(y2, 0), h))
  }

  /// The reference's integer box: each coordinate truncated toward zero, as
  /// Python's `int()` does; used for crops and reported boxes.
  public var truncated: [Int] { xyxy.map { Int($0.rounded(.towardZero)) } }

  /// `[x1, y1, x2, y2]` with 2 decimals.
  public var description: String { "[\(xyxy.map { String(($0 * 100).rounded() / 100) }.joined(separator: ", "))]" }
}

/// One detected card box and the detector's confidence in it.
public struct CardDetection: Sendable, Hashable {
  /// The box in image pixels.
  var box: Box
  /// Detector score, 0...1.
  var confidence: Double
  /// Where it came from: the anchor index for a tensor, the list position for
  /// scripted boxes; scripted classifications are keyed by it.
  var source: Int

  /// Memberwise.
  public init(box: Box, confidence: Double, source: Int) {
    self.box = box
    self.confidence = confidence
    self.source = source
  }
}
