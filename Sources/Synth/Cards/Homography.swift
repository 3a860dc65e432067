import SetCards
/// A 3×3 projective map, row-major, `h[8]` normalised to 1.
struct Homography: Sendable, Hashable {
  var h: [Double]

  static let identity = Homography(h: [1, 0, 0, 0, 1, 0, 0, 0, 1])

  /// Maps (x, y).
  func apply(_ x: Double, _ y: Double) -> (Double, Double) {
    let w = h[6] * x + h[7] * y + h[8]
    return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
  }

  /// The map taking each `from[i]` to `to[i]` (four pairs, no three collinear):
  /// the 8×8 DLT system solved by Gaussian elimination with partial pivoting.
  static func fit(from: [(Double, Double)], to: [(Double, Double)]) -> Homography {
    var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
    for i in 0..<4 {
      let (x, y) = from[i], (u, v) = to[i]
      a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
      a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
    }
    for c in 0..<8 {
      let p = (c..<8).max { abs(a[$0][c]) < abs(a[$1][c]) }!
      a.swapAt(c, p)
      for r in 0..<8 where r != c {
        let f = a[r][c] / a[c][c]
        for k in c..<9 { a[r][k] -= f * a[c][k] }
      }
    }
    return Homography(h: (0..<8).map { a[$0][8] / a[$0][$0] } + [1])
  }

  /// The inverse map (adjugate over determinant, renormalised).
  var inverse: Homography {
    let m = h
    let inv = [
      m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
      m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
      m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
    ]
    return Homography(h: inv.map { $0 / inv[8] })
  }
}

extension SetTable {
  /// Output image → flat table: the output's top edge sees the whole flat
  /// width (farther, so smaller), its bottom edge the central image width.
  var outputToFlat: Homography {
    guard marginX > 0 else { return .identity }
    let w = Double(width), h = Double(height), m = Double(marginX)
    return Homography.fit(from: [(0, 0), (w, 0), (w, h), (0, h)],
                          to: [(0, 0), (w + 2 * m, 0), (w + m, h), (m, h)])
  }
}
