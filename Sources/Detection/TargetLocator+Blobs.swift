import Imaging
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Multi-spot sheets from what the photo shows: each spot is a blob of ink
/// (coloured or dark rings) on light paper. The blobs' centroids and second
/// moments give each spot's place and ellipse under any rotation and tilt; the
/// layout is matched to them by a similarity transform (preferring the pose
/// nearest upright for symmetric layouts), and each spot is then located as a
/// single face: its ring fitted and its perspective undone from two of its edges.
extension TargetLocator {
  /// One ink blob: centroid and the ellipse of its second moments, in pixels.
  struct Blob {
    var area: Double
    var ellipse: FittedEllipse
  }

  /// Pixels that are ring ink rather than paper: dark, or clearly coloured.
  static func isInk(_ p: ArraySlice<UInt8>) -> Bool {
    let r = Int(p[p.startIndex]), g = Int(p[p.startIndex + 1]), b = Int(p[p.startIndex + 2])
    let luma = (299 * r + 587 * g + 114 * b) / 1000
    return luma < 165 || max(r, g, b) - min(r, g, b) > 70
  }

  /// The `count` largest ink blobs inside `box` (pixels) that are filled
  /// ellipses (a spot, not a spot joined to a vane, a shaft or the boss), sampled
  /// on a grid of about 200 cells a side; the mask is eroded by `erosion` cells
  /// first so that thin shafts and lines do not join neighbours. Nil when fewer
  /// than `count` blobs of at least `minArea` pixels are found.
  static func inkBlobs(_ image: RGBA8Image, box: (x0: Double, y0: Double, x1: Double, y1: Double), count: Int,
                       minArea: Double, erosion: Int = 3, fillHoles: Bool = false) -> [Blob]? {
    let side = max(box.x1 - box.x0, box.y1 - box.y0)
    let step = max(1.0, side / 200)
    let x0 = max(0, box.x0), y0 = max(0, box.y0)
    let w = Int((min(Double(image.width), box.x1) - x0) / step), h = Int((min(Double(image.height), box.y1) - y0) / step)
    guard w > 4, h > 4 else { return nil }
    var mask = [Bool](repeating: false, count: w * h)
    for j in 0..<h {
      for i in 0..<w {
        let px = min(image.width - 1, Int(x0 + (Double(i) + 0.5) * step)), py = min(image.height - 1, Int(y0 + (Double(j) + 0.5) * step))
        let o = (py * image.width + px) * 4
        mask[j * w + i] = isInk(image.pixels[o..<(o + 4)])
      }
    }
    // Where the spot's centre is paper-white (the NFAA spot), paper the grid's
    // border cannot reach is inside a spot, so each spot is one filled blob.
    if fillHoles { fill(&mask, w: w, h: h) }
    for _ in 0..<erosion {
      var next = mask
      for j in 0..<h {
        for i in 0..<w where mask[j * w + i] {
          if i == 0 || j == 0 || i == w - 1 || j == h - 1 || !mask[j * w + i - 1] || !mask[j * w + i + 1]
            || !mask[(j - 1) * w + i] || !mask[(j + 1) * w + i] { next[j * w + i] = false }
        }
      }
      mask = next
    }
    // Connected components (4-neighbour), with their moments in cell units.
    var label = [Int32](repeating: -1, count: w * h)
    var blobs: [(n: Double, sx: Double, sy: Double, sxx: Double, syy: Double, sxy: Double)] = []
    var stack: [Int] = []
    for start in 0..<(w * h) where mask[start] && label[start] < 0 {
      let id = Int32(blobs.count)
      var m = (n: 0.0, sx: 0.0, sy: 0.0, sxx: 0.0, syy: 0.0, sxy: 0.0)
      label[start] = id
      stack.append(start)
      while let k = stack.popLast() {
        let i = k % w, j = k / w
        let x = Double(i), y = Double(j)
        m.n += 1; m.sx += x; m.sy += y; m.sxx += x * x; m.syy += y * y; m.sxy += x * y
        for n in [k - 1, k + 1, k - w, k + w] where n >= 0 && n < w * h && mask[n] && label[n] < 0 {
          if (n == k - 1 && i == 0) || (n == k + 1 && i == w - 1) { continue }
          label[n] = id
          stack.append(n)
        }
      }
      blobs.append(m)
    }
    let found = blobs.filter { $0.n * step * step >= minArea }.sorted { $0.n > $1.n }.prefix(count)
    guard found.count == count else { return nil }
    let shaped = found.map { m -> (Blob, Double) in
      let cx = m.sx / m.n, cy = m.sy / m.n
      let vxx = m.sxx / m.n - cx * cx, vyy = m.syy / m.n - cy * cy, vxy = m.sxy / m.n - cx * cy
      // A filled ellipse's variance along an axis is a²/4; the erosion took `erosion` cells off each side.
      let tr = vxx + vyy, det = vxx * vyy - vxy * vxy
      let disc = max(0, tr * tr / 4 - det).squareRoot()
      let l1 = tr / 2 + disc, l2 = max(0, tr / 2 - disc)
      let angle = 0.5 * atan2(2 * vxy, vxx - vyy)
      let grow = Double(erosion) + 0.5
      // A filled ellipse's area is π·a·b with a, b from its moments; a spot joined
      // to something else fills less of the ellipse its moments describe.
      let fill = m.n / (Double.pi * 4 * (l1 * l2).squareRoot())
      return (Blob(area: m.n * step * step,
                  ellipse: FittedEllipse(cx: x0 + (cx + 0.5) * step, cy: y0 + (cy + 0.5) * step,
                                         a: (2 * l1.squareRoot() + grow) * step, b: (2 * l2.squareRoot() + grow) * step,
                                         angleDeg: angle * 180 / .pi)), fill)
    }
    guard shaped.allSatisfy({ $0.1 >= minimumFill }) else { return nil }
    return shaped.map(\.0)
  }

  /// Marks as ink every non-ink cell the grid's border cannot reach.
  static func fill(_ mask: inout [Bool], w: Int, h: Int) {
    var outside = [Bool](repeating: false, count: w * h)
    var queue: [Int] = []
    for i in 0..<w { queue.append(i); queue.append((h - 1) * w + i) }
    for j in 0..<h { queue.append(j * w); queue.append(j * w + w - 1) }
    while let k = queue.popLast() {
      guard !mask[k], !outside[k] else { continue }
      outside[k] = true
      let i = k % w, j = k / w
      if i > 0 { queue.append(k - 1) }
      if i < w - 1 { queue.append(k + 1) }
      if j > 0 { queue.append(k - w) }
      if j < h - 1 { queue.append(k + w) }
    }
    for k in 0..<(w * h) where !outside[k] { mask[k] = true }
  }

  /// How much of its moment ellipse a blob must fill to count as one spot.
  static let minimumFill = 0.85

  /// Which blob is which spot: the permutation whose similarity transform from the
  /// layout's centres to the blobs' centroids leaves the smallest residual; among
  /// near-equals (a symmetric layout) the one nearest upright. Returns the blob
  /// index for each spot and the sheet's rotation (radians).
  static func matchLayout(_ spots: [Spot], _ blobs: [Blob]) -> (order: [Int], theta: Double)? {
    guard spots.count == blobs.count, spots.count >= 2, spots.count <= 6 else { return nil }
    var best: [(residual: Double, theta: Double, order: [Int])] = []
    for order in permutations(Array(0..<spots.count)) {
      // Least squares c = α·s + β over complex numbers (similarity: rotation, scale, shift).
      let n = Double(spots.count)
      var ms = (0.0, 0.0), mc = (0.0, 0.0)
      for (i, s) in spots.enumerated() {
        ms.0 += s.x / n; ms.1 += s.y / n
        mc.0 += blobs[order[i]].ellipse.cx / n; mc.1 += blobs[order[i]].ellipse.cy / n
      }
      var num = (0.0, 0.0), den = 0.0
      for (i, s) in spots.enumerated() {
        let sx = s.x - ms.0, sy = s.y - ms.1
        let cx = blobs[order[i]].ellipse.cx - mc.0, cy = blobs[order[i]].ellipse.cy - mc.1
        // conj(s)·c
        num.0 += sx * cx + sy * cy; num.1 += sx * cy - sy * cx
        den += sx * sx + sy * sy
      }
      guard den > 0 else { return nil }
      let alpha = (num.0 / den, num.1 / den)
      var residual = 0.0
      for (i, s) in spots.enumerated() {
        let sx = s.x - ms.0, sy = s.y - ms.1
        let px = alpha.0 * sx - alpha.1 * sy + mc.0, py = alpha.0 * sy + alpha.1 * sx + mc.1
        residual += hypot(px - blobs[order[i]].ellipse.cx, py - blobs[order[i]].ellipse.cy)
      }
      let scale = hypot(alpha.0, alpha.1)
      guard scale > 0 else { continue }
      best.append((residual / scale, atan2(alpha.1, alpha.0), order))
    }
    guard let least = best.map(\.residual).min() else { return nil }
    // Near-equal fits (within a tenth of a spot spacing) are the layout's symmetries.
    let alike = best.filter { $0.residual <= least + 0.1 * Double(spots.count) }
    guard let pick = alike.min(by: { abs(remainder($0.theta, 2 * .pi)) < abs(remainder($1.theta, 2 * .pi)) }) else { return nil }
    return (pick.order, pick.theta)
  }

  static func permutations(_ a: [Int]) -> [[Int]] {
    guard a.count > 1 else { return [a] }
    return a.indices.flatMap { i -> [[Int]] in
      var rest = a
      let x = rest.remove(at: i)
      return permutations(rest).map { [x] + $0 }
    }
  }

  /// The sheet located from its ink blobs, each spot as a single face; nil when
  /// the blobs do not show the layout (too few, or merged).
  static func refineSpotsFromBlobs(_ image: RGBA8Image, face: Face, start: FittedEllipse, lineWidth: Double) -> TargetFit? {
    let ext = face.layoutHalfExtent
    let halfW = start.a * ext.x, halfH = start.b * ext.y
    let margin = 0.08
    let box = (x0: start.cx - halfW * (1 + margin), y0: start.cy - halfH * (1 + margin),
               x1: start.cx + halfW * (1 + margin), y1: start.cy + halfH * (1 + margin))
    // A spot covers at least a fifth of what it would fill seen square-on in the box.
    let smallest = face.spots.map(\.radius).min() ?? 1
    let expected = Double.pi * smallest * smallest * start.a * start.b
    // Vanes and shafts over a spot join it to its neighbours: erode harder until the spots stand apart.
    let paperCentre = face.zones.first.map { !isInk([$0.fill.r, $0.fill.g, $0.fill.b, 255][...]) } ?? false
    guard let blobs = [3, 6, 10].lazy.compactMap({
      inkBlobs(image, box: box, count: face.spots.count, minArea: 0.2 * expected, erosion: $0, fillHoles: paperCentre)
    }).first,
      let match = matchLayout(face.spots, blobs)
    else { return nil }
    let edges = contrastEdges(face, lineWidth: lineWidth)
    guard let edge = edges.first else { return nil }
    var fits: [TargetFit] = []
    for (i, _) in face.spots.enumerated() {
      let hint = blobs[match.order[i]].ellipse
      guard let ring = fitRing(image, start: hint, edge: edge, windows: (0.25, 0.1), minInliers: 12) else { return nil }
      var fit = TargetFit(ellipse: ring.ellipse, method: "ring-edges", edgePoints: ring.used, medianResidual: ring.median)
      rectify(&fit, image, edges: edges)
      fits.append(fit)
    }
    let used = fits.reduce(0) { $0 + $1.edgePoints }
    let medians = fits.map(\.medianResidual).sorted()
    let sheet = FittedEllipse(cx: start.cx, cy: start.cy, a: start.a, b: start.b, angleDeg: 0)
    var fit = TargetFit(ellipse: sheet, method: "spot-blobs", edgePoints: used, medianResidual: medians[medians.count / 2])
    fit.spots = SpotFits(fits: fits, theta: match.theta, layout: face.spots)
    return fit
  }
}
