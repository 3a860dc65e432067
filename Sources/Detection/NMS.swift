/// Non-maximum suppression variants, each named after the app that does it.
public enum NMSVariant: String, Sendable, Hashable, CaseIterable {
  /// Seed 000 (iOS): sort by confidence, keep the best, drop every box whose
  /// IoU with it is > threshold; class-agnostic.
  case greedySorted = "greedy-sorted"
  /// BatSight: input order, no sort; later boxes dropped when the
  /// intersection over the *enclosing rectangle* exceeds the threshold.
  case batsight
  /// Ultralytics: per-class (class offset), sorted by confidence, IoU >
  /// threshold, at most 300 kept.
  case ultralytics
  /// No suppression.
  case none
}

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

/// Indices of the boxes kept, in the order the variant reports them.
public func suppress(_ boxes: [RawBox], variant: NMSVariant, threshold: Double) -> [Int] {
  switch variant {
  case .none:
    return Array(boxes.indices)
  case .greedySorted, .ultralytics:
    // Stable sort by confidence, highest first (ties keep input order).
    var order = boxes.indices.sorted { boxes[$0].confidence > boxes[$1].confidence || (boxes[$0].confidence == boxes[$1].confidence && $0 < $1) }
    var kept: [Int] = []
    while let best = order.first {
      order.removeFirst()
      kept.append(best)
      if variant == .ultralytics, kept.count == 300 { break }
      order.removeAll { j in
        if variant == .ultralytics, boxes[j].classID != boxes[best].classID { return false }
        return iou(boxes[best].corners, boxes[j].corners) > threshold
      }
    }
    return kept
  case .batsight:
    var removed = [Bool](repeating: false, count: boxes.count)
    var kept: [Int] = []
    for i in boxes.indices where !removed[i] {
      kept.append(i)
      for j in (i + 1)..<boxes.count where !removed[j] {
        if enclosingIoU(boxes[i].corners, boxes[j].corners) > threshold { removed[j] = true }
      }
    }
    return kept
  }
}
