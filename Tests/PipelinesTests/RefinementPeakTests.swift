import Detection
import Foundation
import Inference
import Testing
import TestSupport
@testable import Pipelines
@testable import Harness

/// Peak refiners ([1, 3, H, W] outputs): which cells count as entries, and how
/// each window's entries reach the pipeline (Fixtures/refiner-peaks.onnx).
struct RefinementPeakTests {
  /// A 4x4 map (cells centred at -1.5…+1.5) with the given probabilities and
  /// every offset (0.1, -0.2).
  func map(_ probs: [Float]) -> [Float] {
    probs + [Float](repeating: 0.1, count: 16) + [Float](repeating: -0.2, count: 16)
  }

  /// Three local maxima, (0,1) 0.9, (2,3) 0.7 and (3,0) 0.8, and two lower
  /// neighbours of the first, (0,2) 0.6 and (1,1) 0.5.
  var threePeaks: [Float] {
    map([0.2, 0.9, 0.6, 0.0,
         0.0, 0.5, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.7,
         0.8, 0.0, 0.0, 0.0])
  }

  @Test func localMaximaAboveAcceptWithinTrustAreEntries() {
    let v = threePeaks
    let all = ArrowRefinement.peaks(v, height: 4, width: 4, cell: 1, accept: 0.5, trust: 2)
    // (0,1) 0.9 top; (0,2) 0.6 and (1,1) 0.5 are its neighbours; (2,3) 0.7 and (3,0) 0.8 stand alone
    #expect(all.map(\.p) == [0.9, 0.7, 0.8].map { Double(Float($0)) })
    let e = ArrowRefinement.Peak(x: -0.5 + Double(Float(0.1)), y: -1.5 + Double(Float(-0.2)), p: Double(Float(0.9)))
    #expect(all.first == e)
    // trust 1: only cells centred within ±1 (rows and columns 1-2) can be entries, so
    // the three peaks go; (1,1) 0.5 is read but its untrusted neighbour (0,1) still outranks it
    #expect(ArrowRefinement.peaks(v, height: 4, width: 4, cell: 1, accept: 0.5, trust: 1).isEmpty)
    var lone = v
    lone[1] = 0.4; lone[2] = 0.4
    #expect(ArrowRefinement.peaks(lone, height: 4, width: 4, cell: 1, accept: 0.5, trust: 1).map(\.p) == [Double(Float(0.5))])
    #expect(ArrowRefinement.peaks(v, height: 4, width: 4, cell: 1, accept: 0.95, trust: 2).isEmpty)
  }

  @Test func equalNeighboursAreBothReported() {
    // a plateau gives two peaks; the pipeline's merge decides between them
    let v = map([0.0, 0.0, 0.0, 0.0,
                 0.0, 0.6, 0.6, 0.0,
                 0.0, 0.0, 0.0, 0.0,
                 0.0, 0.0, 0.0, 0.0])
    #expect(ArrowRefinement.peaks(v, height: 4, width: 4, cell: 1, accept: 0.5, trust: 2).count == 2)
  }

  /// Every candidate window yields the fixture's two entries; the wide duplicate's
  /// (2 input px from the first arrow's) merge into the first arrow's at 2.5 px.
  @Test func everyWindowGivesItsEntries() throws {
    var (req, truth) = try RefinementTests().request(refiner: "refiner-peaks.onnx")
    req.refiner?.settings.mergeInputPx = 2.5
    let r = try ArcheryPipeline.run(req)
    let arrows = truth.arrows(in: .shafts)
    // two per true arrow and two for the faint candidate
    #expect(r.detections.count == 2 * (arrows.count + 1))
    // (+1.75, +0.25) and (-1.5, +0.5) input px = (+3.5, +0.5) and (-3, +1) photo px
    for t in arrows {
      for (dx, dy, p) in [(3.5, 0.5, 0.9), (-3.0, 1.0, 0.8)] {
        let near = r.detections.filter { hypot(Double($0.pixelX) - t.pixelX - dx, Double($0.pixelY) - t.pixelY - dy) < 0.01 }
        #expect(near.count == 1)
        #expect(near.first?.confidence == Double(Float(p)))
      }
    }
  }

  /// A 96x96 map holding the same points in 0.5 px cells gives the same arrows:
  /// the pipeline reads the cell size from the map's width, not a fixed 1 px.
  @Test func aFinerMapGivesTheSameEntries() throws {
    var (req, _) = try RefinementTests().request(refiner: "refiner-peaks.onnx")
    req.refiner?.settings.mergeInputPx = 2.5
    let coarse = try ArcheryPipeline.run(req).detections
    var (fine, _) = try RefinementTests().request(refiner: "refiner-peaks96.onnx")
    fine.refiner?.settings.mergeInputPx = 2.5
    let r = try ArcheryPipeline.run(fine).detections
    #expect(!coarse.isEmpty)
    #expect(r.count == coarse.count)
    for (a, b) in zip(r, coarse) {
      // both place each entry by cell centre + offset, values exact in binary
      #expect(Tolerance.exact.accepts(Double(a.pixelX), Double(b.pixelX)) && Tolerance.exact.accepts(Double(a.pixelY), Double(b.pixelY)))
      #expect(a.confidence == b.confidence)
    }
  }

  /// A gated refiner's `window` output is read first: below the gate's accept
  /// the window yields nothing; above it the peaks come out as without a gate.
  @Test func theGateDecidesWhichWindowsYieldPeaks() throws {
    var (req, _) = try RefinementTests().request(refiner: "refiner-peaks.onnx")
    req.refiner?.settings.mergeInputPx = 2.5
    let plain = try ArcheryPipeline.run(req).detections
    #expect(!plain.isEmpty)
    for (fixture, passes) in [("refiner-peaks-gate09.onnx", true), ("refiner-peaks-gate02.onnx", false)] {
      var (g, _) = try RefinementTests().request(refiner: fixture)
      g.refiner?.settings.mergeInputPx = 2.5
      g.refiner?.settings.gateAccept = 0.5
      let r = try ArcheryPipeline.run(g).detections
      if passes {
        #expect(r.map { [$0.pixelX, $0.pixelY] } == plain.map { [$0.pixelX, $0.pixelY] }, "\(fixture)")
      } else {
        #expect(r.isEmpty, "\(fixture)")
      }
    }
  }

  /// A refiner answering NaN (broken weights) or probabilities outside 0...1 is an error:
  /// no threshold passes NaN, so every arrow would vanish without a word.
  @Test func brokenRefinerAnswersAreErrors() throws {
    var map = [Float](repeating: 0, count: 3 * 4 * 4)
    #expect(throws: Never.self) { try ArrowRefinement.checkAnswer(try Tensor(shape: [1, 3, 4, 4], scalars: map), name: "r", output: "refined") }
    map[5] = .nan
    #expect { try ArrowRefinement.checkAnswer(try Tensor(shape: [1, 3, 4, 4], scalars: map), name: "r", output: "refined") } throws: {
      "\($0)".contains("holds nan at 5")
    }
    map[5] = 1.5
    #expect { try ArrowRefinement.checkAnswer(try Tensor(shape: [1, 3, 4, 4], scalars: map), name: "r", output: "refined") } throws: {
      "\($0)".contains("probability 1.5")
    }
    map[5] = 0; map[16 + 5] = 1.5  // an offset of 1.5 input px is fine
    #expect(throws: Never.self) { try ArrowRefinement.checkAnswer(try Tensor(shape: [1, 3, 4, 4], scalars: map), name: "r", output: "refined") }
  }

  /// `gateFallback` (best): a candidate at or above the profile's confidence whose gate passes the
  /// fallback but whose map shows no entry is kept at the gate's point, with the gate's probability;
  /// the faint candidate stays dropped, and a gate below the fallback or no fallback keeps nothing.
  @Test func confidentBoxesTheGateBelievesOutliveASilentMap() throws {
    let cases: [(String, Double?, Bool)] = [("refiner-peaks-gate09.onnx", 0.3, true), ("refiner-peaks-gate09.onnx", nil, false),
                                            ("refiner-peaks-gate02.onnx", 0.3, false)]
    for (fixture, fallback, kept) in cases {
      var (g, truth) = try RefinementTests().request(refiner: fixture)
      g.refiner?.settings.accept = 0.99  // above every cell of the fixture's map: it shows no entry
      g.refiner?.settings.gateAccept = 0.1
      g.profile.gateFallback = fallback
      let r = try ArcheryPipeline.run(g).detections
      guard kept else {
        #expect(r.isEmpty, "\(fixture) \(String(describing: fallback))")
        continue
      }
      let arrows = truth.arrows(in: .shafts)
      // one per true arrow: the wide duplicate (2 input px away) merges into the first, the faint box is below 0.35
      #expect(r.count == arrows.count)
      for t in arrows {
        let near = r.filter { hypot(Double($0.pixelX) - t.pixelX, Double($0.pixelY) - t.pixelY) < 1 }
        #expect(near.count == 1, "one kept at the gate's point (offset 0, 0) of the box on (\(t.pixelX), \(t.pixelY))")
        #expect(near.first?.confidence == Double(Float(0.9)))
      }
    }
  }

  /// Cells of another size (a 96x96 map over a 48 px window: 0.5 px): cell
  /// centres, the trust radius and so every entry scale with it; offsets stay in input px.
  @Test func cellSizeScalesCentresNotOffsets() {
    let v = threePeaks
    let half = ArrowRefinement.peaks(v, height: 4, width: 4, cell: 0.5, accept: 0.5, trust: 1)
    #expect(half.map(\.p) == [0.9, 0.7, 0.8].map { Double(Float($0)) })
    #expect(half.first == .init(x: -0.25 + Double(Float(0.1)), y: -0.75 + Double(Float(-0.2)), p: Double(Float(0.9))))
    // trust 0.5 px keeps only the central 2x2 cells, as trust 1 did with 1 px cells
    #expect(ArrowRefinement.peaks(v, height: 4, width: 4, cell: 0.5, accept: 0.5, trust: 0.5).isEmpty)
  }

  /// Six channels: a peak whose pair probability reaches `pairAccept` also
  /// reports its partner, at the partner offset, with the smaller probability.
  @Test func aPairChannelAddsTheTouchingPartner() {
    var v = [Float](repeating: 0, count: 6 * 16)
    v[5] = 0.8                       // cell (1,1), centre (-0.5, -0.5)
    v[16 + 5] = 0.25; v[32 + 5] = 0  // its entry (-0.25, -0.5)
    v[48 + 5] = 0.6                  // partner probability
    v[64 + 5] = 1.5; v[80 + 5] = 0.5 // partner at (1.0, 0.0)
    let f = { (q: Double) in ArrowRefinement.peaks(v, channels: 6, height: 4, width: 4, cell: 1, accept: 0.5, trust: 2, pairAccept: q) }
    #expect(f(0.7) == [.init(x: -0.25, y: -0.5, p: Double(Float(0.8)))])
    #expect(f(0.5) == [.init(x: -0.25, y: -0.5, p: Double(Float(0.8))), .init(x: 1.0, y: 0.0, p: Double(Float(0.6)), isPartner: true)])
    // three channels never read a partner, whatever follows them
    #expect(ArrowRefinement.peaks(v, channels: 3, height: 4, width: 4, cell: 1, accept: 0.5, trust: 2, pairAccept: 0).count == 1)
  }
}
