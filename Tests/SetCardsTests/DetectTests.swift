@testable import SetCards
@testable import Synth
@testable import Harness
import Testing

func det(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ conf: Double = 0.9, _ src: Int = 0) -> CardDetection {
  CardDetection(box: Box(x1: x1, y1: y1, x2: x2, y2: y2), confidence: conf, source: src)
}

@Suite struct DetectTests {
  /// Four 10×10 boxes (median area 100 of five) and one of `ratio` × 100.
  func merged(_ height: Double) -> [CardDetection] {
    (0..<4).map { det(Double($0) * 20, 0, Double($0) * 20 + 10, 10, 0.9, $0) } + [det(100, 0, 110, height, 0.9, 4)]
  }

  @Test(arguments: [(21.9, 5), (22.0, 5), (22.1, 4)])
  func mergedFilterBoundary(height: Double, kept: Int) {
    #expect(Detect.dropMerged(merged(height)).count == kept)
  }

  @Test func mergedFilterUsesUpperMedian() {
    // Areas [100, 100, 300, 600]: median sorted[2] = 300 keeps 600 (≤ 660).
    let d = [det(0, 0, 10, 10), det(20, 0, 30, 10), det(40, 0, 50, 30), det(60, 0, 80, 30)]
    #expect(d.map(\.box.area) == [100, 100, 300, 600])
    #expect(Detect.dropMerged(d).count == 4)
    // Fewer than three: never filtered.
    #expect(Detect.dropMerged([det(0, 0, 10, 10), det(0, 0, 100, 100)]).count == 2)
  }

  @Test func nmsIsGreedyByConfidence() {
    let d = [det(0, 0, 100, 100, 0.8, 0), det(5, 5, 105, 105, 0.9, 1), det(300, 0, 400, 100, 0.7, 2),
             det(0, 0, 50, 100, 0.6, 3)]
    let kept = Detect.nms(d, iouThreshold: 0.7)
    #expect(kept.map(\.source) == [1, 2, 3])
    // IoU exactly 0.5 survives a 0.5 threshold; 0.51 does not.
    #expect(Detect.nms([det(0, 0, 100, 100, 0.9, 0), det(0, 0, 50, 100, 0.8, 1)], iouThreshold: 0.5).count == 2)
    #expect(Detect.nms([det(0, 0, 100, 100, 0.9, 0), det(0, 0, 51, 100, 0.8, 1)], iouThreshold: 0.5).count == 1)
  }

  @Test func decodeSyntheticTensor() throws {
    let frame = ModelFrame(imageWidth: 1280, imageHeight: 960)
    #expect(frame.gain == 0.5 && frame.padX == 0 && frame.padY == 80)
    let n = 8400
    var t = [Float](repeating: 0, count: 5 * n)
    func put(_ a: Int, _ b: Box, _ score: Float) {
      let m = frame.toModel(b)
      t[a] = Float((m.x1 + m.x2) / 2); t[n + a] = Float((m.y1 + m.y2) / 2)
      t[2 * n + a] = Float(m.width); t[3 * n + a] = Float(m.height); t[4 * n + a] = score
    }
    put(17, Box(x1: 100, y1: 200, x2: 300, y2: 500), 0.91)
    put(4000, Box(x1: 104, y1: 204, x2: 304, y2: 504), 0.85)  // duplicate, suppressed
    put(8399, Box(x1: 800, y1: 100, x2: 1000, y2: 400), 0.88)
    put(5, Box(x1: 500, y1: 500, x2: 700, y2: 800), 0.70)  // not above 0.7
    let raw = try Detect.decode(t, anchors: n, frame: frame, threshold: 0.7)
    #expect(raw.map(\.source) == [17, 4000, 8399])
    let kept = Detect.nms(raw, iouThreshold: 0.7)
    #expect(kept.map(\.source) == [17, 8399])
    #expect(abs(kept[0].box.x1 - 100) < Tolerance.coordinate && abs(kept[0].box.y2 - 500) < Tolerance.coordinate)
    #expect(abs(kept[1].box.x2 - 1000) < Tolerance.coordinate && abs(kept[1].box.y1 - 100) < Tolerance.coordinate)
    #expect(throws: SetCardsError.self) { try Detect.decode([0, 1], anchors: n, frame: frame, threshold: 0.5) }
  }

  @Test(arguments: [(0.799, false), (0.800, true)])
  func classConfidenceThreshold(lowest: Double, included: Bool) throws {
    let cards = ["0000", "1111", "2222"].map { Card(parsing: $0)! }
    let boxes = (0..<3).map { det(Double($0) * 60, 0, Double($0) * 60 + 50, 80, 0.95, $0) }
    var scripts: [Int: ScriptedClass] = [:]
    for i in 0..<3 { scripts[i] = .card(cards[i], confidences: [0.97, 0.97, 0.97, i == 2 ? lowest : 0.97]) }
    let image = try blankImage(200, 100)
    let r = try SetPipeline.run(image: image, detections: .boxes(boxes), classifier: .scripted(scripts))
    #expect(r.cards.count == 3)
    #expect(abs(r.cards[2].classConfidence - lowest) < Tolerance.probability)
    #expect(r.cards[2].included == included)
    #expect(r.sets.count == (included ? 1 : 0))
  }
}
