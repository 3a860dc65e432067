@testable import Detection
import Foundation
import Testing
@testable import Pipeline

/// How a pair verifier settles the refiner's touching pairs: a second entry
/// close by stays only when the verifier says pair, a lone entry it calls a pair
/// gains the refiner's partner, and the verifier model is read through the
/// pipeline (constant verifiers, Fixtures/README.md).
struct RefinementPairTests {
  func entry(_ x: Double, _ y: Double, p: Double, partner: (Double, Double)? = nil) -> ArrowRefinement.Candidate {
    let d = Detection(box: PixelBox(x: x - 3, y: y - 3, width: 6, height: 6), centerX: Float(x), centerY: Float(y),
                      confidence: p, classID: 0, source: 0)
    return .init(detection: d, partner: partner.map { ($0.0, $0.1, p / 2) })
  }

  func settle(_ entries: [ArrowRefinement.Candidate], answer: (Double, Double) -> Double) throws -> [(Float, Float, Double)] {
    try ArrowRefinement.settlePairs(entries, accept: 0.5, reach: 6, mergePx: 2) { answer($0, $1) }
      .map { ($0.centerX, $0.centerY, $0.confidence) }
  }

  @Test func aSingleArrowAbsorbsItsSecondReading() throws {
    // two readings 4 px apart, one arrow 30 px away: the verifier calls both single
    let out = try settle([entry(100, 100, p: 0.9, partner: (104, 100)), entry(104, 100, p: 0.5), entry(130, 100, p: 0.7)]) { _, _ in 0.1 }
    #expect(out.map(\.0) == [100, 130])
  }

  @Test func aPairKeepsItsNearestNeighbourOnly() throws {
    // the most probable entry is read as a pair: its nearest neighbour stays, the
    // farther one (5.5 px) is left to be settled on its own — and called single there, it stays
    let out = try settle([entry(100, 100, p: 0.9), entry(100, 105.5, p: 0.6), entry(103, 100, p: 0.8)]) { _, y in y == 100 ? 0.9 : 0.1 }
    #expect(out.map(\.0) == [100, 103, 100])
    #expect(out.map(\.1) == [100, 100, 105.5])
  }

  @Test func aLonePairGainsTheRefinersPartner() throws {
    let out = try settle([entry(100, 100, p: 0.9, partner: (103, 101)), entry(200, 100, p: 0.8, partner: (201, 100))]) { x, _ in
      x == 100 ? 0.7 : 0.95
    }
    // the first gains (103, 101) at the smaller of its probability and the verifier's;
    // the second's partner lies within the merge radius (2 px): nothing to add
    #expect(out.count == 3)
    #expect(out[1] == (103, 101, 0.7))
    #expect(out[2].0 == 200)
  }

  @Test func theVerifierReachesThePipeline() throws {
    let fixtures = RefinementTests.fixtures
    let image = try RefinementTests().request(refiner: nil).0.image
    for (file, expected) in [("pairs-yes.onnx", 0.9), ("pairs-no.onnx", 0.1)] {
      let v = try PairVerifier(contentsOf: fixtures.appendingPathComponent(file).path)
      #expect(abs(try v.probability(x: 640, y: 480, image: image, scale: 2) - expected) < 1e-6)
    }
    // a constant peak refiner (two entries per window) over the true boxes plus a wide
    // duplicate 2 input px from the first: merged only within 0.5 input px, the
    // duplicate's window reads that arrow's entries again 1-2 input px away
    var (req, _) = try RefinementTests().request(refiner: "refiner-peaks.onnx")
    req.refiner?.settings.mergeInputPx = 0.5
    let plain = try ArcheryPipeline.run(req).detections.count
    var counts: [String: Int] = [:]
    for file in ["pairs-yes.onnx", "pairs-no.onnx"] {
      req.refiner?.pairs = try PairVerifier(contentsOf: fixtures.appendingPathComponent(file).path)
      counts[file] = try ArcheryPipeline.run(req).detections.count
    }
    // called single, the second readings go; called pairs, each keeps one neighbour
    #expect(try #require(counts["pairs-no.onnx"]) < plain)
    #expect(try #require(counts["pairs-yes.onnx"]) > counts["pairs-no.onnx"]!)
    #expect(try #require(counts["pairs-yes.onnx"]) <= plain)
  }
}
