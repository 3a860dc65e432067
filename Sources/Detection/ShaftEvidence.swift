import Imaging

#if canImport(Glibc)
  import Glibc
#endif

/// How much a thin line (a shaft) leaves each detected point, and which way.
///
/// Arrows shot from one place stand roughly parallel, so in one photo their
/// shafts leave their entries the same way; a nock's shaft runs back the other
/// way, an old hole has none, a point on a shaft has one both ways. The
/// evidence is read along rays from each point: at every step, how far the
/// colour there differs from the colour a few shaft widths to either side (the
/// smaller of the two differences, so an edge between two zones, which differs
/// on one side only, reads as nothing).
///
/// Shapes: a ray map is `angles × radii` values, angle-major; radii run from
/// `nearest` to `farthest` face radii (the fitted face's semi-major axis) in
/// `radii` equal steps; angle `k` points at `k · 360° / angles`, clockwise in
/// the image (y down). `Training/experiments/shaft_check.py` computes the same numbers.
public enum ShaftEvidence {
  static let angles = 48, radii = 30
  static let nearest = 0.015, farthest = 0.3
  /// Radii below this (face radii) form the near band, the rest the far band.
  static let nearBelow = 0.08
  /// A shaft's width as a share of the face radius (about 6 mm on a 122 cm face).
  static let widthShare = 0.009
  /// Spread of the direction vote (degrees).
  static let voteSpreadDeg = 20.0

  /// The features of each point in one photo, in `ShaftCheck.featureNames`'
  /// order (its first twelve): line evidence towards the photo's shaft
  /// direction and against it, each at three angular tolerances and two
  /// distance bands, divided by the photo's typical evidence. `points` are
  /// photo pixels with the refiner's probabilities; `faceRadius` is in photo
  /// pixels. Also the direction found, in degrees.
  public static func features(_ image: RGBA8Image, points: [(x: Double, y: Double, confidence: Double)],
                              faceRadius: Double) -> (features: [[Double]], directionDeg: Double) {
    let rays = points.map { RayMeans(rayMap(image, x: $0.x, y: $0.y, faceRadius: faceRadius)) }
    let k = direction(rays, confidences: points.map(\.confidence))
    var raw = rays.map { bands($0, towards: k) }
    // Typical evidence of the photo: the median, over its points, of the widest
    // near band towards the shaft direction (never below 0.02, a flat photo).
    let typical = median(raw.map { max($0[4], 0.02) })
    for i in raw.indices { raw[i] = raw[i].map { $0 / typical } }
    return (raw, Double(k) * 360 / Double(angles))
  }

  /// The ray map around one point (see the type's shapes).
  static func rayMap(_ image: RGBA8Image, x: Double, y: Double, faceRadius a: Double) -> [Double] {
    let w = max(1.5, widthShare * a)
    let half = Int((w / 2 + 0.5).rounded(.down)), off = 2.5 * w
    var out = [Double](repeating: 0, count: angles * radii)
    for k in 0..<angles {
      let t = Double(k) * 2 * .pi / Double(angles), ux = cos(t), uy = sin(t)
      for j in 0..<radii {
        let r = a * radius(j)
        let px = x + r * ux, py = y + r * uy
        let c = boxMean(image, px, py, half)
        let l = boxMean(image, px - uy * off, py + ux * off, half)
        let s = boxMean(image, px + uy * off, py - ux * off, half)
        out[k * radii + j] = min(distance(c, l), distance(c, s))
      }
    }
    return out
  }

  /// One ray map reduced per angle: the mean over every radius, over the near
  /// band and over the far band, and the median of the whole-ray means.
  struct RayMeans {
    var whole: [Double], near: [Double], far: [Double], base: Double

    init(_ m: [Double]) {
      let split = ShaftEvidence.nearCount
      func mean(_ k: Int, _ r: Range<Int>) -> Double { r.reduce(0) { $0 + m[k * radii + $1] } / Double(max(r.count, 1)) }
      whole = (0..<angles).map { mean($0, 0..<radii) }
      near = (0..<angles).map { mean($0, 0..<split) }
      far = (0..<angles).map { mean($0, split..<radii) }
      base = ShaftEvidence.median(whole)
    }
  }

  /// How many of the first radii lie in the near band.
  static let nearCount = (0..<radii).filter { radius($0) < nearBelow }.count

  /// The photo's shaft direction (an angle index): a vote of every point's
  /// strongest ray, weighted by its probability and by how much that ray stands
  /// out from the point's other rays.
  static func direction(_ rays: [RayMeans], confidences: [Double]) -> Int {
    var vote = [Double](repeating: 0, count: angles)
    let spread = voteSpreadDeg * .pi / 180
    for (m, c) in zip(rays, confidences) {
      let p = m.whole
      let best = p.indices.max { p[$0] < p[$1] } ?? 0
      let strength = p[best] - m.base
      for k in 0..<angles {
        let d = Double(k - best) * 2 * .pi / Double(angles)
        vote[k] += c * strength * exp((cos(d) - 1) / (spread * spread))
      }
    }
    return vote.indices.max { vote[$0] < vote[$1] } ?? 0
  }

  /// One point's features before the photo's scale: for the side towards `k`,
  /// then the side away, tolerances ±1, ±2, ±4 angle steps, near band then far
  /// band; each the best band mean among the tolerated angles, less the median
  /// of the point's whole-ray means.
  static func bands(_ m: RayMeans, towards k: Int) -> [Double] {
    var out: [Double] = []
    for side in [k, k + angles / 2] {
      for tolerance in [1, 2, 4] {
        for band in [m.near, m.far] {
          let best = (-tolerance...tolerance).map { band[((side + $0) % angles + angles) % angles] }.max() ?? 0
          out.append(best - m.base)
        }
      }
    }
    return out
  }

  /// Radius of step `j` in face radii.
  static func radius(_ j: Int) -> Double { nearest + (farthest - nearest) * Double(j) / Double(radii - 1) }

  /// The mean colour (0…1 per channel) of the square of side `2·half + 1`
  /// centred on the pixel nearest (x, y), cut to the image.
  static func boxMean(_ image: RGBA8Image, _ x: Double, _ y: Double, _ half: Int) -> (Double, Double, Double) {
    let w = image.width, h = image.height
    let cx = Int(x.rounded(.toNearestOrEven)), cy = Int(y.rounded(.toNearestOrEven))
    let x0 = min(max(cx - half, 0), w - 1), x1 = min(max(cx + half, 0), w - 1)
    let y0 = min(max(cy - half, 0), h - 1), y1 = min(max(cy + half, 0), h - 1)
    var r = 0, g = 0, b = 0
    image.pixels.withUnsafeBufferPointer { p in
      for yy in y0...y1 {
        var i = (yy * w + x0) * 4
        for _ in x0...x1 {
          r += Int(p[i]); g += Int(p[i + 1]); b += Int(p[i + 2])
          i += 4
        }
      }
    }
    let n = Double((x1 - x0 + 1) * (y1 - y0 + 1)) * 255
    return (Double(r) / n, Double(g) / n, Double(b) / n)
  }

  static func distance(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
    let d0 = a.0 - b.0, d1 = a.1 - b.1, d2 = a.2 - b.2
    return (d0 * d0 + d1 * d1 + d2 * d2).squareRoot()
  }

  /// The median (the mean of the two middle values for an even count).
  static func median(_ v: [Double]) -> Double {
    guard !v.isEmpty else { return 0 }
    let s = v.sorted(), n = s.count
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
  }
}
