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

  /// The in-place blur against the full 2-D sum, and bit for bit against two
  /// whole-image passes (the rendering every golden was recorded with), on
  /// shapes whose kernel is wider than the image and one pixel high or wide.
  @Test(arguments: [(13, 9, 1.3), (5, 3, 2.5), (1, 1, 1.0), (1, 12, 0.8), (17, 40, 0.7), (40, 2, 3.0)])
  func blurMatchesNaiveReference(width w: Int, height h: Int, sigma: Double) {
    var g = SeededGenerator(seed: 5)
    var img = (0..<(w * h * 3)).map { _ in Float(g.uniform(0...255)) }
    let want = naiveGaussianBlur(img, width: w, height: h, sigma: sigma)
    let twoPass = Self.twoPassBlur(img, width: w, height: h, sigma: sigma)
    gaussianBlur(&img, width: w, height: h, sigma: sigma)
    for (a, b) in zip(img, want) { #expect(Tolerance.float32Sum.accepts(Double(a), Double(b))) }
    #expect(img == twoPass)
  }

  /// A horizontal pass over the whole image into a second one, then a vertical pass back.
  static func twoPassBlur(_ rgb: [Float], width: Int, height: Int, sigma: Double) -> [Float] {
    let w = gaussianWeights(sigma: sigma), r = w.count / 2
    var mid = rgb, out = rgb
    for y in 0..<height {
      for x in 0..<width {
        var acc: (Float, Float, Float) = (0, 0, 0)
        for k in -r...r {
          let i = (y * width + min(max(x + k, 0), width - 1)) * 3, wk = w[k + r]
          acc.0 += rgb[i] * wk; acc.1 += rgb[i + 1] * wk; acc.2 += rgb[i + 2] * wk
        }
        (mid[(y * width + x) * 3], mid[(y * width + x) * 3 + 1], mid[(y * width + x) * 3 + 2]) = acc
      }
    }
    for y in 0..<height {
      for x in 0..<width {
        var acc: (Float, Float, Float) = (0, 0, 0)
        for k in -r...r {
          let i = (min(max(y + k, 0), height - 1) * width + x) * 3, wk = w[k + r]
          acc.0 += mid[i] * wk; acc.1 += mid[i + 1] * wk; acc.2 += mid[i + 2] * wk
        }
        (out[(y * width + x) * 3], out[(y * width + x) * 3 + 1], out[(y * width + x) * 3 + 2]) = acc
      }
    }
    return out
  }
}
