import Core
import Scoring

/// A fully resolved scene: every number decided, nothing left to chance.
/// Rendering a `Scene` is a pure function of its fields.
public struct Scene: Sendable, Hashable {
  public let face: Face
  public let diameterCm: Double
  let seed: UInt64
  public let camera: Camera
  let centerX: Double, centerY: Double, radiusPx: Double
  let rotationDeg: Double, tiltDeg: Double, tiltAxisDeg: Double
  let look: Look
  let arrows: [Arrow]
  /// What a realistic scene adds (nil: classic).
  var realistic: RealisticLook? = nil

  /// The resolved look of the photo.
  struct Look: Sendable, Hashable {
    let background: Background, boss: Boss, whiteBalance: WhiteBalance
    let lighting: Double, lightingAngleDeg: Double, vignette: Double
    let blur: Double, noise: Double, jpeg: Double
    let oldHoles: Int, tornCentre: Bool
    /// Paper tint and boss base colour, as 0xRRGGBB.
    let paper: UInt32, bossColor: UInt32
  }

  /// One resolved arrow.
  struct Arrow: Sendable, Hashable {
    let x: Double, y: Double
    let style: ArrowStyle
    let shaftMM: Double
    /// Direction the shaft leaves the face, face-local (z < 0 is toward the camera).
    let dir: Vec3
    /// Exposed shaft length in metres.
    let lengthM: Double
    /// Shaft, fletching and nock colours (0xRRGGBB).
    let shaftColor: UInt32, fletchColor: UInt32, nockColor: UInt32
    /// Rotation of the fletching about the shaft, radians.
    let roll: Double
  }
}

/// Limits on what a scene may ask for.
public enum SceneLimits {
  /// Largest image side, in pixels.
  public static let maxSide = 16384
  /// Most arrows in one scene.
  public static let maxArrows = 200
  /// Nominal face diameters a scene accepts, in cm.
  public static let diameterCm: ClosedRange<Double> = 1...1000
  /// Cards a Set table deals.
  public static let cardCount: ClosedRange<Int> = 3...21
}

extension Scene {
  /// Resolves a spec: validates it, then fills every unspecified field from the
  /// seeded generator (one independent sub-stream per concern, so pinning one
  /// field never shifts the others).
  static func resolve(_ spec: SceneSpec) throws(SynthError) -> Scene {
    let face: Face
    do { face = try FaceCatalog.face(named: spec.face) } catch { throw .scoring(error) }
    let w = spec.size.width, h = spec.size.height
    for (name, v) in [("width", w), ("height", h)] where !(1...SceneLimits.maxSide).contains(v) {
      throw .invalid(name: "image \(name)", value: String(v), expected: "1...\(SceneLimits.maxSide) px")
    }
    let diameter = spec.diameterCm ?? face.diametersCm[0]
    try check("diameter_cm", diameter, SceneLimits.diameterCm)
    var root = SeededGenerator(seed: spec.seed)
    var cam = root.fork("camera")
    var lookRNG = root.fork("look")
    var arrowRNG = root.fork("arrows")
    // A realistic scene's own draws come after the classic streams, so classic scenes keep every byte.
    var realRNG = spec.style == .realistic ? root.fork("realistic") : nil
    let ranges = RealisticRanges.standard

    let minSide = Double(min(w, h)), maxSide = Double(max(w, h))
    var radius = spec.camera.radius ?? cam.uniform(0.28...0.40) * minSide
    if spec.camera.radius == nil, realRNG != nil { radius = realRNG!.uniform(ranges.radiusShare) * minSide }
    // A drawn radius on a picture of a few pixels is at least one pixel: the sizes synth takes all render.
    if spec.camera.radius == nil { radius = max(radius, 1) }
    try check("camera.radius", radius, 1...(4 * maxSide))
    let margin = radius * 1.2
    let defaultCX = Double(w) / 2 + cam.uniform(-1...1) * max(0, Double(w) / 2 - margin) * 0.5
    let defaultCY = Double(h) / 2 + cam.uniform(-1...1) * max(0, Double(h) / 2 - margin) * 0.5
    if let c = spec.camera.center, c.count != 2 {
      throw .invalid(name: "camera.center", value: "\(c)", expected: "[x, y] in pixels")
    }
    let cx = spec.camera.center?[0] ?? defaultCX, cy = spec.camera.center?[1] ?? defaultCY
    try check("camera.center x", cx, -maxSide...(2 * maxSide))
    try check("camera.center y", cy, -maxSide...(2 * maxSide))
    let rotation = spec.camera.rotationDeg ?? cam.uniform(-30...30)
    var tilt = spec.camera.tiltDeg ?? cam.uniform(0...25)
    if spec.camera.tiltDeg == nil, realRNG != nil { tilt = realRNG!.uniform(ranges.tiltDeg) }
    let tiltAxis = spec.camera.tiltAxisDeg ?? cam.uniform(0...180)
    // As with the radius: a drawn focal length on a picture of a pixel or two is at least one pixel.
    let focal = spec.camera.focalPx ?? max(1, cam.uniform(0.9...1.4) * maxSide)
    try check("camera.rotation_deg", rotation, -3600...3600)
    try check("camera.tilt_deg", tilt, 0...75)
    try check("camera.tilt_axis_deg", tiltAxis, -3600...3600)
    try check("camera.focal_px", focal, 1...(100 * maxSide))
    let camera = Camera(width: w, height: h, centerX: cx, centerY: cy, radiusPx: radius,
                        rotationDeg: rotation, tiltDeg: tilt, tiltAxisDeg: tiltAxis, focalPx: focal)

    var look = try resolveLook(spec.scene, &lookRNG)
    var arrows = try resolveArrows(spec, face: face, &arrowRNG)
    var realistic: RealisticLook?
    if var g = realRNG {
      let real = RealisticLook.resolve(&g, ranges: ranges)
      look = look.realistic(real, pinned: spec.scene, ranges: ranges, &g)
      arrows = Self.shallowShafts(arrows, ranges: ranges, &g)
      realistic = real
    }
    return Scene(face: face, diameterCm: diameter, seed: spec.seed, camera: camera, centerX: cx, centerY: cy,
                 radiusPx: radius, rotationDeg: rotation, tiltDeg: tilt, tiltAxisDeg: tiltAxis,
                 look: look, arrows: arrows, realistic: realistic)
  }

  static func check(_ name: String, _ v: Double, _ range: ClosedRange<Double>) throws(SynthError) {
    guard v.isFinite, range.contains(v) else {
      throw .invalid(name: name, value: "\(v)", expected: "a finite number in \(range.lowerBound)...\(range.upperBound)")
    }
  }

  static func resolveLook(_ s: LookSpec, _ g: inout SeededGenerator) throws(SynthError) -> Look {
    let background = s.background ?? g.pick(Background.allCases)
    let boss = s.boss ?? g.pick(Boss.allCases)
    let wb = s.whiteBalance ?? g.pick(WhiteBalance.allCases)
    let lighting = s.lighting ?? g.uniform(0...0.3)
    let angle = g.uniform(0...360)
    let vignette = s.vignette ?? g.uniform(0...0.25)
    let blur = s.blur ?? g.uniform(0.3...1.2)
    let noise = s.noise ?? g.uniform(1...6)
    let jpeg = s.jpeg ?? g.uniform(0...0.12)
    let holes = s.oldHoles ?? g.int(0...60)
    let torn = s.tornCentre ?? g.chance(0.35)
    try check("scene.lighting", lighting, 0...1)
    try check("scene.vignette", vignette, 0...1)
    try check("scene.blur", blur, 0...20)
    try check("scene.noise", noise, 0...64)
    try check("scene.jpeg", jpeg, 0...1)
    guard (0...1000).contains(holes) else {
      throw .invalid(name: "scene.old_holes", value: String(holes), expected: "0...1000")
    }
    let papers: [UInt32] = [0xFBFAF5, 0xF4F1E8, 0xFFFFFF, 0xEFEDE4]
    let bosses: [UInt32] = boss == .straw ? [0xC9A66B, 0xB8945A, 0xD2B27A] : [0xDCDAD2, 0xC8CCC4, 0xE4E1D8]
    return Look(background: background, boss: boss, whiteBalance: wb, lighting: lighting, lightingAngleDeg: angle,
                vignette: vignette, blur: blur, noise: noise, jpeg: jpeg, oldHoles: holes, tornCentre: torn,
                paper: g.pick(papers), bossColor: g.pick(bosses))
  }
}

extension SceneSpec {
  /// The face and its diameter this spec names, without rendering anything:
  /// what a photo file's scenario scores against.
  public func faceAndDiameter() throws(SynthError) -> (face: Face, diameterCm: Double) {
    let f: Face
    do { f = try FaceCatalog.face(named: face) } catch { throw .scoring(error) }
    let d = diameterCm ?? f.diametersCm[0]
    try Scene.check("diameter_cm", d, SceneLimits.diameterCm)
    return (f, d)
  }
}
