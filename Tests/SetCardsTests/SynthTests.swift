import Canvas
@testable import SetCards
@testable import Synth
@testable import Harness
import Testing

/// A table with the photo effects off, so card white stays card white.
func cleanTable(seed: UInt64, count: Int = 12, tilt: Double = 0, rotation: Double? = nil) -> SetTableSpec {
  var s = SetTableSpec(seed: seed, size: ImageSize(width: 320, height: 240), cardCount: count)
  s.tiltDeg = tilt
  s.warmth = 0
  s.lighting = 0
  s.vignette = 0
  s.shadow = 0
  s.blur = 0
  s.noise = 0
  s.rotationDeg = rotation
  return s
}

func isCardWhite(_ p: RGBA) -> Bool { p.r > 225 && p.g > 225 && p.b > 215 }

@Suite struct SynthTests {
  @Test func sameSpecSameBytes() throws {
    var spec = SetTableSpec(seed: 77, size: ImageSize(width: 200, height: 150), cardCount: 9)
    spec.tiltDeg = 12
    let a = try TableSynthesizer.render(spec), b = try TableSynthesizer.render(spec)
    #expect(a.image == b.image)
    #expect(try a.canonicalTruth() == b.canonicalTruth())
    spec.seed = 78
    #expect(try TableSynthesizer.render(spec).image != a.image)
  }

  @Test(arguments: [(UInt64(5), 0.0, 0.0), (6, 15, 0), (7, 0, 45), (8, 10, 90)])
  func truthBoxesContainCardPixels(seed: UInt64, tilt: Double, rotation: Double) throws {
    let r = try TableSynthesizer.render(cleanTable(seed: seed, tilt: tilt, rotation: rotation))
    let img = r.image
    // Every card-white pixel lies in some truth box (1 px slack for antialiasing).
    var whites = 0
    for y in stride(from: 0, to: img.height, by: 2) {
      for x in stride(from: 0, to: img.width, by: 2) where isCardWhite(img[x, y]) {
        whites += 1
        let inside = r.cards.contains { t in
          Double(x) >= t.box.x1 - 1 && Double(x) <= t.box.x2 + 1 && Double(y) >= t.box.y1 - 1 && Double(y) <= t.box.y2 + 1
        }
        #expect(inside, "white pixel (\(x), \(y)) outside every box, seed \(seed)")
      }
    }
    #expect(whites > 500)
    // Points just inside each card's corners are card white and inside its box.
    for (i, t) in r.cards.enumerated() {
      let c = t.corners
      for (u, v) in [(0.1, 0.06), (0.9, 0.06), (0.9, 0.94), (0.1, 0.94)] {
        let x = c[0][0] + u * (c[1][0] - c[0][0]) + v * (c[3][0] - c[0][0])
        let y = c[0][1] + u * (c[1][1] - c[0][1]) + v * (c[3][1] - c[0][1])
        #expect(x >= t.box.x1 && x <= t.box.x2 && y >= t.box.y1 && y <= t.box.y2)
        #expect(isCardWhite(img[Int(x), Int(y)]), "card \(i) at (\(x), \(y)): \(img[Int(x), Int(y)]), seed \(seed)")
      }
    }
  }

  @Test func truthListsCardsAndSets() throws {
    var spec = cleanTable(seed: 9)
    spec.cards = cards(SetFinderTests.fourteen)
    let r = try TableSynthesizer.render(spec)
    #expect(r.sets.count == 14)
    let json = try r.canonicalTruth()
    for key in ["\"cards\"", "\"sets\"", "\"box\"", "\"corners\"", "\"number\": \"one\"", "\"color\": \"green\"",
                "\"shape\": \"squiggle\"", "\"fill\": \"empty\"", "\"label\": \"1空绿弯\""] {
      #expect(json.contains(key), "truth lacks \(key)")
    }
  }

  @Test func specIsValidated() {
    var spec = SetTableSpec(seed: 1, size: ImageSize(width: 320, height: 240), cardCount: 22)
    #expect(throws: SetCardsError.invalid(name: "card_count", value: "22", expected: "3...21")) {
      try SetTable.resolve(spec)
    }
    spec.cardCount = 12
    spec.blur = 30
    #expect(throws: SetCardsError.self) { try SetTable.resolve(spec) }
  }

  @Test func dealsAreDistinctAndSized() throws {
    for n in [3, 12, 15, 21] {
      let t = try SetTable.resolve(SetTableSpec(seed: UInt64(n), cardCount: n))
      #expect(t.cards.count == n && Set(t.cards.map(\.card)).count == n)
    }
  }
}

@Suite struct OracleAndLetterboxTests {
  @Test func truthFileRoundTripsThroughTheOracle() throws {
    var spec = cleanTable(seed: 12, count: 12)
    spec.cards = cards(SetFinderTests.fourteen)
    let render = try TableSynthesizer.render(spec)
    let oracle = try TruthOracle(truthJSON: try render.canonicalTruth(), path: "t.json")
    let r = try SetPipeline.run(image: render.image, detections: oracle.detections, classifier: oracle.classifier)
    #expect(r.cards.count == 12 && r.sets.count == 14)
    #expect(Set(r.cards.map(\.card)) == Set(render.cards.map(\.card)))
    #expect(throws: SetCardsError.self) { try TruthOracle(truthJSON: "{\"cards\": [{}]}", path: "t.json") }
  }

  @Test func detectorInputIsLetterboxed() throws {
    let image = try RGBA8Image(width: 64, height: 32, fill: RGBA(255, 0, 0))
    let frame = ModelFrame(imageWidth: 64, imageHeight: 32, inputSize: 64)
    #expect(frame.gain == 1 && frame.padX == 0 && frame.padY == 16)
    let t = try CardPreprocess.detectorInput(image, frame: frame)
    #expect(t.count == 3 * 64 * 64)
    #expect(abs(t[0] - 114.0 / 255) < Tolerance.float)            // R, row 0: padding
    #expect(abs(t[16 * 64] - 1) < Tolerance.float)                  // R, row 16: image
    #expect(abs(t[64 * 64 + 16 * 64]) < Tolerance.float)            // G, row 16: image
    let back = frame.toImage(frame.toModel(Box(x1: 3, y1: 4, x2: 50, y2: 30)))
    #expect(abs(back.x1 - 3) < Tolerance.exact && abs(back.y2 - 30) < Tolerance.exact)
  }
}
