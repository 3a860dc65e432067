import Testing
import Imaging
@testable import Obstacles
@testable import Harness
@testable import Synth

/// The anchor's edge cases, asserted on the functions and on whole runs.
struct BoundaryTests {
  /// (w, h, category): w·h lands exactly on each threshold (an exact halving).
  @Test(arguments: [
    (0.5, 0.3, "very close"), (0.5, 0.16, "close"), (0.5, 0.08, "medium"), (0.5, 0.04, "far"),
  ])
  func areaExactlyOnAThresholdTakesTheNearerBand(w: Double, h: Double, name: String) throws {
    let area = box(0, 0, w, h).area
    let threshold = try #require(Table.distanceBands.first { $0.category.name == name }).minArea
    #expect(area == threshold, "w·h = \(area) does not hit \(threshold) exactly")
    #expect(DistanceCategory.of(area: area)?.name == name)
    #expect(DistanceCategory.of(area: area.nextDown)?.name != name)
  }

  @Test func areaZeroHasNoCategoryAndAnyPositiveAreaIsVeryFar() {
    #expect(DistanceCategory.of(area: 0) == nil)
    #expect(DistanceCategory.of(area: box(0.4, 0.5, 0.2, 0).area) == nil)
    #expect(DistanceCategory.of(area: .leastNonzeroMagnitude)?.meters == 4.0)
    #expect(ObstaclePipeline.announcementText(label: "Dog", zone: .center, category: nil) == "Dog detected Center")
  }

  /// (variant, box x, width, zone at the boundary, zone just outside).
  @Test(arguments: [
    (ZoneVariant.batsight, 0.2, 0.4, Zone.left), (.batsight, 0.5, 0.2, .right),
    (.legacy, 0.23, 0.2, .left), (.legacy, 0.62, 0.1, .right),
  ])
  func centreOnAZoneBoundaryIsCenter(variant: ZoneVariant, x: Double, w: Double, outside: Zone) {
    let b = box(x, 0.3, w, 0.4)
    let bounds = Table.zoneBounds(variant)
    #expect(b.midX == (outside == .left ? bounds.left : bounds.right), "midX \(b.midX) misses the boundary")
    #expect(variant.zone(midX: b.midX) == .center)
    let nudged = outside == .left ? b.midX.nextDown : b.midX.nextUp
    #expect(variant.zone(midX: nudged) == outside)
  }

  @Test func legacyAndBatsightZonesDisagreeBetweenTheirBoundaries() {
    #expect(ZoneVariant.batsight.zone(midX: 0.35) == .left)
    #expect(ZoneVariant.legacy.zone(midX: 0.35) == .center)
  }

  @Test func intervalRefuses3_99AndAllows4_00() throws {
    let early = try ScenarioFiles.run("interval-3.99")
    #expect(early.frames[1].reason == .interval && !early.frames[1].announced)
    #expect(early.announcements.count == 1)
    let onTime = try ScenarioFiles.run("interval-4.00")
    #expect(onTime.frames[1].reason == .position && onTime.frames[1].announced)
    #expect(onTime.announcements.map(\.time) == [0.0, 4.0])
  }

  /// The app compares confidences as Float: the boundary is proven in both types.
  @Test func confidenceChangeBoundaryInFloatAndDouble() {
    let f = ConfidenceArithmetic.float32, d = ConfidenceArithmetic.float64
    #expect(!f.differs(0.5, 0.7, by: 0.2))  // 0.19999999
    #expect(f.differs(0.5, 0.71, by: 0.2))  // 0.20999998
    #expect(!f.differs(0.6, 0.8, by: 0.2))  // Float: 0.19999999
    #expect(d.differs(0.6, 0.8, by: 0.2))  // Double: 0.20000000000000007
    #expect(Float(0.8) - Float(0.6) < Float(0.2) && 0.8 - 0.6 > 0.2)
  }

  @Test(arguments: [
    ("confidence-change-0.20", false), ("confidence-change-0.21", true),
    ("confidence-float32-0.6-0.8", false), ("confidence-float64-0.6-0.8", true),
  ])
  func confidenceScenarios(id: String, announced: Bool) throws {
    let r = try ScenarioFiles.run(id)
    #expect(r.frames[1].announced == announced)
    #expect(r.frames[1].reason == (announced ? .confidence : .noChange))
  }

  @Test func allZeroIoUMatchesTheFirstBox() {
    let vision = box(0.05, 0.4, 0.2, 0.3)
    let boxes = [YOLOBox(confidence: 0.5, box: box(0.6, 0.1, 0.1, 0.1)), YOLOBox(confidence: 0.9, box: box(0.7, 0.5, 0.25, 0.4))]
    let o = YOLOStage.run(boxes, target: vision, semantics: .batsight)
    #expect(o.matched == 0 && o.iou == 0)
  }

  @Test func tiedIoUMatchesTheFirstBoxWhateverItsConfidence() {
    let vision = box(0.25, 0.25, 0.5, 0.5)
    let a = box(0, 0.25, 0.5, 0.5), b = box(0.5, 0.25, 0.5, 0.5)
    #expect(a.iou(vision) == b.iou(vision) && a.iou(vision) > 0)
    let o = YOLOStage.run([YOLOBox(confidence: 0.4, box: a), YOLOBox(confidence: 0.95, box: b)], target: vision, semantics: .batsight)
    #expect(o.matched == 0)
    let swapped = YOLOStage.run([YOLOBox(confidence: 0.95, box: b), YOLOBox(confidence: 0.4, box: a)], target: vision, semantics: .batsight)
    #expect(swapped.matched == 0)
  }

  @Test func aChangeInsideTheWindowIsNeverAnnounced() throws {
    let r = try ScenarioFiles.run("change-inside-window-never-announced")
    #expect(r.announcements.count == 1)
    #expect(r.frames[1].reason == .interval)
    #expect(r.frames.dropFirst(2).allSatisfy { $0.reason == .noChange && $0.zone == .right })
  }

  @Test func batsightNMSLetsAnEarlierWeakBoxSuppressALaterStrongOne() {
    let weak = YOLOBox(confidence: 0.35, box: box(0.2, 0.2, 0.3, 0.6))
    let strong = YOLOBox(confidence: 0.9, box: box(0.25, 0.2, 0.3, 0.6))
    let target = strong.box
    let bat = YOLOStage.run([weak, strong], target: target, semantics: ObstacleSemantics(nms: .batsight))
    #expect(bat.kept == [0] && bat.matched == 0 && bat.status[1].hasPrefix("suppressed by box 0"))
    let greedy = YOLOStage.run([weak, strong], target: target, semantics: ObstacleSemantics(nms: .greedy))
    #expect(greedy.kept == [1] && greedy.matched == 1)
    let none = YOLOStage.run([weak, strong], target: target, semantics: .batsight)
    #expect(none.kept == [0, 1] && none.matched == 1)
  }

  @Test func enclosingRatioUnderstatesIoUAndBothStopAtExactlyHalf() {
    let a = box(0, 0.25, 0.75, 0.5), b = box(0.25, 0.25, 0.75, 0.5)
    #expect(a.iou(b) == 0.5 && enclosingIoU(a.corners, b.corners) == 0.5)
    let c = box(0.2, 0.2, 0.3, 0.6), d = box(0.25, 0.3, 0.3, 0.6)
    #expect(enclosingIoU(c.corners, d.corners) < c.iou(d))
    for nms in [NMSVariant.batsight, .greedy] {
      let kept = YOLOStage.run([YOLOBox(confidence: 0.8, box: a), YOLOBox(confidence: 0.7, box: b)], target: b,
        semantics: ObstacleSemantics(nms: nms)).kept
      #expect(kept == [0, 1], "\(nms) suppressed at exactly 0.5")
    }
  }

  @Test func modeAnnouncementsBypassIntervalAndCooldownButRestartTheCooldown() throws {
    let r = try ScenarioFiles.run("mode-bypasses-interval")
    #expect(r.announcements.map(\.time) == [0.0, 1.0, 3.0, 5.0])
    #expect(r.frames[1].reason == .muted)
    let c = try ScenarioFiles.run("speech-cooldown")
    #expect(c.frames[0].reason == .cooldown && !c.frames[0].announced)  // 1.999 s after a mode
    #expect(c.frames[3].announced)  // exactly 2.0 s after a mode
  }

  @Test func cooldownBoundaryOnTheClock() throws {
    for (t, announced) in [(1.999, false), (2.0, true)] {
      let s = scenario([objectFrame(t, box: box(0.1, 0.3, 0.2, 0.4))], modes: [ModeEvent(time: 0, text: "Camera Mode Activated")])
      let r = try ObstacleResult.run(s)
      #expect(r.frames[0].announced == announced, "at \(t) s")
    }
  }

  @Test func centreMoveOverPointOneIsAChange() throws {
    let s = scenario([
      objectFrame(0, box: box(0.40, 0.3, 0.2, 0.2)), objectFrame(5, box: box(0.40, 0.375, 0.2, 0.2)),
      objectFrame(10, box: box(0.40, 0.5, 0.2, 0.2)),
    ])
    let r = try ObstacleResult.run(s)
    #expect(r.frames[1].reason == .noChange)  // Δy 0.075
    #expect(r.frames[2].reason == .centre)  // Δy 0.125
  }
}
