// Box overlap and greedy non-maximum suppression over corner boxes
// `(x1, y1, x2, y2)`, once for every stage: the archery detector's variants
// (`Detection.NMSVariant` names them as rows of `NMSPolicy`) and the card detector.

/// Intersection over union of two corner boxes.
public func iou(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
  let iw = min(a.2, b.2) - max(a.0, b.0), ih = min(a.3, b.3) - max(a.1, b.1)
  guard iw > 0, ih > 0 else { return 0 }
  let inter = iw * ih
  let union = (a.2 - a.0) * (a.3 - a.1) + (b.2 - b.0) * (b.3 - b.1) - inter
  return union > 0 ? inter / union : 0
}

/// BatSight's ratio: intersection over the enclosing rectangle (CGRect.union),
/// which is never more than the true IoU.
public func enclosingIoU(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
  let iw = min(a.2, b.2) - max(a.0, b.0), ih = min(a.3, b.3) - max(a.1, b.1)
  guard iw > 0, ih > 0 else { return 0 }
  let enclosing = (max(a.2, b.2) - min(a.0, b.0)) * (max(a.3, b.3) - min(a.1, b.1))
  return enclosing > 0 ? iw * ih / enclosing : 0
}

/// One NMS implementation as four independent choices, so every app's variant
/// is a row of data and a conformance case can name each choice separately.
public struct NMSPolicy: Sendable, Hashable {
  /// When a box is suppressed: overlap `>` or `≥` the threshold.
  public enum Overlap: String, Sendable, Hashable, CaseIterable { case greater, greaterOrEqual = "greater-or-equal" }
  /// Whether boxes of different classes suppress each other.
  public enum Classes: String, Sendable, Hashable, CaseIterable { case agnostic, perClass = "per-class" }
  /// The order boxes are visited in: by score (stable: ties keep input order) or as given.
  public enum Order: String, Sendable, Hashable, CaseIterable { case byScore = "by-score", inputOrder = "input-order" }
  /// The overlap measure: IoU in Double; IoU converted to Float and compared with
  /// the Float threshold (seed 000's `calculateIoU`); intersection over the
  /// enclosing rectangle (BatSight's `CGRect.union`).
  public enum Measure: String, Sendable, Hashable, CaseIterable { case union, unionFloat32 = "union-float32", enclosing }

  public var overlap: Overlap
  public var classes: Classes
  public var order: Order
  public var measure: Measure
  /// Most boxes kept (Ultralytics: 300), nil for no limit.
  public var maxKept: Int?

  /// A policy; the defaults are seed 000's.
  public init(overlap: Overlap = .greater, classes: Classes = .agnostic, order: Order = .byScore,
              measure: Measure = .unionFloat32, maxKept: Int? = nil) {
    self.overlap = overlap; self.classes = classes; self.order = order; self.measure = measure; self.maxKept = maxKept
  }

  /// True when `b` is suppressed by the kept box `a` at `threshold`.
  public func suppresses(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double), threshold: Double) -> Bool {
    switch measure {
    case .union: return exceeds(iou(a, b), threshold)
    case .enclosing: return exceeds(enclosingIoU(a, b), threshold)
    case .unionFloat32: return exceeds(Float(iou(a, b)), Float(threshold))
    }
  }

  @inline(__always) func exceeds<T: Comparable>(_ v: T, _ t: T) -> Bool {
    overlap == .greater ? v > t : v >= t
  }
}

/// Greedy suppression under `policy`: visit boxes in the policy's order, keep
/// each one not yet suppressed, and suppress every later box it overlaps.
/// Boxes are corners `(x1, y1, x2, y2)`; returns the kept indices in the order kept.
/// `overlapOf(i, j)`, when given, replaces the policy's measure for boxes whose
/// own arithmetic differs (BatSight's `CGRect` areas come from width × height,
/// not from corners); `onSuppress(kept, suppressed)` hears each suppression,
/// for stages that explain them.
public func suppress(corners: [(Double, Double, Double, Double)], scores: [Double], classes: [Int],
                     policy: NMSPolicy, threshold: Double, overlapOf: ((Int, Int) -> Double)? = nil,
                     onSuppress: ((Int, Int) -> Void)? = nil) -> [Int] {
  var order = Array(corners.indices)
  if policy.order == .byScore {
    order.sort { scores[$0] > scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
  }
  var removed = [Bool](repeating: false, count: corners.count)
  var kept: [Int] = []
  for (n, i) in order.enumerated() where !removed[i] {
    kept.append(i)
    if let m = policy.maxKept, kept.count == m { break }
    for j in order[(n + 1)...] where !removed[j] {
      if policy.classes == .perClass, classes[j] != classes[i] { continue }
      let hit = overlapOf.map { policy.exceeds($0(i, j), threshold) } ?? policy.suppresses(corners[i], corners[j], threshold: threshold)
      if hit {
        removed[j] = true
        onSuppress?(i, j)
      }
    }
  }
  return kept
}
