import Core

/// How a target scene looks. `classic` is the scenarios' look (byte-identical
/// to every golden); `realistic` adds what real range photos show and classic
/// scenes never do: practice faces with ring numerals and corner markers, worn
/// faces with dozens of old holes, stands, posts, grass and walls, painted and
/// patched bosses, steep camera angles, shafts at shallow angles running out of
/// frame, overcast light, and faces small enough that shafts are 3 px wide.
public enum ArcheryStyle: String, Sendable, Hashable, CaseIterable, Decodable {
  case classic, realistic
}

/// What a realistic scene's face is printed as.
enum PrintedFace: String, Sendable, Hashable, CaseIterable {
  /// The face's own colours.
  case colour
  /// A practice face printed in grey (each zone at its luma): ring numerals and four square markers.
  case practice
  /// The colours faded by sun and rain, stained.
  case worn
}

/// What holds the face up in a realistic scene.
enum Mount: String, Sendable, Hashable, CaseIterable {
  /// A boss on an aluminium stand: two legs, cross bars, bolts.
  case stand
  /// A boss against a wooden post.
  case post
  /// A boss with nothing else in frame.
  case none
}

/// The resolved realistic look of one scene (nil on a classic scene).
struct RealisticLook: Sendable, Hashable {
  let printed: PrintedFace
  let mount: Mount
  /// Grass over the bottom share of the picture (0: none).
  let grass: Double
  /// Behind the boss: a block wall, a hedge line, or a dark hall.
  let backdrop: Backdrop
  /// Painted patches on the boss (0: none) and sewn-in foam patches.
  let paintPatches: Int, foamPatches: Int
  /// Boss colour 0xRRGGBB (foam cubes are often black).
  let bossColor: UInt32
  /// Overcast light: contrast towards mid-grey and colour towards grey (1: as drawn).
  let contrast: Double, saturation: Double
  /// Seed of the painter's own draws (numerals, markers, patches, grass blades).
  let paintSeed: UInt64

  enum Backdrop: String, Sendable, Hashable, CaseIterable { case wall, hedge, hall }
}

/// The ranges a realistic scene draws from, in one table so a test can walk it.
struct RealisticRanges: Sendable {
  /// Camera tilt, degrees (classic: 0–25).
  let tiltDeg: ClosedRange<Double>
  /// Face radius as a share of the picture's short side (classic: 0.28–0.40).
  let radiusShare: ClosedRange<Double>
  /// Angle between a shaft and the face's normal, degrees (classic: up to ~18).
  let shaftOffNormalDeg: ClosedRange<Double>
  /// Spread of the shafts' directions about the scene's common one, degrees.
  let shaftSpreadDeg: Double
  /// Exposed shaft length, metres (classic 0.45–0.65).
  let shaftLengthM: ClosedRange<Double>
  /// Old holes on a worn face (classic 0–60).
  let wornHoles: ClosedRange<Int>
  let contrast: ClosedRange<Double>, saturation: ClosedRange<Double>
  /// Side light (classic 0–0.3): overcast days are flat.
  let lighting: ClosedRange<Double>
  let blur: ClosedRange<Double>, noise: ClosedRange<Double>, jpeg: ClosedRange<Double>
  let grassChance: Double, grassShare: ClosedRange<Double>

  static let standard = RealisticRanges(
    tiltDeg: 0...60, radiusShare: 0.12...0.40, shaftOffNormalDeg: 15...60, shaftSpreadDeg: 12,
    shaftLengthM: 0.55...0.75, wornHoles: 20...140, contrast: 0.65...1.0, saturation: 0.55...1.0,
    lighting: 0...0.1, blur: 0.4...1.6, noise: 2...9, jpeg: 0.03...0.2, grassChance: 0.5, grassShare: 0.12...0.35)
}

extension RealisticLook {
  /// Draws a realistic look from its own sub-stream (the classic draws stay as they were).
  static func resolve(_ g: inout SeededGenerator, ranges r: RealisticRanges = .standard) -> RealisticLook {
    let printed = g.pick(PrintedFace.allCases)
    let mount = g.pick(Mount.allCases)
    let grass = g.chance(r.grassChance) ? g.uniform(r.grassShare) : 0
    let backdrop = g.pick(Backdrop.allCases)
    // A practice face on a black foam cube indoors, as in the photos that fooled the detector.
    let bosses: [UInt32] = printed == .practice ? [0x1C1C1E, 0x2A2A2C, 0xD8D6CE] : [0xDCDAD2, 0xC9C2B0, 0x6F7C85, 0x3B6E8F, 0xB9A27A]
    return RealisticLook(printed: printed, mount: mount, grass: grass, backdrop: backdrop,
                         paintPatches: g.chance(0.6) ? g.int(2...9) : 0, foamPatches: g.chance(0.5) ? g.int(1...4) : 0,
                         bossColor: g.pick(bosses), contrast: g.uniform(r.contrast), saturation: g.uniform(r.saturation),
                         paintSeed: g.next())
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Scene.Look {
  /// The classic look with a realistic scene's light and wear drawn over it;
  /// whatever the scene file pins stays pinned.
  func realistic(_ real: RealisticLook, pinned s: LookSpec, ranges r: RealisticRanges, _ g: inout SeededGenerator) -> Scene.Look {
    let holes = real.printed == .worn ? g.int(r.wornHoles) : g.int(0...30)
    return Scene.Look(background: background, boss: boss, whiteBalance: s.whiteBalance ?? g.pick([.neutral, .cool, .cool, .warm]),
                      lighting: s.lighting ?? g.uniform(r.lighting), lightingAngleDeg: lightingAngleDeg,
                      vignette: s.vignette ?? vignette, blur: s.blur ?? g.uniform(r.blur), noise: s.noise ?? g.uniform(r.noise),
                      jpeg: s.jpeg ?? g.uniform(r.jpeg), oldHoles: s.oldHoles ?? holes,
                      tornCentre: s.tornCentre ?? (real.printed == .worn ? g.chance(0.7) : tornCentre),
                      paper: real.printed == .practice ? 0xF6F6F2 : paper, bossColor: real.bossColor)
  }
}

extension Scene {
  /// Shafts shot from one place and seen from another: every shaft leaves the
  /// face at 15–60° from its normal, all roughly the same way, and long enough
  /// that fletchings often leave the frame.
  static func shallowShafts(_ arrows: [Arrow], ranges r: RealisticRanges, _ g: inout SeededGenerator) -> [Arrow] {
    let azimuth = g.uniform(0...(2 * .pi)), offNormal = g.uniform(r.shaftOffNormalDeg) * .pi / 180
    let spread = r.shaftSpreadDeg * .pi / 180
    return arrows.map { a in
      let phi = azimuth + g.gaussian() * spread, theta = max(0, offNormal + g.gaussian() * spread / 2)
      let dir = Vec3(x: sin(theta) * cos(phi), y: sin(theta) * sin(phi), z: -cos(theta))
      return Arrow(x: a.x, y: a.y, style: a.style, shaftMM: a.shaftMM, dir: dir, lengthM: g.uniform(r.shaftLengthM),
                   shaftColor: a.shaftColor, fletchColor: a.fletchColor, nockColor: a.nockColor, roll: a.roll)
    }
  }
}
