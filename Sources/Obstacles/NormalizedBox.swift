import Imaging

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
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The fake centre box BatSight gives image classifications: (0.4, 0.4, 0.2, 0.2).
  package static let classificationCentre = NormalizedBox(x: 0.4, y: 0.4, width: 0.2, height: 0.2)

  /// Horizontal centre, `x + width / 2` (CGRect.midX for a standard rect).
  package var midX: Double { x + width / 2 }
  /// Vertical centre.
  package var midY: Double { y + height / 2 }
  /// `width * height`: the quantity the distance table reads.
  package var area: Double { width * height }
  /// Right edge.
  package var maxX: Double { x + width }
  /// Bottom edge.
  public var maxY: Double { y + height }

  /// `(x1, y1, x2, y2)`, for Imaging's overlap measures.
  package var corners: (Double, Double, Double, Double) { (x, y, maxX, maxY) }

  /// True intersection over union in `CGRect` arithmetic (areas from width ×
  /// height, as the app computes them; Imaging's `iou` takes areas from corners
  /// and differs in the last bit); 0 when the union is empty.
  package func iou(_ other: NormalizedBox) -> Double {
    let iw = min(maxX, other.maxX) - max(x, other.x), ih = min(maxY, other.maxY) - max(y, other.y)
    guard iw > 0, ih > 0 else { return 0 }
    let inter = iw * ih, union = area + other.area - inter
    return union > 0 ? inter / union : 0
  }

  /// BatSight's NMS ratio: intersection over the enclosing rectangle
  /// (`CGRect.union`); the same bits as Imaging's `enclosingIoU` on corners.
  package func enclosingIoU(_ other: NormalizedBox) -> Double { Imaging.enclosingIoU(corners, other.corners) }
}
