import Scoring
import Testing
import TestSupport
@testable import Adjustment

struct AdjusterTests {
  let face = try! FaceCatalog.face(named: "10_zone")

  func adjuster(_ d: DragSemantics) -> Adjuster { Adjuster(drag: d, viewRadius: 100, ids: ArrowIDs(style: .int, seed: 1)) }
  func arrows(_ pts: [(Double, Double)], confidence: Double = 0.9) -> [EditableArrow] {
    pts.enumerated().map { EditableArrow(id: "d\($0)", x: $1.0, y: $1.1, isManual: false, confidence: confidence) }
  }
  /// A drag as SwiftUI reports it: cumulative translations 10, 20, …, 50 points along x.
  let drag: [Gesture] = (1...5).map { .dragChanged(arrow: 0, translation: Double2(Double($0) * 10, 0)) } + [.dragEnded(arrow: 0)]

  func run(_ d: DragSemantics, _ start: [(Double, Double)], _ g: [Gesture], expected: Int = 1) -> AdjustmentOutput {
    AdjustmentStage.run(AdjustmentInput(detected: arrows(start), expected: expected, gestures: g), adjuster: adjuster(d),
                        face: face, rule: .inclusive, diameterCm: 122, arrowMM: 5.5)
  }

  @Test func fixedDragsEndWhereTheFingerEnds() {
    for d in [DragSemantics.startPlusTranslation, .delta] {
      let out = run(d, [(0.1, 0.1)], drag)
      #expect(Tolerance.close.accepts(out.final.arrows[0].x, 0.6) && out.final.arrows[0].y == 0.1, "\(d)")
    }
  }

  @Test func staleCaptureDrifts() {
    // 10+20+30+40+50 points = 150 points = 1.5 radii (then clamped at 1.5 and removed off-face).
    let out = run(.staleCapture, [(0.1, 0.1)], Array(drag.dropLast()))
    #expect(out.final.arrows[0].x == 1.5)
    let small = run(.staleCapture, [(0.0, 0.0)], [.dragChanged(arrow: 0, translation: Double2(10, 0)), .dragChanged(arrow: 0, translation: Double2(20, 0))])
    #expect(Tolerance.close.accepts(small.final.arrows[0].x, 0.3))  // the finger moved 0.2
  }

  @Test func clampAtOneAndAHalfAndRemovalOnDragEnd() {
    let far = (1...3).map { Gesture.dragChanged(arrow: 0, translation: Double2(Double($0) * 100, Double($0) * 100)) }
    let out = run(.startPlusTranslation, [(0.0, 0.0)], far)
    #expect(out.final.arrows[0].x == 1.5 && out.final.arrows[0].y == 1.5)  // square clamp: d = 2.12
    let ended = run(.startPlusTranslation, [(0.0, 0.0)], far + [.dragEnded(arrow: 0)], expected: 1)
    #expect(ended.final.arrows.isEmpty && ended.final.isPlacementMode && ended.final.showMissingBanner)
  }

  @Test func deltaAndStartDifferAfterHittingTheClamp() {
    // Out past the clamp and back: start+translation returns to the true finger
    // position, delta loses the movement past the clamp.
    let g: [Gesture] = [.dragChanged(arrow: 0, translation: Double2(200, 0)), .dragChanged(arrow: 0, translation: Double2(100, 0))]
    #expect(Tolerance.close.accepts(run(.startPlusTranslation, [(0.0, 0.0)], g).final.arrows[0].x, 1.0))
    #expect(Tolerance.close.accepts(run(.delta, [(0.0, 0.0)], g).final.arrows[0].x, 0.5))
  }

  @Test func placementModeTapsAndCounts() {
    let out = run(.startPlusTranslation, [(0.2, 0.0)], [.tap(Double2(0.0, 0.05)), .tap(Double2(0.3, 0.3)), .tap(Double2(0.5, 0.5)), .confirm], expected: 3)
    #expect(out.final.arrows.count == 3 && !out.final.isPlacementMode)
    #expect(out.events[2].outcome.hasPrefix("ignored"))  // third tap: placement mode already off
    let c = try! #require(out.confirmed)
    #expect(c.map(\.score) == [9, 10, 6] && c[1].isX && c[1].wasAdjusted && c[1].isManual && !c[0].wasAdjusted)
  }

  @Test func extraArrowsWarnAndTapsAreIgnoredOutsidePlacement() {
    let out = run(.startPlusTranslation, [(0, 0), (0.1, 0), (0.2, 0)], [.tap(Double2(0, 0))], expected: 2)
    #expect(out.final.showExtraWarning && out.final.extraCount == 1 && out.events[0].outcome.hasPrefix("ignored"))
  }

  @Test func wasAdjustedThreshold() {
    // Moved exactly 0.01 (1 point at radius 100) from 0 is not adjusted; a bit more is.
    let at = run(.startPlusTranslation, [(0.0, 0.0)], [.dragChanged(arrow: 0, translation: Double2(1, 0)), .dragEnded(arrow: 0), .confirm])
    let over = run(.startPlusTranslation, [(0.0, 0.0)], [.dragChanged(arrow: 0, translation: Double2(1.01, 0)), .dragEnded(arrow: 0), .confirm])
    #expect(at.confirmed?[0].wasAdjusted == false && over.confirmed?[0].wasAdjusted == true)
    // The same 1-point drag from x = 0.25 measures 0.26 − 0.25 = 0.010000000000000009: adjusted.
    let trap = run(.startPlusTranslation, [(0.25, 0.0)], [.dragChanged(arrow: 0, translation: Double2(1, 0)), .dragEnded(arrow: 0), .confirm])
    #expect(trap.confirmed?[0].wasAdjusted == true)
  }

  @Test func missingArrowAndErrorFlow() {
    let out = run(.startPlusTranslation, [(0.0, 0.0)], [.dragChanged(arrow: 4, translation: Double2(1, 1))])
    #expect(out.events[0].outcome == "ignored: arrow 4 does not exist")
    let err = AdjustmentStage.run(AdjustmentInput(detected: [], expected: 2, gestures: [.tap(Double2(0, 0)), .manualEntry, .tap(Double2(0, 0)), .confirm],
                                                  detectionError: "Failed to process image"),
                                  adjuster: adjuster(.delta), face: face, rule: .inclusive, diameterCm: 122, arrowMM: 5.5)
    #expect(err.events[0].outcome.hasPrefix("ignored") && err.events[1].outcome == "applied")
    #expect(err.confirmed?.count == 1 && err.confirmed?[0].isManual == true)
  }

  @Test func confidenceTiers() {
    let t = [0.9, 0.7, 0.69, 0.5, 0.49].map { EditableArrow(id: "a", x: 0, y: 0, isManual: false, confidence: $0).tier }
    #expect(t == ["red", "red", "orange", "orange", "deep-orange"])
    #expect(EditableArrow(id: "m", x: 0, y: 0, isManual: true, confidence: 0.1).tier == "green")
  }

  @Test func uuidsAreDerivedFromTheSeed() {
    var a = ArrowIDs(style: .uuid, seed: 9), b = ArrowIDs(style: .uuid, seed: 9), c = ArrowIDs(style: .uuid, seed: 10)
    let x = a.next()
    #expect(x == b.next() && x != c.next())
    #expect(x.count == 36 && x.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12] && x.dropFirst(14).first == "4")
  }
}
