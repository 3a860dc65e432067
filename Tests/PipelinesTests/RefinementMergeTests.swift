@testable import Detection
import Testing
@testable import Pipelines

/// How refined points become arrows: the merge radius, and the rule that two
/// windows each reading one entry a little apart are one arrow read twice, while
/// a window that shows two entries there is believed.
struct RefinementMergeTests {
  /// A point (or window centre) at (x, y) photo pixels with confidence p.
  func point(_ x: Float, _ y: Float, _ p: Double = 0.5) -> Detection {
    Detection(box: PixelBox(x: Double(x) - 4, y: Double(y) - 4, width: 8, height: 8), centerX: x, centerY: y, confidence: p,
              classID: 0, source: 0)
  }

  /// Settings at scale 1 (a photo pixel per model-input pixel): merge 1, trust 12.
  func settings(double: Double) -> RefinerSettings {
    var s = RefinerSettings.shipped
    s.doubleInputPx = double
    return s
  }

  /// Window centres, and each kept point (x, y, probability, its window).
  func run(centres: [(Float, Float)], kept: [(Float, Float, Double, Int)], double: Double) -> [Detection] {
    ArrowRefinement.merge(kept.map { point($0.0, $0.1, $0.2) }, windows: kept.map(\.3), centres: centres.map { point($0.0, $0.1) },
                          scale: 1, settings: settings(double: double))
  }

  /// Two windows 3 px apart, each keeping one point between them.
  @Test func oneEntryReadByTwoWindowsIsOneArrow() {
    let centres: [(Float, Float)] = [(100, 100), (103, 100)]
    let kept: [(Float, Float, Double, Int)] = [(101, 100, 0.8, 0), (102.5, 100, 0.6, 1)]
    #expect(run(centres: centres, kept: kept, double: 0).count == 2, "off: only the 1 px merge")
    let one = run(centres: centres, kept: kept, double: 3)
    #expect(one.count == 1)
    #expect(one.first?.confidence == 0.8, "the more probable reading stays")
    #expect(run(centres: centres, kept: kept, double: 1.2).count == 2, "1.5 px apart: beyond a 1.2 px radius")
  }

  @Test func aWindowShowingBothEntriesIsBelieved() {
    let centres: [(Float, Float)] = [(100, 100), (103, 100)]
    // Window 0 keeps both entries of a touching pair; window 1 sees only the second.
    let kept: [(Float, Float, Double, Int)] = [(101, 100, 0.8, 0), (102.5, 100, 0.7, 0), (102.6, 100, 0.6, 1)]
    let out = run(centres: centres, kept: kept, double: 3)
    #expect(out.count == 2)
    #expect(out.map(\.confidence) == [0.8, 0.7])
  }

  @Test func aWindowThatCouldNotSeeThePointDecidesNothing() {
    // Window 1's centre is 14 px from the first point: beyond its 12 px trust.
    let centres: [(Float, Float)] = [(100, 100), (115, 100)]
    let kept: [(Float, Float, Double, Int)] = [(101, 100, 0.8, 0), (103, 100, 0.6, 1)]
    #expect(run(centres: centres, kept: kept, double: 3).count == 2)
  }
}
