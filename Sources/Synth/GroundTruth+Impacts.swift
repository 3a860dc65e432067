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

extension GroundTruth {
  /// The point on the face (face units) a pixel of this truth shows: the
  /// homography inverted. Nil where the pixel is on the horizon of the plane.
  public func facePoint(x: Double, y: Double) -> (u: Double, v: Double)? {
    let h = homography
    // Inverse by the adjugate; the scale cancels in the division below.
    let a = h[4] * h[8] - h[5] * h[7], b = h[2] * h[7] - h[1] * h[8], c = h[1] * h[5] - h[2] * h[4]
    let d = h[5] * h[6] - h[3] * h[8], e = h[0] * h[8] - h[2] * h[6], f = h[2] * h[3] - h[0] * h[5]
    let g = h[3] * h[7] - h[4] * h[6], k = h[1] * h[6] - h[0] * h[7], l = h[0] * h[4] - h[1] * h[3]
    let w = g * x + k * y + l
    guard w != 0, w.isFinite else { return nil }
    return ((a * x + b * y + c) / w, (d * x + e * y + f) / w)
  }

  /// Millimetres on the face between two pixels of this truth, measured on the
  /// face plane (perspective undone): how far a detection's impact is from the
  /// true one, in the units a scorer would measure on the paper.
  public func faceDistanceMM(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Double {
    guard let a = facePoint(x: p.x, y: p.y), let b = facePoint(x: q.x, y: q.y) else { return .infinity }
    let du = a.u - b.u, dv = a.v - b.v
    return (du * du + dv * dv).squareRoot() / scene.unitsPerMetre * 1000
  }
}
