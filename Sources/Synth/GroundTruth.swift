import Core
import Scoring

/// What is really in a synthesized image: the camera, the target's outline in
/// pixels, and every arrow's impact point with its score under every rule.
public struct GroundTruth: Sendable, Hashable {
  /// One arrow's truth.
  public struct ArrowTruth: Sendable, Hashable {
    public let pixelX: Double, pixelY: Double
    public let normalizedX: Double, normalizedY: Double
    public let style: ArrowStyle
    let shaftMM: Double
    /// Scores keyed by rule (line-cutter uses this arrow's shaft).
    let scores: [BoundaryRule: ScoreResult]
    /// Face units per metre on the sheet, and pixels per face unit at the entry
    /// point (perspective included): the scale boxes are drawn at.
    let unitsPerMetre: Double, pixelsPerUnit: Double
    /// The shaft's diameter in pixels at the entry point.
    var shaftPx: Double { shaftMM / 1000 * unitsPerMetre * pixelsPerUnit }
    /// Impact box in pixels [x1, y1, x2, y2], centred on the entry point, `wide`
    /// convention (`box(_:)` gives the others).
    public var box: [Double] { box(.wide) }
    /// The entry point is painted over (by another arrow, or by this arrow's
    /// own vanes when seen end-on): no detector can see where it is, only guess.
    public let entryHidden: Bool
    /// The seed-000 camera score (inclusive rule).
    public var inclusive: ScoreResult { scores[.inclusive]! }
  }

  public let scene: Scene
  let homography: [Double]
  public let ellipse: Ellipse?
  let spotEllipses: [Ellipse?]
  /// Box around the outermost scoring ring(s), pixels [x1, y1, x2, y2].
  public let targetBox: [Double]
  public let arrows: [ArrowTruth]
  /// The image frame the pixel fields are given in: the rendered (upright)
  /// picture, or a stored buffer a camera turned (see `inFrame`).
  public let frame: PixelFrame
  /// Pixel size of that frame.
  public let width: Int, height: Int

  /// Computes the truth for a resolved scene, in the frame `frame` maps the
  /// rendered picture's pixels into (`width`×`height`).
  init(scene: Scene, frame: PixelFrame = .identity, width: Int? = nil, height: Int? = nil) {
    self.scene = scene
    self.frame = frame
    self.width = width ?? scene.camera.width
    self.height = height ?? scene.camera.height
    let cam = scene.camera
    homography = frame.compose(cam.homography)
    ellipse = Ellipse.image(of: homography)
    spotEllipses = scene.face.spots.map { [homography] in Ellipse.image(of: homography, cx: $0.x, cy: $0.y, radius: $0.radius) }
    var xs: [Double] = [], ys: [Double] = []
    for s in scene.face.spots {
      for p in cam.projectCircle(cx: s.x, cy: s.y, r: s.radius, points: 360).map(frame.apply) { xs.append(p.0); ys.append(p.1) }
    }
    targetBox = [xs.min()!, ys.min()!, xs.max()!, ys.max()!]
    let unitsPerMetre = scene.unitsPerMetre
    let hidden = scene.hiddenEntries()
    arrows = scene.arrows.indices.map { i in
      let a = scene.arrows[i]
      let p = frame.apply(cam.project(u: a.x, v: a.y))
      var scores: [BoundaryRule: ScoreResult] = [:]
      for rule in BoundaryRule.allCases {
        let req = ScoreRequest(face: scene.face, x: a.x, y: a.y, rule: rule, diameterCm: scene.diameterCm, arrowMM: a.shaftMM)
        scores[rule] = Scorer.scoreUnchecked(req)
      }
      return ArrowTruth(pixelX: p.0, pixelY: p.1, normalizedX: a.x, normalizedY: a.y, style: a.style,
                        shaftMM: a.shaftMM, scores: scores, unitsPerMetre: unitsPerMetre,
                        pixelsPerUnit: cam.pixelsPerUnit(u: a.x, v: a.y), entryHidden: hidden[i])
    }
  }

  /// The same truth in another frame: `frame` maps the rendered picture's
  /// pixels into a `width`×`height` buffer (an orthogonal map: a quarter turn
  /// or a mirror, as a camera's EXIF orientation describes).
  public func inFrame(_ frame: PixelFrame, width: Int, height: Int) -> GroundTruth {
    GroundTruth(scene: scene, frame: frame, width: width, height: height)
  }

  /// A face point in this truth's pixels.
  public func project(u: Double, v: Double) -> (x: Double, y: Double) {
    let p = frame.apply(scene.camera.project(u: u, v: v))
    return (p.0, p.1)
  }

  /// `n` points of a circle on the face, in this truth's pixels.
  public func projectCircle(cx: Double, cy: Double, r: Double, points n: Int) -> [(Double, Double)] {
    scene.camera.projectCircle(cx: cx, cy: cy, r: r, points: n).map(frame.apply)
  }
}

/// An affine map between two images' pixel coordinates, row-major 2×3:
/// (x, y) → (a·x + b·y + c, d·x + e·y + f).
public struct PixelFrame: Sendable, Hashable {
  public let m: [Double]
  /// Shape: `[a, b, c, d, e, f]`.
  public init(_ m: [Double]) {
    precondition(m.count == 6, "PixelFrame needs 6 coefficients")
    self.m = m
  }
  /// The rendered picture itself.
  public static let identity = PixelFrame([1, 0, 0, 0, 1, 0])
  /// Maps one point.
  public func apply(_ p: (Double, Double)) -> (Double, Double) {
    (m[0] * p.0 + m[1] * p.1 + m[2], m[3] * p.0 + m[4] * p.1 + m[5])
  }
  /// This map after a row-major 3×3 homography `h`.
  func compose(_ h: [Double]) -> [Double] {
    guard self != .identity else { return h }
    let a = m + [0, 0, 1]
    return (0..<3).flatMap { i in (0..<3).map { j in (0..<3).reduce(0.0) { $0 + a[i * 3 + $1] * h[$1 * 3 + j] } } }
  }
}
