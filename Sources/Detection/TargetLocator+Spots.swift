import Imaging
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Multi-spot sheets: the detection box is axis-aligned, so under in-plane
/// rotation it neither gives the spots' places nor the scale. Search the
/// sheet's rotation (the scale follows from the rotated layout filling the box),
/// keep the rotation whose predicted spot rings show the strongest edges, then
/// fit each spot's ring on its own.
extension TargetLocator {
  static func refineSpots(_ image: RGBA8Image, face: Face, start: FittedEllipse, method: String, lineWidth: Double) -> TargetFit {
    if let fit = refineSpotsFromBlobs(image, face: face, start: start, lineWidth: lineWidth) { return fit }
    let edges = contrastEdges(face, lineWidth: lineWidth)
    guard let edge = edges.first else { return TargetFit(ellipse: start, method: method, edgePoints: 0, medianResidual: 0) }
    let ext = face.layoutHalfExtent
    // The box's half-size in pixels (start is in sheet units: a = half-width / extent).
    let halfW = start.a * ext.x, halfH = start.b * ext.y
    var poses: [(score: Double, theta: Double, kx: Double, ky: Double)] = []
    for step in 0..<72 {
      let theta = Double(step) * 5 * .pi / 180
      let (ex, ey) = rotatedExtent(face, theta)
      let kx = halfW / ex, ky = halfH / ey
      // A tilt of up to about 50° squashes the sheet at most to 0.6 of its width: rotations
      // that would need a flatter sheet to fill the box are not this sheet's pose.
      guard kx.isFinite, ky.isFinite, kx > 1, ky > 1, min(kx, ky) / max(kx, ky) >= 0.6 else { continue }
      var score = 0.0
      for s in face.spots {
        let e = predicted(s, start: start, theta: theta, kx: kx, ky: ky)
        score += edgeStrength(image, around: e, radius: edge.radius, darkerInside: edge.darkerInside)
      }
      poses.append((score, theta, kx, ky))
    }
    // A symmetric layout (three spots in a triangle or a column, four about a
    // centre) scores alike at several rotations; sheets hang about upright, so
    // among poses within 3% of the best the one nearest upright is kept.
    let top = poses.map(\.score).max() ?? 0
    let tilt: (Double) -> Double = { abs(remainder($0, 2 * .pi)) }
    guard let best = poses.filter({ $0.score >= 0.97 * top }).min(by: { tilt($0.theta) < tilt($1.theta) }) else {
      return TargetFit(ellipse: start, method: method, edgePoints: 0, medianResidual: 0)
    }
    var spotFits: [FittedEllipse] = []
    var used = 0
    var residuals: [Double] = []
    for s in face.spots {
      let guess = predicted(s, start: start, theta: best.theta, kx: best.kx, ky: best.ky)
      if let fit = fitRing(image, start: guess, edge: edge, windows: (0.2, 0.1), minInliers: 12) {
        spotFits.append(fit.ellipse); used += fit.used; residuals.append(fit.median)
      } else {
        spotFits.append(guess)
      }
    }
    let sheet = FittedEllipse(cx: start.cx, cy: start.cy, a: best.kx, b: best.ky, angleDeg: 0)
    guard used > 0 else { return TargetFit(ellipse: start, method: method, edgePoints: 0, medianResidual: 0) }
    var fit = TargetFit(ellipse: sheet, method: "spot-rings", edgePoints: used, medianResidual: residuals.sorted()[residuals.count / 2])
    fit.spots = SpotFits(ellipses: spotFits, theta: best.theta, layout: face.spots)
    return fit
  }

  /// Half-extent of the spot layout rotated by `theta`, in sheet units.
  static func rotatedExtent(_ face: Face, _ theta: Double) -> (Double, Double) {
    let c = cos(theta), s = sin(theta)
    var ex = 0.0, ey = 0.0
    for p in face.spots {
      ex = max(ex, abs(p.x * c - p.y * s) + p.radius)
      ey = max(ey, abs(p.x * s + p.y * c) + p.radius)
    }
    return (ex, ey)
  }

  /// A spot's outer ring where the rotated layout puts it, in pixels.
  static func predicted(_ s: Spot, start: FittedEllipse, theta: Double, kx: Double, ky: Double) -> FittedEllipse {
    let c = cos(theta), sn = sin(theta)
    return FittedEllipse(cx: start.cx + kx * (s.x * c - s.y * sn), cy: start.cy + ky * (s.x * sn + s.y * c),
                         a: kx * s.radius, b: ky * s.radius, angleDeg: 0)
  }

  /// How strongly a ring edge shows near its predicted place: the mean best
  /// gradient of the expected sign over 48 rays, in a tight window.
  static func edgeStrength(_ img: RGBA8Image, around e: FittedEllipse, radius: Double, darkerInside: Bool) -> Double {
    var total = 0.0
    let steps = 24, window = 0.12
    for k in 0..<48 {
      let t = Double(k) * 2 * .pi / 48
      var prev = sampleLuma(img, e.denormalize(radius * (1 - window) * cos(t), radius * (1 - window) * sin(t)).0,
                            e.denormalize(radius * (1 - window) * cos(t), radius * (1 - window) * sin(t)).1)
      var bestG = 0.0
      for i in 1...steps {
        let r = radius * (1 - window + 2 * window * Double(i) / Double(steps))
        let p = e.denormalize(r * cos(t), r * sin(t))
        let v = sampleLuma(img, p.0, p.1)
        let g = (v - prev) * (darkerInside ? 1 : -1)
        if g > bestG { bestG = g }
        prev = v
      }
      total += bestG
    }
    return total / 48
  }

  /// The ring fit from `start`: three passes along rays (a wide first window,
  /// then a tight one), points far off each fit dropped (arrows, holes) and the
  /// rest refitted; nil when no pass found enough edge.
  static func fitRing(_ image: RGBA8Image, start: FittedEllipse, edge: (radius: Double, darkerInside: Bool),
                      windows: (first: Double, later: Double), minInliers: Int)
    -> (ellipse: FittedEllipse, used: Int, median: Double)?
  {
    var current = start
    var used = 0, median = 0.0
    for pass in 0..<3 {
      let window = pass == 0 ? windows.first : windows.later
      let pts = edgePoints(image, around: current, radius: edge.radius, darkerInside: edge.darkerInside, window: window)
      guard var fit = fitEllipse(pts) else { break }
      let res = pts.map { fit.residual($0.0, $0.1) }
      let med = res.sorted()[res.count / 2]
      let inliers = zip(pts, res).filter { $0.1 <= max(3 * med, 0.004) }.map(\.0)
      if let refit = fitEllipse(inliers) { fit = refit }
      let scaled = fit.scaled(1 / edge.radius)
      guard scaled.a.isFinite, scaled.a > 2, scaled.b > 2, inliers.count >= minInliers else { break }
      current = scaled
      used = inliers.count
      median = inliers.map { fit.residual($0.0, $0.1) }.sorted()[inliers.count / 2]
    }
    return used > 0 ? (current, used, median) : nil
  }
}

/// Each spot located as a face of its own, and the sheet's rotation.
struct SpotFits: Sendable, Hashable {
  /// One fit per spot, in layout order (rectified where two of its edges agree).
  let fits: [TargetFit]
  /// The sheet's in-plane rotation, radians.
  let theta: Double
  let layout: [Spot]

  init(fits: [TargetFit], theta: Double, layout: [Spot]) {
    self.fits = fits; self.theta = theta; self.layout = layout
  }

  /// From one fitted outer-ring ellipse per spot (no perspective undone).
  init(ellipses: [FittedEllipse], theta: Double, layout: [Spot]) {
    self.init(fits: ellipses.map { TargetFit(ellipse: $0, method: "ring-edges", edgePoints: 0, medianResidual: 0) },
              theta: theta, layout: layout)
  }

  /// The sheet point of a pixel: its distance from the nearest spot's centre in
  /// that spot's fitted frame, placed around that spot in the sheet's orientation.
  func normalize(_ x: Double, _ y: Double) -> (Double, Double) {
    var bestJ = 0, bestD = Double.infinity
    for (j, f) in fits.enumerated() {
      let n = f.normalize(x, y)
      let d = (n.0 * n.0 + n.1 * n.1).squareRoot()
      if d < bestD { bestD = d; bestJ = j }
    }
    let f = fits[bestJ], s = layout[bestJ]
    // Direction in the sheet frame: the pixel offset turned back by the sheet's rotation.
    let dx = x - f.centerX, dy = y - f.centerY
    let phi = atan2(dy, dx) - theta
    return (s.x + bestD * s.radius * cos(phi), s.y + bestD * s.radius * sin(phi))
  }
}
