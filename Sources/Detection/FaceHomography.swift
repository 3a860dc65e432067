#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A projective map from photo pixels to face units (centre 0, outermost
/// scoring ring at radius 1), as one 3×3 matrix.
///
/// Shape: pixels are first normalised, `u = (x − tx) / s`, `v = (y − ty) / s`;
/// then `X = (h₀u + h₁v + h₂) / D`, `Y = (h₃u + h₄v + h₅) / D` with
/// `D = h₆u + h₇v + 1`. Two concentric ellipses pin such a map down poorly on a
/// steep face (the inner ring spans few pixels); every ring edge at once pins it
/// well (`TargetLocator.jointFit`).
public struct FaceHomography: Sendable, Hashable {
  let tx: Double, ty: Double, s: Double
  /// The eight free entries, row-major (the ninth is 1).
  let h: [Double]
  /// The inverse matrix (face units → normalised pixels), all nine entries.
  let inverse: [Double]

  /// Nil when the matrix is singular or an entry is not finite.
  init?(tx: Double, ty: Double, s: Double, h: [Double]) {
    guard h.count == 8, h.allSatisfy(\.isFinite), s > 0,
          let inv = Rectification.invert(h + [1]), inv.allSatisfy(\.isFinite)
    else { return nil }
    self.tx = tx; self.ty = ty; self.s = s; self.h = h; self.inverse = inv
  }

  /// Face units of the pixel (`x`, `y`).
  func face(_ x: Double, _ y: Double) -> (Double, Double) {
    let u = (x - tx) / s, v = (y - ty) / s
    let d = h[6] * u + h[7] * v + 1
    return ((h[0] * u + h[1] * v + h[2]) / d, (h[3] * u + h[4] * v + h[5]) / d)
  }

  /// The pixel of the face point (`X`, `Y`).
  func pixel(_ X: Double, _ Y: Double) -> (Double, Double) {
    let m = inverse
    let w = m[6] * X + m[7] * Y + m[8]
    return (((m[0] * X + m[1] * Y + m[2]) / w) * s + tx, ((m[3] * X + m[4] * Y + m[5]) / w) * s + ty)
  }

  /// The same map turned in the face's plane so that it has no rotation at the
  /// face centre (its Jacobian there is symmetric, as an ellipse's un-squash
  /// is): rings fix a map only up to such a turn, and clock positions need one.
  func unrotated() -> FaceHomography? {
    // At the centre the numerators vanish, so the Jacobian is the 2×2 block over D.
    let c0 = pixel(0, 0), u = (c0.0 - tx) / s, v = (c0.1 - ty) / s
    let d = h[6] * u + h[7] * v + 1
    guard d.isFinite, abs(d) > 1e-12 else { return nil }
    let theta = atan2((h[3] - h[1]) / d, (h[0] + h[4]) / d), c = cos(theta), sn = sin(theta)
    let row0 = h[0..<3], row1 = h[3..<6]
    let turned = zip(row0, row1).map { c * $0 + sn * $1 } + zip(row0, row1).map { -sn * $0 + c * $1 } + [h[6], h[7]]
    return FaceHomography(tx: tx, ty: ty, s: s, h: turned)
  }

  /// The map that best carries each pixel of `pairs` to its face point
  /// (linear least squares, the direct linear transform); nil when degenerate.
  static func through(_ pairs: [(pixel: (Double, Double), face: (Double, Double))], tx: Double, ty: Double, s: Double) -> FaceHomography? {
    guard pairs.count >= 4 else { return nil }
    var ata = [Double](repeating: 0, count: 64), atb = [Double](repeating: 0, count: 8)
    for p in pairs {
      let u = (p.pixel.0 - tx) / s, v = (p.pixel.1 - ty) / s, X = p.face.0, Y = p.face.1
      for (row, rhs) in [([u, v, 1, 0, 0, 0, -u * X, -v * X], X), ([0, 0, 0, u, v, 1, -u * Y, -v * Y], Y)] {
        accumulate(row, rhs, weight: 1, ata: &ata, atb: &atb)
      }
    }
    guard let h = solveSystem(ata, atb) else { return nil }
    return FaceHomography(tx: tx, ty: ty, s: s, h: h)
  }

  /// Adds `weight · rowᵀrow` and `weight · rowᵀrhs` to the normal equations.
  static func accumulate(_ row: [Double], _ rhs: Double, weight: Double, ata: inout [Double], atb: inout [Double]) {
    for i in 0..<8 where row[i] != 0 {
      atb[i] += weight * row[i] * rhs
      for j in 0..<8 { ata[i * 8 + j] += weight * row[i] * row[j] }
    }
  }

  /// Solves the 8×8 system `a x = b` (row-major `a`) with the locator's
  /// elimination (`solve(_:)`); nil when singular or not finite.
  static func solveSystem(_ a: [Double], _ b: [Double]) -> [Double]? {
    var m = (0..<8).map { Array(a[($0 * 8)..<($0 * 8 + 8)]) + [b[$0]] }
    guard let x = solve(&m), x.allSatisfy({ $0.isFinite }) else { return nil }
    return x
  }
}
