import Inference
import Testing
import TestSupport
@testable import Pipeline

/// Reading a window in several views (`WindowView`): the eight symmetries, a
/// crop and a map moved consistently, and the pipeline's average.
struct RefinementViewTests {
  /// A [1, C, n, n] crop whose every value is distinct, so any misplaced pixel shows.
  func ramp(channels c: Int, side n: Int) throws -> Tensor {
    try Tensor(shape: [1, c, n, n], scalars: (0..<(c * n * n)).map { Float($0) })
  }

  @Test func theEightViewsAreDistinctPermutations() throws {
    #expect(WindowView.all.count == 8)
    #expect(Set(WindowView.all).count == 8)
    #expect(WindowView.all.first == .identity)
    let crop = try ramp(channels: 3, side: 5)
    var seen: Set<[Float]> = []
    for v in WindowView.all {
      let shown = try v.apply(to: crop)
      #expect(shown.shape == crop.shape)
      // a permutation of the pixels within each channel
      for k in 0..<3 { #expect(shown.scalars[(k * 25)..<((k + 1) * 25)].sorted() == crop.scalars[(k * 25)..<((k + 1) * 25)].sorted()) }
      seen.insert(shown.scalars)
    }
    #expect(seen.count == 8)
    // transpose, then mirror left-right: the view's top-right pixel (4, 0) shows the
    // original's top-left (0, 0), its top-left the original's bottom-left (0, 4)
    let tx = WindowView(transpose: true, flipX: true, flipY: false)
    #expect(try tx.apply(to: crop).scalars[0 * 5 + 4] == crop.scalars[0 * 5 + 0] && tx.source(x: 4, y: 0, side: 5) == (0, 0))
    #expect(tx.source(x: 0, y: 0, side: 5) == (0, 4))
  }

  /// A refiner that sees the same thing in every orientation — each cell's
  /// probability is the crop's red value, its offsets point at the reddest pixel,
  /// the partner channels at the greenest — gives, brought back from any view,
  /// exactly the identity's map: the crop's move and the map's undo agree.
  @Test func anEquivariantRefinerReadsTheSameInEveryView() throws {
    let n = 6
    var pixels = [Float](repeating: 0, count: 3 * n * n)
    pixels[1 * n + 4] = 1            // red at (4, 1)
    pixels[n * n + 5 * n + 1] = 1    // green at (1, 5)
    let crop = try Tensor(shape: [1, 3, n, n], scalars: pixels)
    func refiner(_ c: Tensor) -> [Float] {
      let plane = n * n
      func brightest(_ k: Int) -> (Int, Int) {
        let i = (0..<plane).max { c.scalars[k * plane + $0] < c.scalars[k * plane + $1] }!
        return (i % n, i / n)
      }
      let (rx, ry) = brightest(0), (gx, gy) = brightest(1)
      var out = [Float](repeating: 0, count: 6 * plane)
      for y in 0..<n {
        for x in 0..<n {
          let at = y * n + x
          out[at] = c.scalars[at]
          out[plane + at] = Float(rx - x); out[2 * plane + at] = Float(ry - y)
          out[3 * plane + at] = c.scalars[plane + at]
          out[4 * plane + at] = Float(gx - x); out[5 * plane + at] = Float(gy - y)
        }
      }
      return out
    }
    let plain = refiner(crop)
    for v in WindowView.all {
      var back = [Float](repeating: 0, count: plain.count)
      v.accumulate(refiner(try v.apply(to: crop)), channels: 6, side: n, into: &back)
      #expect(back == plain, "\(v)")
    }
  }

  /// Through the pipeline's `look` with a refiner that ignores its crop (the
  /// fixture's constant 96x96 map): two views average the map with its own
  /// left-right mirror, x offsets negated; the mirror alone gives the mirror.
  @Test func twoViewsAverageTheMapWithItsMirror() throws {
    let (req, _) = try RefinementTests().request(refiner: "refiner-peaks96.onnx")
    var refiner = try #require(req.refiner)
    let crop = try Tensor(zeros: [1, 3, 96, 96])
    let m = try #require(try ArrowRefinement.look(at: crop, refiner: refiner, input: "crop", output: "refined", gate: nil))
    refiner.settings.views = Array(WindowView.all.prefix(2))
    let avg = try #require(try ArrowRefinement.look(at: crop, refiner: refiner, input: "crop", output: "refined", gate: nil))
    #expect(avg.shape == [1, 3, 96, 96])
    let plane = 96 * 96
    for k in 0..<3 {
      for i in 0..<96 {
        for j in 0..<96 {
          let mirrored = m.scalars[k * plane + i * 96 + (95 - j)] * (k == 1 ? -1 : 1)
          let want = (m.scalars[k * plane + i * 96 + j] + mirrored) * 0.5
          #expect(Tolerance.exact.accepts(Double(avg.scalars[k * plane + i * 96 + j]), Double(want)))
        }
      }
    }
    // one view alone is brought back too: a lone mirror gives the mirrored map
    refiner.settings.views = [WindowView.all[1]]
    let lone = try #require(try ArrowRefinement.look(at: crop, refiner: refiner, input: "crop", output: "refined", gate: nil))
    for k in 0..<3 {
      for i in 0..<96 {
        for j in 0..<96 {
          let mirrored = m.scalars[k * plane + i * 96 + (95 - j)] * (k == 1 ? -1 : 1)
          #expect(Tolerance.exact.accepts(Double(lone.scalars[k * plane + i * 96 + j]), Double(mirrored)))
        }
      }
    }
    // the fixture's strongest trusted entry (+1.75, +0.25) p 0.9 now stands at half strength on both sides
    let peaks = ArrowRefinement.peaks(avg.scalars, height: 96, width: 96, cell: 0.5, accept: 0.4, trust: 12)
    #expect(peaks.contains(.init(x: 1.75, y: 0.25, p: Double(Float(0.9) * 0.5))))
    #expect(peaks.contains(.init(x: -1.75, y: 0.25, p: Double(Float(0.9) * 0.5))))
  }

  /// With several views the gate is read once, in the first: a window it turns
  /// down yields nothing, one it lets through yields the averaged map.
  @Test func theGateIsReadInTheFirstView() throws {
    for (fixture, passes) in [("refiner-peaks-gate09.onnx", true), ("refiner-peaks-gate02.onnx", false)] {
      var (req, _) = try RefinementTests().request(refiner: fixture)
      req.refiner?.settings.views = WindowView.all
      req.refiner?.settings.gateAccept = 0.5
      let refiner = try #require(req.refiner)
      let out = try ArrowRefinement.look(at: try Tensor(zeros: [1, 3, 96, 96]), refiner: refiner, input: "crop", output: "refined", gate: "window")
      #expect((out != nil) == passes, "\(fixture)")
    }
  }

  @Test func noViewsIsAnError() throws {
    var (req, _) = try RefinementTests().request(refiner: "refiner-peaks.onnx")
    req.refiner?.settings.views = []
    let refiner = try #require(req.refiner)
    #expect(throws: PipelineError.self) {
      try ArrowRefinement.look(at: try Tensor(zeros: [1, 3, 96, 96]), refiner: refiner, input: "crop", output: "refined", gate: nil)
    }
  }
}
