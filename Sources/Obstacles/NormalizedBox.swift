/// An axis-aligned box in normalized image coordinates: x right and y down,
/// both 0…1 across the frame, `(x, y)` the top-left corner.
///
/// Arithmetic is Double, as CoreGraphics' `CGFloat` is on 64-bit iOS, so
/// boundary values (area 0.15, centre 0.4) behave as they do in the app.
public struct NormalizedBox: Sendable, Hashable {
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width, ≥ 0.
  public var width: Double
  /// Height, ≥ 0.
  public var height: Double

  /// Memberwise.
  init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The fake centre box BatSight gives image classifications: (0.4, 0.4, 0.2, 0.2).
  static let classificationCentre = NormalizedBox(x: 0.4, y: 0.4, width: 0.2, height: 0.2)

  /// Horizontal centre, `x + width / 2` (CGRect.midX for a standard rect).
  var midX: Double { x + width / 2 }
  /// Vertical centre.
  var midY: Double { y + height / 2 }
  /// `width * height`: the quantity the distance table reads.
  var area: Double { width * height }
  /// Right edge.
  var maxX: Double { x + width }
  /// Bottom edge.
  public var maxY: Double { y + height }

  /// Area of the overlap with `other`, 0 when they do not overlap.
  func intersectionArea(_ other: NormalizedBox) -> Double {
    let w = min(maxX, other.maxX) - max(x, other.x)
    let h = min(maxY, other.maxY) - max(y, other.y)
    return w > 0 && h > 0 ? w * h : 0
  }

  /// The smallest box holding both (CGRect.union).
  func enclosing(_ other: NormalizedBox) -> NormalizedBox {
    let left = min(x, other.x), top = min(y, other.y)
    return NormalizedBox(
      x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
  }

  /// True intersection over union; 0 when the union is empty.
  func iou(_ other: NormalizedBox) -> Double {
    let inter = intersectionArea(other)
    let union = area + other.area - inter
    return union > 0 ? inter / union : 0
  }

  /// BatSight's NMS ratio: intersection over the *enclosing* rectangle's area
  /// (it calls CGRect.union), which understates IoU for offset boxes.
  func enclosingIoU(_ other: NormalizedBox) -> Double {
    let inter = intersectionArea(other)
    let hull = enclosing(other).area
    return hull > 0 ? inter / hull : 0
  }
}
