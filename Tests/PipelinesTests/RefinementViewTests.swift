import Foundation
import Inference
import Testing
import TestSupport
@testable import Pipelines
@testable import Harness

/// The refiner's extra readings of a window in its mirrored and transposed
/// views: each view's offsets must come back in the window's own axes.
struct RefinementViewTests {
  /// A stand-in refiner that reads perfectly: it finds the crop's one bright
  /// pixel and, from every cell of an m×m map, points at it (crop pixels
  /// centred on the window; cell 0's probability 1 where the pixel lies, 0.1
  /// elsewhere). Pair maps repeat the entry as the partner.
  func perfect(_ crop: Tensor, mapSide m: Int, channels: Int) throws -> Tensor {
    let n = crop.shape[3]
    let at = crop.scalars[0..<(n * n)].indices.max { crop.scalars[$0] < crop.scalars[$1] }!
    let x = Double(at % n) + 0.5 - Double(n) / 2, y = Double(at / n) + 0.5 - Double(n) / 2
    let cell = Double(n) / Double(m), plane = m * m
    var v = [Float](repeating: 0, count: channels * plane)
    for i in 0..<m {
      for j in 0..<m {
        let cx = (Double(j) + 0.5 - Double(m) / 2) * cell, cy = (Double(i) + 0.5 - Double(m) / 2) * cell
        let inside = abs(x - cx) <= cell / 2 && abs(y - cy) <= cell / 2
        for g in stride(from: 0, to: channels, by: 3) {
          v[g * plane + i * m + j] = inside ? 1 : 0.1
          v[(g + 1) * plane + i * m + j] = Float(x - cx)
          v[(g + 2) * plane + i * m + j] = Float(y - cy)
        }
      }
    }
    return try Tensor(shape: [1, channels, m, m], scalars: v)
  }

  func crop(brightAt row: Int, _ column: Int, side n: Int = 8) throws -> Tensor {
    var v = [Float](repeating: 0, count: 3 * n * n)
    for ch in 0..<3 { v[ch * n * n + row * n + column] = 1 }
    return try Tensor(shape: [1, 3, n, n], scalars: v)
  }

  @Test func theEightViewsAreDistinctAndTheFirstIsTheWindow() {
    let views = ArrowRefinement.View.first(8)
    #expect(views.count == 8)
    #expect(views[0] == ArrowRefinement.View(swap: false, flipX: false, flipY: false))
    let images = views.map { v in (0..<3).flatMap { i in (0..<3).map { j in v.cell(i, j, n: 3) } }.map { $0.row * 3 + $0.column } }
    #expect(Set(images.map { $0.description }).count == 8)
    #expect(ArrowRefinement.View.first(0).count == 1)
    #expect(ArrowRefinement.View.first(20).count == 8)
  }

  @Test(arguments: [3, 6])
  func aPerfectReaderGivesTheSameOffsetsInEveryView(channels: Int) throws {
    // off-centre and off the diagonal, so a view turned back wrongly points elsewhere
    for (r, c) in [(1, 6), (5, 2), (3, 3)] {
      let window = try crop(brightAt: r, c)
      let first = try perfect(window, mapSide: 4, channels: channels)
      for n in [2, 4, 8] {
        let got = try ArrowRefinement.averagingOffsets(first, crop: window, views: n, accept: 0.5) { try perfect($0, mapSide: 4, channels: channels) }
        #expect(got.shape == first.shape)
        #expect(zip(got.scalars, first.scalars).allSatisfy { Tolerance.geometric.accepts(Double($0), Double($1)) })
      }
    }
  }

  @Test func eachViewShowsTheCropMovedAsItsCellsSay() throws {
    let window = try crop(brightAt: 1, 6)
    for v in ArrowRefinement.View.first(8) {
      let shown = v.show(window.scalars, channels: 3, side: 8)
      let (r, c) = v.cell(1, 6, n: 8)
      for ch in 0..<3 { #expect(shown[ch * 64 + r * 8 + c] == 1) }
      #expect(shown.reduce(0, +) == 3)
    }
  }

  @Test func theOffsetsAreAveragedAndTheProbabilitiesKept() throws {
    let window = try crop(brightAt: 1, 6)
    let first = try perfect(window, mapSide: 4, channels: 3)
    // a reader that always answers a constant map in its own frame: (dx, dy) = (1, 0)
    let constant = try Tensor(shape: [1, 3, 4, 4], scalars: [Float](repeating: 0.2, count: 16) + [Float](repeating: 1, count: 16) + [Float](repeating: 0, count: 16))
    let got = try ArrowRefinement.averagingOffsets(first, crop: window, views: 2, accept: 0.5) { _ in constant }
    #expect(Array(got.scalars[0..<16]) == Array(first.scalars[0..<16]))
    // the transposed view's (1, 0) is the window's (0, 1): the mean of the two readings
    for k in 0..<16 {
      #expect(Tolerance.geometric.accepts(Double(got.scalars[16 + k]), Double(first.scalars[16 + k] + 0) / 2))
      #expect(Tolerance.geometric.accepts(Double(got.scalars[32 + k]), Double(first.scalars[32 + k] + 1) / 2))
    }
  }

  @Test func windowsWithoutAnEntryAreReadOnce() throws {
    let window = try crop(brightAt: 1, 6)
    let quiet = try Tensor(shape: [1, 3, 4, 4], scalars: [Float](repeating: 0.2, count: 48))
    var reads = 0
    let got = try ArrowRefinement.averagingOffsets(quiet, crop: window, views: 8, accept: 0.35) { t in reads += 1; return t }
    #expect(reads == 0)
    #expect(got == quiet)
    _ = try ArrowRefinement.averagingOffsets(quiet, crop: window, views: 8, accept: 0.2) { t in reads += 1; return quiet }
    #expect(reads == 7)
  }

  /// A map of the wrong channel count is refused with the shapes expected, at any
  /// number of views, before any view is read (Fixtures/refiner-peaks-1ch.onnx).
  @Test(arguments: [1, 4])
  func aMapWithoutOffsetsIsRefused(views: Int) throws {
    var (req, _) = try RefinementTests().request(refiner: "refiner-peaks-1ch.onnx")
    req.refiner?.settings.views = views
    #expect { try ArcheryPipeline.run(req) } throws: { "\($0)".contains("expected [probability, dx, dy] or [1, 3 or 6, H, W]") }
  }
}

extension RefinementViewTests {
  func scenario(views: Int?) throws -> ArcheryScenario {
    let path = EvalPaths.models.appendingPathComponent("arrow-refiner.onnx").path
    return try ArcheryScenario.decode(PipelineTests.base + """

      profile: ios
      arrows:
        - {x: 0.05, y: 0.3}
        - {x: -0.4, y: 0.1}
        - {x: 0.2, y: -0.55}
      detector: {source: truth, refiner: '\(path)'\(views.map { ", refiner_views: \($0)" } ?? "")}
      """, path: "t.yaml")
  }

  /// A scenario's `refiner_views` reaches the refiner: the shipped refiner on
  /// one-entry windows finds the same arrows read once or eight times, placed
  /// apart by fractions of a pixel; the default is the shipped setting.
  @Test func aScenarioChoosesHowManyViewsTheRefinerReads() throws {
    let run = { (v: Int?) in try ScenarioRunner.run(try self.scenario(views: v), id: "t", workDir: NSTemporaryDirectory()).runs[0].result.detections }
    let once = try run(1), eight = try run(8), shipped = try run(nil), four = try run(RefinerSettings.shipped.views)
    #expect(once.count == 3 && eight.count == once.count)
    let moved = zip(once, eight).map { hypot(Double($0.pixelX - $1.pixelX), Double($0.pixelY - $1.pixelY)) }
    #expect(moved.contains { $0 > 0 } && moved.allSatisfy { $0 < 1 })
    #expect(shipped.map(\.pixelX) == four.map(\.pixelX) && shipped.map(\.pixelY) == four.map(\.pixelY))
  }

  @Test func aScenarioRefinerViewsOutOfRangeIsRefused() throws {
    #expect { try scenario(views: 9) } throws: { "\($0)".contains("refiner_views 9 is out of range: expected 1...8") }
    #expect { try scenario(views: 0) } throws: { "\($0)".contains("refiner_views 0 is out of range") }
  }
}
