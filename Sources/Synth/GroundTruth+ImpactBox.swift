/// How big the labelled box around an arrow's entry point is. Only its centre
/// is the impact; its size decides which neighbours an app's NMS merges. With
/// `wide` boxes, two touching arrows overlap by more than IoU 0.5, so the
/// Android profile's NMS (0.50) drops one of them even when the detector is
/// perfect; `hole` boxes keep them apart. Both stay selectable so the
/// difference can be shown (`bullseye eval archery --model truth --impact-box`).
public enum ImpactBox: String, Sendable, Hashable, CaseIterable {
  /// Six shaft diameters across, at least 12 px: the truth JSON's `box` and the
  /// labelling of sessions 1–4.
  case wide
  /// Two shaft diameters across (about the hole), at least 8 px: what the
  /// shipped arrow detector was trained on.
  case hole

  /// Box side in shaft diameters.
  var diameters: Double {
    switch self {
    case .wide: 6
    case .hole: 2
    }
  }

  /// Smallest box side in the photo's pixels, so far-off arrows keep a box a
  /// detector can regress.
  var minimumPx: Double {
    switch self {
    case .wide: 12
    case .hole: 8
    }
  }
}

extension GroundTruth.ArrowTruth {
  /// The labelled box under `convention`, pixels [x1, y1, x2, y2], centred on the entry point.
  public func box(_ convention: ImpactBox) -> [Double] {
    // Half-side in the order the first truth files computed it, so `wide` boxes stay bit-identical.
    let half = max(convention.minimumPx / 2, convention.diameters / 2 * shaftMM / 1000 * unitsPerMetre * pixelsPerUnit)
    return [pixelX - half, pixelY - half, pixelX + half, pixelY + half]
  }
}
