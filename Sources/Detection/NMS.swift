import Imaging

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

extension NMSVariant {
  /// The variant as a policy row.
  var policy: NMSPolicy? {
    switch self {
    case .greedySorted: return NMSPolicy()
    case .batsight: return NMSPolicy(order: .inputOrder, measure: .enclosing)
    case .ultralytics: return NMSPolicy(classes: .perClass, measure: .union, maxKept: 300)
    case .none: return nil
    }
  }
}

/// Indices of the boxes kept, in the order the variant reports them.
func suppress(_ boxes: [RawBox], variant: NMSVariant, threshold: Double) -> [Int] {
  guard let policy = variant.policy else { return Array(boxes.indices) }
  return suppress(boxes, policy: policy, threshold: threshold)
}

/// Greedy suppression of raw candidates under `policy` (their corners, confidences, classes).
func suppress(_ boxes: [RawBox], policy: NMSPolicy, threshold: Double) -> [Int] {
  suppress(corners: boxes.map(\.corners), scores: boxes.map(\.confidence), classes: boxes.map(\.classID),
           policy: policy, threshold: threshold)
}
