import Canvas
import Core
@testable import SetCards
@testable import Synth
@testable import Harness
import Testing

func blankImage(_ w: Int, _ h: Int) throws -> RGBA8Image {
  try RGBA8Image(width: w, height: h, fill: RGBA(60, 80, 60))
}

/// Tolerances, named.
enum Tolerance {
  static let float: Float = 1e-3
  static let probability = 1e-12
  /// Box coordinates after a Float tensor round trip.
  static let coordinate = 1e-3
  /// Double arithmetic that should be exact up to rounding.
  static let exact = 1e-9
}

@Suite struct PreprocessTests {
  @Test func normalizeIsImageNetNCHW() throws {
    var image = try blankImage(20, 10)
    image[3, 4] = RGBA(255, 0, 128)
    let input = CardPreprocess.classifierInput(image, box: Box(x1: 0, y1: 0, x2: 20, y2: 10))
    #expect(input.count == 3 * 224 * 224)
    let plane = 224 * 224
    let mean: [Float] = [0.485, 0.456, 0.406], std: [Float] = [0.229, 0.224, 0.225]
    // Corner pixel (0, 0) is the plain fill (60, 80, 60).
    for (c, v) in [60, 80, 60].enumerated() {
      let expected = (Float(v) / 255 - mean[c]) / std[c]
      #expect(abs(input[c * plane] - expected) < Tolerance.float)
    }
  }

  @Test func cropTruncatesTowardZeroAndClamps() throws {
    var image = try blankImage(10, 10)
    image[2, 3] = RGBA(1, 2, 3)
    let c = CardPreprocess.crop(image, box: Box(x1: 2.9, y1: 3.99, x2: 5.5, y2: 40))
    #expect(c.width == 3 && c.height == 7)
    #expect(Array(c.rgb[0..<3]) == [1, 2, 3])
  }

  @Test func softmaxArgmaxAndHeadOrder() throws {
    // number two, color "blue" (= purple), shape oval, fill full (= solid).
    let logits: [Double] = [0, 3, 1, -1, 0, 2.5, 0, 1, 0, 0.2, 4, 0.1]
    let c = try Classify.decode(logits: logits)
    #expect(c.card == Card(number: .two, color: .purple, shape: .oval, fill: .solid))
    let p = try Classify.softmaxHeads(logits)
    for h in 0..<4 { #expect(abs(p[h * 3..<h * 3 + 3].reduce(0, +) - 1) < Tolerance.probability) }
    #expect(abs(c.confidence - c.confidences.min()!) < Tolerance.probability)
    #expect(abs(c.confidences[2] - p[7]) < Tolerance.probability)
    #expect(throws: SetCardsError.self) { try Classify.decode(logits: [1, 2, 3]) }
  }

  @Test func modelSeamReceivesTheNormalisedCrop() throws {
    struct Probe: CardClassifier {
      func logits(_ input: [Float]) throws -> [Float] {
        // Answers "three green squiggle striped" when the input is well-formed.
        input.count == 3 * 224 * 224 ? [0, 0, 5, 0, 5, 0, 0, 0, 5, 0, 0, 5] : []
      }
    }
    let image = try blankImage(64, 64)
    let r = try SetPipeline.run(image: image, detections: .boxes([det(4, 4, 40, 60)]),
                                classifier: .model(Probe()))
    #expect(r.cards.map(\.card.label) == ["3线绿弯"])
  }
}
