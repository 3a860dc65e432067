/// Which of a photo's true impacts a detector is asked to find. A hole whose
/// arrow has been pulled looks like every older hole in a worn face (the
/// painter draws both from the same few pixels), so a camera detector that
/// must skip old holes cannot also find it; both labellings stay selectable
/// so the difference can be shown.
public enum ImpactSet: String, Sendable, Hashable, CaseIterable {
  /// Arrows standing in the face: a shaft to see. Holes without shafts are
  /// negatives, like old holes. What the camera apps' detectors find.
  case shafts
  /// Every impact of this end, holes without shafts included (the labelling
  /// of the first detector datasets).
  case all

  /// Whether an arrow of this style is a positive in this set.
  public func includes(_ style: ArrowStyle) -> Bool {
    switch self {
    case .shafts: style == .shaft
    case .all: true
    }
  }
}

extension GroundTruth {
  /// The arrows a detector should find under `set`, in scene order.
  public func arrows(in set: ImpactSet) -> [ArrowTruth] { arrows.filter { set.includes($0.style) } }
}
