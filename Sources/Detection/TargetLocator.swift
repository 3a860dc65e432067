import Imaging
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the face is in the image.
public struct TargetFit: Sendable, Hashable {
  /// The outermost scoring ring as an ellipse in pixels.
  public var ellipse: FittedEllipse
  /// `ring-edges` (refined on the image), `box` (from a detection box) or `hint`.
  public var method: String
  /// Edge points used in the final fit, and their median residual (radius units).
  public var edgePoints: Int
  public var medianResidual: Double
  /// Perspective undone from two concentric ring edges, when the face has them.
  public var rectification: Rectification?
  /// How well the picture agrees with the face's rings (`ringAgreement`); nil until measured, or when too small to judge.
  public var ringAgreement: Double?
  /// The fitted ring in the rectified frame, and its radius in face units.
  var rectifiedRing: FittedEllipse?
  var ringRadius: Double = 1
  /// Multi-spot sheets: each spot's fitted ring (nil for single-spot faces).
  var spots: SpotFits?
  /// Every ring edge fitted at once (`TargetLocator.jointFit`); when present it
  /// is the map, over the rectification and the ellipse.
  var homography: FaceHomography?

  /// The median edge residual in pixels, roughly: radius units times the
  /// outline's mean semi-axis. A face's edge lies within a pixel or two of its
  /// ellipse at any size; an edge fitted to a texture lies several off.
  public var edgeResidualPx: Double { medianResidual * (ellipse.a + ellipse.b) / 2 }

  /// Whether perspective is undone (two ring edges, or all of them at once).
  public var rectified: Bool { rectification != nil || homography != nil }

  /// The face point (x right, y down, 1 = outer scoring edge) of a pixel:
  /// projective when rectified, otherwise the affine un-squash of the ellipse.
  public func normalize(_ x: Double, _ y: Double) -> (Double, Double) {
    if let spots { return spots.normalize(x, y) }
    if let homography { return homography.face(x, y) }
    if let r = rectification, let ring = rectifiedRing {
      let p = r.apply(x, y)
      let n = ring.normalize(p.0, p.1)
      return (n.0 * ringRadius, n.1 * ringRadius)
    }
    return ellipse.normalize(x, y)
  }

  /// The image of the face centre: exact when rectified, else the ellipse centre.
  /// The photo pixel whose face coordinates are (x, y): `normalize` inverted by
  /// Newton steps from the ellipse's guess (for detections given in face coordinates).
  public func pixel(_ x: Double, _ y: Double) -> (Double, Double) {
    if spots == nil, let homography { return homography.pixel(x, y) }
    let t = ellipse.angleDeg * .pi / 180
    var px = ellipse.cx + x * ellipse.a * cos(t) - y * ellipse.b * sin(t)
    var py = ellipse.cy + x * ellipse.a * sin(t) + y * ellipse.b * cos(t)
    for _ in 0..<8 {
      let (u, v) = normalize(px, py)
      let h = 0.5
      let (ux, vx) = normalize(px + h, py), (uy, vy) = normalize(px, py + h)
      let a = (ux - u) / h, b = (uy - u) / h, c = (vx - v) / h, d = (vy - v) / h
      let det = a * d - b * c
      guard det.isFinite, abs(det) > 1e-15 else { break }
      px -= (d * (u - x) - b * (v - y)) / det
      py -= (-c * (u - x) + a * (v - y)) / det
    }
    return (px, py)
  }

  public var centerX: Double { homography.map { $0.pixel(0, 0).0 } ?? rectification?.centerX ?? ellipse.cx }
  public var centerY: Double { homography.map { $0.pixel(0, 0).1 } ?? rectification?.centerY ?? ellipse.cy }
}

/// Finds the face: start from a hint (a target-face detection box, or the
/// image centre), then fit an ellipse to the face's highest-contrast ring edge
/// found along rays, reject outliers (arrows, holes), and refit once from the
/// new centre. Multi-spot sheets search the sheet's rotation and fit each spot
/// (`TargetLocator+Spots.swift`).
public enum TargetLocator {
  /// Locates the face of `face` in `image`, starting from `hint`. `lineWidth`
  /// (fraction of the outer radius, `Face.lineWidth(diameterCm:)`) is how wide the
  /// printed ring lines are: an edge is found on one side of its line, so with 0
  /// the fit is off by half a line. No default: every caller says which it means.
  public static func locate(_ image: RGBA8Image, face: Face, hint: FittedEllipse?, lineWidth: Double) -> TargetFit {
    if let hint { return refine(image, face: face, start: hint, method: "box", lineWidth: lineWidth) }
    // No box: try a few sizes about the image centre and keep the tightest fit.
    let side = Double(min(image.width, image.height))
    let fits = [0.22, 0.3, 0.38, 0.46].map { k in
      refine(image, face: face, start: FittedEllipse(cx: Double(image.width) / 2, cy: Double(image.height) / 2,
                                                     a: k * side, b: k * side, angleDeg: 0), method: "hint", lineWidth: lineWidth)
    }
    let refined = fits.filter { $0.edgePoints > 0 }
    return refined.min { $0.medianResidual / Double($0.edgePoints) < $1.medianResidual / Double($1.edgePoints) } ?? fits[1]
  }

  static func refine(_ image: RGBA8Image, face: Face, start: FittedEllipse, method: String, lineWidth: Double) -> TargetFit {
    if face.spots.count > 1 { return refineSpots(image, face: face, start: start, method: method, lineWidth: lineWidth) }
    let edges = contrastEdges(face, lineWidth: lineWidth)
    guard let edge = edges.first else {
      return TargetFit(ellipse: start, method: method, edgePoints: 0, medianResidual: 0)
    }
    guard let ring = fitRing(image, start: start, edge: edge, windows: (0.35, 0.12), minInliers: 0) else {
      return TargetFit(ellipse: start, method: method, edgePoints: 0, medianResidual: 0)
    }
    let (current, used, median) = ring
    var fit = TargetFit(ellipse: current, method: "ring-edges", edgePoints: used, medianResidual: median)
    rectify(&fit, image, edges: edges)
    return fit
  }

  /// Fits a second, concentric ring edge and rectifies the perspective. Each
  /// candidate second edge (at least 0.15 of the radius from the first) is tried
  /// in turn; the first whose rectified ring is the fitted one scaled by their
  /// radius ratio is kept (an edge found on an arrow cluster, an old hole or the
  /// paper's shadow fails that). None consistent: the affine fit stands.
  static func rectify(_ fit: inout TargetFit, _ image: RGBA8Image, edges: [(radius: Double, darkerInside: Bool)]) {
    // The strongest edge first; when no second edge agrees with it, the next
    // strongest may be the trustworthy one (its fit was not pulled by arrows).
    // Each edge's points and fit about the affine ellipse, found once however many pairs try it.
    var fitted: [Int: (FittedEllipse, [(Double, Double)])?] = [:]
    func edgeFit(_ k: Int) -> (FittedEllipse, [(Double, Double)])? {
      if let known = fitted[k] { return known }
      let e = edges[k]
      let found = robustFit(edgePoints(image, around: fit.ellipse, radius: e.radius, darkerInside: e.darkerInside, window: 0.06))
      fitted[k] = found
      return found
    }
    for (i, primary) in edges.prefix(2).enumerated() {
      guard let ea = edgeFit(i) else { continue }
      for (j, second) in edges.enumerated() where j != i && abs(second.radius - primary.radius) >= 0.15 {
        guard let eb = edgeFit(j), let (rect, ring) = rectified(ea, by: eb.0),
          let other = robustFit(eb.1.map { rect.apply($0.0, $0.1) })?.0
        else { continue }
        let ratio = second.radius / primary.radius, size = (ring.a + ring.b) / 2
        let consistent = abs(other.a / ring.a / ratio - 1) <= rectificationTolerance
          && abs(other.b / ring.b / ratio - 1) <= rectificationTolerance
          && hypot(other.cx - ring.cx, other.cy - ring.cy) / size <= rectificationTolerance
        guard consistent else { continue }
        if i > 0 { fit.ellipse = ea.0.scaled(1 / primary.radius) }
        fit.rectification = rect
        fit.rectifiedRing = ring
        fit.ringRadius = primary.radius
        fit.method = "ring-edges-rectified"
        return
      }
    }
  }

  /// The perspective two concentric rings give (`ea`, fitted with its edge
  /// points, and `eb`) and `ea`'s ring in the rectified frame; nil when degenerate.
  static func rectified(_ ea: (FittedEllipse, [(Double, Double)]), by eb: FittedEllipse) -> (Rectification, FittedEllipse)? {
    guard let rect = Rectification.from(ea.0, eb), let ring = robustFit(ea.1.map { rect.apply($0.0, $0.1) })?.0,
          ring.a.isFinite, ring.b > 0
    else { return nil }
    return (rect, ring)
  }

  /// How far (relative) the second rectified ring may stray from the first one
  /// scaled by the radius ratio: good fits agree within about 0.3%.
  static let rectificationTolerance = 0.008

  /// Fit, drop points far off it, refit; returns the fit and its inliers.
  static func robustFit(_ pts: [(Double, Double)]) -> (FittedEllipse, [(Double, Double)])? {
    guard let first = fitEllipse(pts) else { return nil }
    let res = pts.map { first.residual($0.0, $0.1) }
    let med = res.sorted()[res.count / 2]
    let inliers = zip(pts, res).filter { $0.1 <= max(3 * med, 0.004) }.map(\.0)
    guard let refit = fitEllipse(inliers) else { return (first, pts) }
    return (refit, inliers)
  }

  /// Every edge with a usable luminance step (≥ 40 levels), as a fraction of the
  /// outer radius: first the steps between zone fills, strongest first (outermost
  /// first among equals); then the scoring area's rim against the paper around it
  /// (a blue 6-ring or a black Worcester face ends on white paper); then the
  /// inner side of printed lines between zones of one colour (a black line on
  /// gold). The first is the ring the fit uses; the later ones give faces with a
  /// single fill step, or none, a second concentric edge to undo perspective.
  ///
  /// Each is where the photo shows it: a line of width `lineWidth` is centred on the
  /// zone edge, so the step is at its inner side (r − w/2) when the line's own step
  /// from the inner zone is the larger one in the expected direction (a black
  /// line before a black zone), else at its outer side (a black line after one).
  /// `fillsOnly`: the steps between zone fills and the rim, without printed lines.
  static func contrastEdges(_ face: Face, lineWidth: Double, fillsOnly: Bool = false) -> [(radius: Double, darkerInside: Bool)] {
    func luma(_ c: RGB8) -> Double { 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b) }
    typealias Edge = (step: Double, radius: Double, darker: Bool)
    var fills: [Edge] = [], rim: [Edge] = [], printed: [Edge] = []
    let zones = face.zones
    for i in zones.indices {
      let inner = luma(zones[i].fill), line = luma(zones[i].line)
      let last = i + 1 == zones.count
      let outer = last ? paperLuma : luma(zones[i + 1].fill)
      let step = outer - inner
      if abs(step) >= 40 {
        let sign: Double = step > 0 ? 1 : -1
        let side = sign * (line - inner) >= sign * (outer - line) ? -0.5 : 0.5
        let edge = (abs(step), zones[i].radius + side * lineWidth, step > 0)
        if last { rim.append(edge) } else { fills.append(edge) }
      } else if !last, abs(line - inner) >= 40 {
        printed.append((abs(line - inner), zones[i].radius - 0.5 * lineWidth, line > inner))
      }
    }
    let strongestFirst: (Edge, Edge) -> Bool = { $0.step != $1.step ? $0.step > $1.step : $0.radius > $1.radius }
    return (fills.sorted(by: strongestFirst) + rim + (fillsOnly ? [] : printed.sorted(by: strongestFirst))).map { ($0.radius, $0.darker) }
  }

  /// The least luminance difference across two sample steps (central
  /// difference) that counts as a ring edge, for samples `spacing` pixels apart:
  /// 12.5 levels per pixel, as the sample spacing changes with the window and
  /// the face's size; but no more than a step spread over `edgeSpanPx` shows.
  /// A printed edge blurred over a pixel or two shows its whole height across
  /// any wider span, so on a big face (a 12-megapixel photo, a wide window:
  /// samples 6–9 px apart) a per-pixel bound alone would ask more levels than
  /// the face's fills have (grey practice rings step by 40–120).
  static func stepThreshold(spacing: Double) -> Double { 12.5 * min(2 * spacing, edgeSpanPx) }

  /// Sample spacing (pixels) past which `edgePoints` averages each sample over its step.
  /// On a face filling a 12-megapixel photo the first ring fit's wide window samples
  /// about 5 px apart, and a printed ring line 3 px wide, sharp there, read at single
  /// points, outshone the fill step it was sought for on enough rays to fit the wrong
  /// edge (held-out photo 155 at 4032x3024: 180 px off, no target); at 1280x960 the
  /// spacing stays under 2 px and nothing changes.
  static let antiAliasSpacingPx = 2.0

  /// See `stepThreshold`: the span past which a wider sample step shows no more of an edge.
  static let edgeSpanPx = 4.0

  /// The paper a face is printed on, as the locator expects it around the scoring area.
  static let paperLuma = 245.0

  /// Strongest luminance step of the expected sign along each of 180 rays,
  /// within ±window of the expected edge radius; sub-pixel by a parabola.
  static func edgePoints(_ img: RGBA8Image, around e: FittedEllipse, radius: Double, darkerInside: Bool,
                         window: Double) -> [(Double, Double)] {
    var out: [(Double, Double)] = []
    let steps = 160
    // Pixels between samples along a ray (mean semi-axis × window span / steps).
    let spacing = (e.a + e.b) / 2 * radius * 2 * window / Double(steps)
    var profile = [Double](repeating: 0, count: steps + 1)
    let angle = e.angleDeg * .pi / 180, ec = cos(angle), es = sin(angle)
    for k in 0..<180 {
      let t = Double(k) * 2 * .pi / 180, ct = cos(t), st = sin(t)
      let r0 = radius * (1 - window), r1 = radius * (1 + window)
      for i in 0...steps {
        let r = r0 + (r1 - r0) * Double(i) / Double(steps)
        let point = { (q: Double) in e.denormalize(q * ct, q * st, cos: ec, sin: es) }
        profile[i] = rayLuma(img, centre: point(r), at: r, step: (r1 - r0) / Double(steps), spacing: spacing, point: point)
      }
      var bestI = -1, bestG = stepThreshold(spacing: spacing)
      for i in 1..<steps {
        let g = (profile[i + 1] - profile[i - 1]) * (darkerInside ? 1 : -1)
        if g > bestG { bestG = g; bestI = i }
      }
      guard bestI > 0 else { continue }
      // Parabola through the central-difference gradients at i−1, i, i+1.
      func grad(_ j: Int) -> Double {
        (profile[min(steps, j + 1)] - profile[max(0, j - 1)]) * (darkerInside ? 1 : -1)
      }
      let gl = grad(bestI - 1), gc = bestG, gr = grad(bestI + 1)
      let denom = gl - 2 * gc + gr
      let shift = abs(denom) > 1e-9 ? max(-0.5, min(0.5, 0.5 * (gl - gr) / denom)) : 0
      let r = r0 + (r1 - r0) * (Double(bestI) + shift) / Double(steps)
      out.append(e.denormalize(r * ct, r * st, cos: ec, sin: es))
    }
    return out
  }

  /// Luminance at radius `r` of one ray, whose pixel there is `centre` and
  /// elsewhere `point(radius)`, its samples `step` apart in radius and `spacing`
  /// apart in pixels. Past `antiAliasSpacingPx` it is the mean of three points a
  /// third of a step apart, so that a printed line thinner than the step does not
  /// outshine the fill step beside it; every ring search (`edgePoints`,
  /// `jointEdgePoints`) reads its rays through this.
  static func rayLuma(_ img: RGBA8Image, centre: (Double, Double), at r: Double, step: Double, spacing: Double,
                      point: (Double) -> (Double, Double)) -> Double {
    guard spacing > antiAliasSpacingPx else { return sampleLuma(img, centre.0, centre.1) }
    let before = point(r - step / 3), after = point(r + step / 3)
    return (sampleLuma(img, before.0, before.1) + sampleLuma(img, centre.0, centre.1) + sampleLuma(img, after.0, after.1)) / 3
  }

  /// Bilinear luminance at a sub-pixel position (pixel centres at +0.5).
  static func sampleLuma(_ img: RGBA8Image, _ x: Double, _ y: Double) -> Double {
    let fx = x - 0.5, fy = y - 0.5
    let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
    let ax = fx - Double(x0), ay = fy - Double(y0)
    func l(_ xi: Int, _ yi: Int) -> Double {
      let cx = min(max(xi, 0), img.width - 1), cy = min(max(yi, 0), img.height - 1)
      let i = (cy * img.width + cx) * 4
      return 0.299 * Double(img.pixels[i]) + 0.587 * Double(img.pixels[i + 1]) + 0.114 * Double(img.pixels[i + 2])
    }
    return (l(x0, y0) * (1 - ax) + l(x0 + 1, y0) * ax) * (1 - ay) + (l(x0, y0 + 1) * (1 - ax) + l(x0 + 1, y0 + 1) * ax) * ay
  }
}
