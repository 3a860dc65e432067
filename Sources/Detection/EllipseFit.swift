#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An ellipse in image pixels: centre, semi-axes along `angleDeg` (a) and
/// perpendicular to it (b).
public struct FittedEllipse: Sendable, Hashable {
  public var cx: Double, cy: Double, a: Double, b: Double, angleDeg: Double

  /// An ellipse from its centre, semi-axes and the angle of `a`.
  public init(cx: Double, cy: Double, a: Double, b: Double, angleDeg: Double) {
    self.cx = cx; self.cy = cy; self.a = a; self.b = b; self.angleDeg = angleDeg
  }

  /// Maps a pixel into the unit-circle frame of this ellipse: undo the squash
  /// along the axes, keeping the image's orientation (x right, y down).
  func normalize(_ x: Double, _ y: Double) -> (Double, Double) {
    let t = angleDeg * .pi / 180, c = cos(t), s = sin(t)
    let dx = x - cx, dy = y - cy
    let u = (dx * c + dy * s) / a, v = (-dx * s + dy * c) / b
    return (u * c - v * s, u * s + v * c)
  }

  /// Inverse of `normalize`.
  public func denormalize(_ x: Double, _ y: Double) -> (Double, Double) {
    let t = angleDeg * .pi / 180
    return denormalize(x, y, cos: cos(t), sin: sin(t))
  }

  /// `denormalize` with the angle's cosine and sine given: the same bits, for
  /// loops over thousands of points of one ellipse.
  @inline(__always) func denormalize(_ x: Double, _ y: Double, cos c: Double, sin s: Double) -> (Double, Double) {
    let u = (x * c + y * s) * a, v = (-x * s + y * c) * b
    return (cx + u * c - v * s, cy + u * s + v * c)
  }

  /// The same ellipse scaled about its centre.
  func scaled(_ k: Double) -> FittedEllipse { FittedEllipse(cx: cx, cy: cy, a: a * k, b: b * k, angleDeg: angleDeg) }

  /// Algebraic distance of a point from the curve, in units of the radius.
  func residual(_ x: Double, _ y: Double) -> Double {
    let (u, v) = normalize(x, y)
    return abs((u * u + v * v).squareRoot() - 1)
  }
}

/// Least-squares conic fit with the constraint A + C = 1 (well-conditioned for
/// near-circles), on centred and scaled points; nil when the points do not
/// determine an ellipse.
func fitEllipse(_ pts: [(Double, Double)]) -> FittedEllipse? {
  guard pts.count >= 6 else { return nil }
  let mx = pts.map(\.0).reduce(0, +) / Double(pts.count), my = pts.map(\.1).reduce(0, +) / Double(pts.count)
  let sc = (pts.map { ($0.0 - mx) * ($0.0 - mx) + ($0.1 - my) * ($0.1 - my) }.reduce(0, +) / Double(pts.count)).squareRoot()
  guard sc > 0 else { return nil }
  // A x² + B xy + C y² + D x + E y + F = 0 with C = 1 − A:
  // A (x² − y²) + B xy + D x + E y + F = −y².
  var m = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 5)
  for p in pts {
    let x = (p.0 - mx) / sc, y = (p.1 - my) / sc
    let row = [x * x - y * y, x * y, x, y, 1.0], rhs = -y * y
    for i in 0..<5 {
      for j in 0..<5 { m[i][j] += row[i] * row[j] }
      m[i][5] += row[i] * rhs
    }
  }
  guard let sol = solve(&m) else { return nil }
  let A = sol[0], B = sol[1], C = 1 - A, D = sol[2], E = sol[3], F = sol[4]
  let det = 4 * A * C - B * B
  guard det > 0 else { return nil }
  let x0 = (B * E - 2 * C * D) / det, y0 = (B * D - 2 * A * E) / det
  let f0 = F + (D * x0 + E * y0) / 2
  let mean = (A + C) / 2, diff = ((A - C) * (A - C) / 4 + B * B / 4).squareRoot()
  let l1 = mean - diff, l2 = mean + diff
  guard l1 > 0, -f0 / l1 > 0, -f0 / l2 > 0 else { return nil }
  let major = (-f0 / l1).squareRoot(), minor = (-f0 / l2).squareRoot()
  // Eigenvector of the smaller eigenvalue gives the major axis.
  let angle = abs(B) < 1e-15 ? (A <= C ? 0 : 90) : atan2(l1 - A, B / 2) * 180 / .pi
  return FittedEllipse(cx: x0 * sc + mx, cy: y0 * sc + my, a: major * sc, b: minor * sc, angleDeg: angle)
}

/// Gaussian elimination with partial pivoting on an n×(n+1) augmented matrix.
func solve(_ m: inout [[Double]]) -> [Double]? {
  let n = m.count
  for col in 0..<n {
    guard let p = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[p][col]) > 1e-12 else { return nil }
    m.swapAt(col, p)
    for r in 0..<n where r != col {
      let f = m[r][col] / m[col][col]
      for c in col...n { m[r][c] -= f * m[col][c] }
    }
  }
  return (0..<n).map { m[$0][n] / m[$0][$0] }
}
