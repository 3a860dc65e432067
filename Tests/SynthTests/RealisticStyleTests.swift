import Canvas
import Core
import Scoring
import Testing
@testable import Synth

#if canImport(Glibc)
  import Glibc
#endif

/// The realistic target look: drawn from its own ranges and sub-stream, so a
/// classic scene keeps every byte, while a realistic one varies what classic
/// scenes never do, and its truth stays exact.
struct RealisticStyleTests {
  func spec(seed: UInt64, style: ArcheryStyle) -> SceneSpec {
    var s = SceneSpec(face: "10_zone", seed: seed, size: ImageSize(width: 320, height: 240), arrowCount: 5)
    s.style = style
    return s
  }

  @Test func realisticIsDeterministicAndLeavesTheClassicStreamsAlone() throws {
    let a = try Synthesizer.render(spec(seed: 3, style: .realistic)), b = try Synthesizer.render(spec(seed: 3, style: .realistic))
    let ta = try a.truth.json.canonicalText(), tb = try b.truth.json.canonicalText()
    #expect(a.image == b.image && ta == tb)
    let classic = try Synthesizer.render(spec(seed: 3, style: .classic))
    #expect(classic.image != a.image)
    // The face, the arrows' places and the camera's rotation come from the classic streams either way.
    let cs = classic.truth.scene, rs = a.truth.scene
    #expect(cs.face == rs.face && cs.rotationDeg == rs.rotationDeg && cs.arrows.map(\.x) == rs.arrows.map(\.x))
    guard case .object(let c) = classic.truth.json, case .object(let r) = a.truth.json else { Issue.record("truth is not an object"); return }
    #expect(c["style"] == nil && c["realistic"] == nil, "classic truth files keep their keys")
    #expect(r["style"] == .string("realistic"))
  }

  /// Over many seeds every printed face, mount and backdrop appears, tilts
  /// and shaft angles reach past classic's, and every value stays in its range.
  @Test func rangesAreWalked() throws {
    let ranges = RealisticRanges.standard
    var printed = Set<PrintedFace>(), mounts = Set<Mount>(), backdrops = Set<RealisticLook.Backdrop>()
    var maxTilt = 0.0, maxOffNormal = 0.0
    for seed in 0..<60 {
      let scene = try Scene.resolve(spec(seed: UInt64(seed), style: .realistic))
      let real = try #require(scene.realistic)
      printed.insert(real.printed); mounts.insert(real.mount); backdrops.insert(real.backdrop)
      #expect(ranges.contrast.contains(real.contrast) && ranges.saturation.contains(real.saturation))
      #expect(ranges.tiltDeg.contains(scene.tiltDeg))
      maxTilt = max(maxTilt, scene.tiltDeg)
      for a in scene.arrows {
        let off = acos(-a.dir.z) * 180 / .pi
        maxOffNormal = max(maxOffNormal, off)
        #expect(ranges.shaftLengthM.contains(a.lengthM))
      }
      if real.printed == .worn { #expect(ranges.wornHoles.contains(scene.look.oldHoles)) }
    }
    #expect(printed == Set(PrintedFace.allCases) && mounts == Set(Mount.allCases) && backdrops == Set(RealisticLook.Backdrop.allCases))
    #expect(maxTilt > 25 && maxOffNormal > 18, "past classic's 25° tilt and ~18° shafts: \(maxTilt), \(maxOffNormal)")
  }

  /// A practice face prints each zone at its own luma (then the overcast
  /// contrast), so the locator's light/dark steps between zones keep their direction.
  @Test func practiceFaceKeepsEachZonesLuma() throws {
    var s = cleanSpec()
    s.style = .realistic
    var scene = try Scene.resolve(s)
    // Try seeds until one prints a practice face with its camera pinned by cleanSpec.
    var seed: UInt64 = 11
    while scene.realistic?.printed != .practice {
      seed += 1; s.seed = seed; scene = try Scene.resolve(s)
    }
    let result = try Synthesizer.render(s)
    let face = scene.face, cam = scene.camera
    func luma(_ c: RGB8) -> Double { 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b) }
    for (i, zone) in face.zones.enumerated() {
      let inner = i == 0 ? 0.25 * zone.radius : face.zones[i - 1].radius
      let mid = (inner + zone.radius) / 2
      let p = cam.project(u: mid * cos(0.7), v: mid * sin(0.7))
      let px = result.image[Int(p.x), Int(p.y)]
      #expect(px.r == px.g && px.g == px.b, "grey print at zone \(zone.label): \(px)")
      // Overcast light pulls every level towards mid-grey by the look's contrast.
      let want = 128 + (luma(zone.fill) - 128) * (scene.realistic?.contrast ?? 1)
      #expect(abs(Double(px.r) - want) <= 1, "zone \(zone.label): \(px.r) against \(want)")
    }
  }

  /// The truth's face-plane distance undoes perspective: two pixels one
  /// millimetre apart on the face read 1 mm at any tilt.
  @Test(arguments: [0.0, 45.0])
  func faceDistanceIsMeasuredOnThePaper(tilt: Double) throws {
    let truth = try Synthesizer.truth(cleanSpec(tilt: tilt))
    let upm = truth.scene.unitsPerMetre
    let a = truth.project(u: 0.1, v: 0.2), b = truth.project(u: 0.1 + upm / 1000, v: 0.2)
    #expect(abs(truth.faceDistanceMM(a, b) - 1) < 1e-6)
    let back = try #require(truth.facePoint(x: a.x, y: a.y))
    #expect(abs(back.u - 0.1) < 1e-9 && abs(back.v - 0.2) < 1e-9)
  }
}
