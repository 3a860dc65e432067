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

  /// Computes the truth for a resolved scene.
  init(scene: Scene) {
    self.scene = scene
    let cam = scene.camera
    homography = cam.homography
    ellipse = Ellipse.image(of: homography)
    spotEllipses = scene.face.spots.map { Ellipse.image(of: cam.homography, cx: $0.x, cy: $0.y, radius: $0.radius) }
    var xs: [Double] = [], ys: [Double] = []
    for s in scene.face.spots {
      for p in cam.projectCircle(cx: s.x, cy: s.y, r: s.radius, points: 360) { xs.append(p.0); ys.append(p.1) }
    }
    targetBox = [xs.min()!, ys.min()!, xs.max()!, ys.max()!]
    let unitsPerMetre = scene.unitsPerMetre
    let hidden = scene.hiddenEntries()
    arrows = scene.arrows.indices.map { i in
      let a = scene.arrows[i]
      let p = cam.project(u: a.x, v: a.y)
      var scores: [BoundaryRule: ScoreResult] = [:]
      for rule in BoundaryRule.allCases {
        let req = ScoreRequest(face: scene.face, x: a.x, y: a.y, rule: rule, diameterCm: scene.diameterCm, arrowMM: a.shaftMM)
        scores[rule] = Scorer.scoreUnchecked(req)
      }
      return ArrowTruth(pixelX: p.x, pixelY: p.y, normalizedX: a.x, normalizedY: a.y, style: a.style,
                        shaftMM: a.shaftMM, scores: scores, unitsPerMetre: unitsPerMetre,
                        pixelsPerUnit: cam.pixelsPerUnit(u: a.x, v: a.y), entryHidden: hidden[i])
    }
  }
}
