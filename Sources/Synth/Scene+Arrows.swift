import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Scene {
  static let shaftSizesMM: [Double] = [5.0, 5.5, 6.2, 7.5, 9.3]
  static let shaftColors: [UInt32] = [0x1A1A1A, 0x2B2B2E, 0x8C8F94, 0x3A5F8F, 0x6B2E2E]
  static let fletchColors: [UInt32] = [0xF5E400, 0xFF6A00, 0x20C040, 0xE8E8E8, 0xFF2D8A, 0x2E7DFF]
  static let nockColors: [UInt32] = [0xFF2020, 0x20D040, 0xFFD000, 0xF0F0F0, 0x2060FF]
  /// Where a drawn arrow lands, as shares of the draws: on a ring line, touching the
  /// arrow before it (`SceneSpec.touchingShare`, this by default), anywhere on the
  /// face, and the rest grouped near the centre.
  static let ringLineShare = 0.15, defaultTouchingShare = 0.10, wideShare = 0.07

  /// Arrows from the spec, or drawn from the seed: mostly grouped near the
  /// centre, some sitting on ring lines, some touching a neighbour, a few wide.
  static func resolveArrows(_ spec: SceneSpec, face: Face, _ g: inout SeededGenerator) throws(SynthError) -> [Arrow] {
    let count = spec.arrows?.count ?? spec.arrowCount ?? g.int(3...6)
    guard (0...SceneLimits.maxArrows).contains(count) else {
      throw .invalid(name: "arrow count", value: String(count), expected: "0...\(SceneLimits.maxArrows)")
    }
    let touching = spec.touchingShare ?? defaultTouchingShare
    try check("touching_share", touching, SceneSpec.touchingShares)
    var out: [Arrow] = []
    for i in 0..<count {
      var a = g.fork("arrow-\(i)")
      let given = spec.arrows?[i]
      let (x, y) = given.map { ($0.x, $0.y) } ?? randomPoint(face: face, diameterCm: spec.diameterCm ?? face.diametersCm[0], previous: out,
                                                                     touching: touching, &a)
      try check("arrow[\(i)].x", x, -10...10)
      try check("arrow[\(i)].y", y, -10...10)
      let style = given?.style ?? (a.chance(0.8) ? .shaft : .hole)
      let shaft = given?.shaftMM ?? a.pick(shaftSizesMM)
      try check("arrow[\(i)].shaft_mm", shaft, 0.5...30)
      // Shafts leave the face roughly square, up to ~18° off.
      let spread = 0.32
      let dir = Vec3(x: a.uniform(-spread...spread), y: a.uniform(-spread...spread), z: -1).normalized
      out.append(Arrow(x: x, y: y, style: style, shaftMM: shaft, dir: dir, lengthM: a.uniform(0.45...0.65),
                       shaftColor: a.pick(shaftColors), fletchColor: a.pick(fletchColors),
                       nockColor: a.pick(nockColors), roll: a.uniform(0...(2 * .pi))))
    }
    return out
  }

  static func randomPoint(face: Face, diameterCm: Double, previous: [Arrow], touching: Double,
                          _ g: inout SeededGenerator) -> (Double, Double) {
    let spot = face.spots[g.int(0...(face.spots.count - 1))]
    let mode = g.unit()
    let r: Double
    // cumulative bands (0.15, 0.25, 0.32 by default: the same draws as before the knob)
    let touchingEnd = ringLineShare + touching, wideEnd = touchingEnd + wideShare
    if mode < ringLineShare {
      r = g.pick(face.zones).radius + g.uniform(-0.01...0.01)  // on or against a ring line
    } else if mode < touchingEnd, let other = previous.last {
      // Touching the previous arrow: centres about one shaft diameter apart.
      let sep = (other.shaftMM / 1000) / (face.spotRadiusMM(diameterCm: diameterCm) / 1000) * spot.radius * 1.05
      let t = g.uniform(0...(2 * .pi))
      return (other.x + sep * cos(t), other.y + sep * sin(t))
    } else if mode < wideEnd {
      r = g.uniform(0...1.15)
    } else {
      r = min(1.1, abs(g.gaussian()) * 0.3)
    }
    let t = g.uniform(0...(2 * .pi))
    return (spot.x + r * spot.radius * cos(t), spot.y + r * spot.radius * sin(t))
  }
}
