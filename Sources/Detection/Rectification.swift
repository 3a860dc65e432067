#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Undoes perspective from two concentric ring ellipses.
///
/// Shape: for circles of radii r₁, r₂ about one centre, their image conics
/// satisfy Q₁⁻¹Q₂ ∝ H·diag(1, 1, r₂²/r₁²)·H⁻¹, so the eigenvector of the
/// distinct eigenvalue is the image of the centre, and its polar with respect
/// to either conic is the image of the line at infinity. Sending that line
/// back to infinity leaves an affine image of the face.
public struct Rectification: Sendable, Hashable {
  /// Normalising translation and scale (pixels → work units), then the
  /// projective map's last row (the vanishing line in work units).
  let tx: Double, ty: Double, s: Double
  let line: (Double, Double, Double)
  /// The image of the face centre, in pixels.
  let centerX: Double, centerY: Double

  public static func == (a: Self, b: Self) -> Bool {
    a.tx == b.tx && a.ty == b.ty && a.s == b.s && a.line == b.line
  }
  public func hash(into h: inout Hasher) { h.combine(tx); h.combine(ty); h.combine(s) }

  /// A pixel mapped into the rectified (affine) frame, in work units.
  func apply(_ x: Double, _ y: Double) -> (Double, Double) {
    let u = (x - tx) / s, v = (y - ty) / s
    let w = line.0 * u + line.1 * v + line.2
    return (u / w, v / w)
  }

  /// From two fitted ellipses of concentric rings; nil when degenerate.
  static func from(_ e1: FittedEllipse, _ e2: FittedEllipse) -> Rectification? {
    let tx = (e1.cx + e2.cx) / 2, ty = (e1.cy + e2.cy) / 2, s = max(e1.a, e2.a)
    guard s > 0 else { return nil }
    let q1 = conic(e1, tx, ty, s), q2 = conic(e2, tx, ty, s)
    guard let q1i = invert(q1) else { return nil }
    let m = multiply(q1i, q2)
    guard let (centre, _) = distinctEigenvector(m), abs(centre.2) > 1e-12 else { return nil }
    let c = (centre.0 / centre.2, centre.1 / centre.2, 1.0)
    // Polar of the centre w.r.t. Q1: the vanishing line; scale so the centre keeps w = 1.
    var l = (q1[0] * c.0 + q1[1] * c.1 + q1[2], q1[3] * c.0 + q1[4] * c.1 + q1[5], q1[6] * c.0 + q1[7] * c.1 + q1[8])
    let atCentre = l.0 * c.0 + l.1 * c.1 + l.2
    guard abs(atCentre) > 1e-12 else { return nil }
    l = (l.0 / atCentre, l.1 / atCentre, l.2 / atCentre)
    return Rectification(tx: tx, ty: ty, s: s, line: l, centerX: c.0 * s + tx, centerY: c.1 * s + ty)
  }

  /// Conic matrix (row-major) of an ellipse, in work units.
  static func conic(_ e: FittedEllipse, _ tx: Double, _ ty: Double, _ s: Double) -> [Double] {
    let cx = (e.cx - tx) / s, cy = (e.cy - ty) / s, a = e.a / s, b = e.b / s
    let t = e.angleDeg * .pi / 180, c = cos(t), sn = sin(t)
    let A = c * c / (a * a) + sn * sn / (b * b), C = sn * sn / (a * a) + c * c / (b * b)
    let B = 2 * c * sn * (1 / (a * a) - 1 / (b * b))
    let D = -2 * A * cx - B * cy, E = -B * cx - 2 * C * cy, F = A * cx * cx + B * cx * cy + C * cy * cy - 1
    return [A, B / 2, D / 2, B / 2, C, E / 2, D / 2, E / 2, F]
  }

  /// The eigenvector of the eigenvalue farthest from the other two.
  static func distinctEigenvector(_ m: [Double]) -> ((Double, Double, Double), Double)? {
    // Characteristic polynomial λ³ − tr λ² + c₂ λ − det.
    let tr = m[0] + m[4] + m[8]
    let c2 = m[0] * m[4] - m[1] * m[3] + m[0] * m[8] - m[2] * m[6] + m[4] * m[8] - m[5] * m[7]
    let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    let roots = cubicRoots(1, -tr, c2, -det)
    let lambda: Double
    if roots.count == 3 {
      lambda = roots.max { a, b in
        roots.filter { $0 != a }.map { abs($0 - a) }.min()! < roots.filter { $0 != b }.map { abs($0 - b) }.min()!
      }!
    } else if roots.count == 1 {
      // Fitted (noisy) ellipses split the double eigenvalue into a complex
      // pair; the one real root is then the distinct one.
      lambda = roots[0]
    } else {
      return nil
    }
    let r = [m[0] - lambda, m[1], m[2], m[3], m[4] - lambda, m[5], m[6], m[7], m[8] - lambda]
    let rows = [(r[0], r[1], r[2]), (r[3], r[4], r[5]), (r[6], r[7], r[8])]
    var best = (0.0, 0.0, 0.0), norm = 0.0
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
      let a = rows[i], b = rows[j]
      let v = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
      let n = v.0 * v.0 + v.1 * v.1 + v.2 * v.2
      if n > norm { norm = n; best = v }
    }
    return norm > 0 ? (best, lambda) : nil
  }

  /// Real roots of a cubic (trigonometric form when three are real).
  static func cubicRoots(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [Double] {
    let p = (3 * a * c - b * b) / (3 * a * a), q = (2 * b * b * b - 9 * a * b * c + 27 * a * a * d) / (27 * a * a * a)
    let shift = -b / (3 * a)
    let disc = q * q / 4 + p * p * p / 27
    if disc > 0 {
      // One real root (Cardano); the other two are a complex pair.
      let sq = disc.squareRoot()
      return [cbrt(-q / 2 + sq) + cbrt(-q / 2 - sq) + shift]
    }
    guard p < 0 else { return [shift] }  // p = q = 0: a triple root
    let r = 2 * (-p / 3).squareRoot()
    let arg = max(-1, min(1, 3 * q / (p * r)))
    let phi = acos(arg) / 3
    return (0..<3).map { r * cos(phi - 2 * .pi * Double($0) / 3) + shift }
  }

  static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
    var m = [Double](repeating: 0, count: 9)
    for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { m[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j] } } }
    return m
  }

  static func invert(_ m: [Double]) -> [Double]? {
    let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * c00 + m[1] * c01 + m[2] * c02
    guard abs(det) > 1e-300 else { return nil }
    let inv = 1 / det
    return [c00 * inv, (m[2] * m[7] - m[1] * m[8]) * inv, (m[1] * m[5] - m[2] * m[4]) * inv,
            c01 * inv, (m[0] * m[8] - m[2] * m[6]) * inv, (m[2] * m[3] - m[0] * m[5]) * inv,
            c02 * inv, (m[1] * m[6] - m[0] * m[7]) * inv, (m[0] * m[4] - m[1] * m[3]) * inv]
  }
}
