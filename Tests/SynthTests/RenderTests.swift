import Canvas
import Core
import Scoring
import Testing
import TestSupport
@testable import Synth

#if canImport(Glibc)
  import Glibc
#endif

struct RenderTests {
  @Test func sameSpecGivesByteIdenticalPNG() throws {
    let spec = SceneSpec(face: "10_zone", seed: 7, size: ImageSize(width: 320, height: 240), arrowCount: 6)
    let a = try Synthesizer.render(spec), b = try Synthesizer.render(spec)
    #expect(a.image == b.image)
    #expect(try PNG.encode(a.image) == PNG.encode(b.image))
    #expect(try a.truth.json.canonicalText() == b.truth.json.canonicalText())
    // A different seed is a different picture.
    var other = spec
    other.seed = 8
    #expect(try Synthesizer.render(other).image != a.image)
  }

  /// Sample each zone at its mid radius, in several directions, on clean
  /// untilted and tilted faces: the pixel is exactly the zone's paint.
  @Test(arguments: ["10_zone", "5_zone", "WA_field", "nfaa_indoor", "wa_vegas_3_spot", "Worcester"], [0.0, 20.0])
  func zoneColoursAtKnownRadii(faceID: String, tilt: Double) throws {
    let result = try Synthesizer.render(cleanSpec(face: faceID, tilt: tilt))
    let face = try FaceCatalog.face(named: faceID)
    let cam = result.truth.scene.camera
    for spot in face.spots {
      for (i, zone) in face.zones.enumerated() {
        let inner = i == 0 ? 0.25 * zone.radius : face.zones[i - 1].radius
        let mid = (inner + zone.radius) / 2 * spot.radius
        for angle in stride(from: 20.0, to: 360, by: 90) {
          let t = angle * .pi / 180
          let p = cam.project(u: spot.x + mid * cos(t), v: spot.y + mid * sin(t))
          let px = result.image[Int(p.x), Int(p.y)]
          #expect(px == RGBA(zone.fill.r, zone.fill.g, zone.fill.b), "\(faceID) tilt \(tilt) zone \(zone.label) at \(angle)°: \(px)")
        }
      }
    }
  }

  @Test func blurMatchesNaiveReference() {
    var g = SeededGenerator(seed: 5)
    let w = 13, h = 9
    var img = (0..<(w * h * 3)).map { _ in Float(g.uniform(0...255)) }
    let want = naiveGaussianBlur(img, width: w, height: h, sigma: 1.3)
    var scratch = img
    gaussianBlur(&img, scratch: &scratch, width: w, height: h, sigma: 1.3)
    for (a, b) in zip(img, want) { #expect(Tolerance.float32Sum.accepts(Double(a), Double(b))) }
  }
}
