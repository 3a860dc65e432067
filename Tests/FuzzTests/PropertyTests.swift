@testable import Adjustment
import Foundation
@testable import Persistence
import PropertyBased
import Scoring
import Testing

/// Seeded, shrinking property tests over the scorer, the adjustment state
/// machine and the round store.
struct PropertyTests {
  static let faces = FaceCatalog.all.filter { $0.spots.count == 1 }

  @Test func scoreNeverRisesWithDistance() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...(Self.faces.count - 1)), Gen.double(in: 0...1.3), Gen.double(in: 0...1.3),
                        Gen.double(in: 0...6.3)) { fi, a, b, t in
      let face = Self.faces[fi]
      for rule in BoundaryRule.allCases {
        let (d1, d2) = (min(a, b), max(a, b))
        let s1 = Scorer.scoreUnchecked(ScoreRequest(face: face, x: d1 * cos(t), y: d1 * sin(t), rule: rule))
        let s2 = Scorer.scoreUnchecked(ScoreRequest(face: face, x: d2 * cos(t), y: d2 * sin(t), rule: rule))
        if s1.distance <= s2.distance { #expect(s1.score >= s2.score, "\(face.id) \(rule) d \(d1) → \(d2)") }
        #expect(!s1.isX || s1.score == face.topScore)
      }
    }
  }

  enum Step: CaseIterable { case drag, end, tap, toggle }

  @Test func gesturesKeepArrowsClampedAndCountsConsistent() async {
    let steps = Gen.int(in: 0...3).array(of: 0...40)
    await propertyCheck(count: 200, input: steps, Gen.double(in: -400...400).array(of: 40...40), Gen.int(in: 0...6)) { kinds, values, expected in
      var gestures: [Gesture] = []
      for (i, k) in kinds.enumerated() {
        let v = values[i % values.count]
        switch k {
        case 0: gestures.append(.dragChanged(arrow: i % 3, translation: Double2(v, -v / 2)))
        case 1: gestures.append(.dragEnded(arrow: i % 3))
        case 2: gestures.append(.tap(Double2(v / 400, v / 500)))
        default: gestures.append(.togglePlacement)
        }
      }
      let detected = (0..<3).map { EditableArrow(id: "d\($0)", x: 0.1 * Double($0), y: 0, isManual: false, confidence: 0.8) }
      for drag in DragSemantics.allCases {
        let out = AdjustmentStage.run(AdjustmentInput(detected: detected, expected: expected, gestures: gestures + [.confirm]),
                                      adjuster: Adjuster(drag: drag, ids: ArrowIDs(style: .int, seed: 1)),
                                      face: FaceCatalog.all[0], rule: .inclusive, diameterCm: 122, arrowMM: 5.5)
        let s = out.final
        #expect(s.arrows.allSatisfy { abs($0.x) <= 1.5 && abs($0.y) <= 1.5 })
        #expect(s.showExtraWarning == (s.arrows.count > s.expected))
        #expect(s.missingCount == max(0, s.expected - s.arrows.count))
        #expect(out.confirmed?.count == s.arrows.count)
        #expect(out.confirmed?.allSatisfy { !$0.isManual || $0.wasAdjusted } == true)
      }
    }
  }

  @Test func endTotalsAlwaysEqualTheirArrows() async throws {
    let path = NSTemporaryDirectory() + "bullseye-prop-\(getpid()).sqlite"
    // A leftover database from an earlier run may or may not exist: failing to remove a missing file is fine.
    for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
    let store = try RoundStore(path: path)
    let saves = Gen.int(in: 0...(3 * 6 * 11 - 1)).array(of: 1...60)
    // Every call below is valid, so any throw is a failure the property check records (and shrinks).
    await propertyCheck(count: 40, input: saves) { codes in
      let round = try store.createRound(name: "p", face: "10_zone", arrowsPerEnd: 6, ends: 3, createdAt: "x")
      for c in codes {
        // Encode end (1...3), arrow (1...6) and score (0...10) in one integer; re-saves are common.
        try store.saveArrowScore(round: round, end: c / 66 + 1, arrow: (c / 11) % 6 + 1, score: c % 11, isX: c % 11 == 10, x: 0.01, y: 0)
      }
      let snap = try store.snapshot(round: round)
      #expect(!snap.ends.isEmpty, "round \(round): \(codes.count) saves left no end")
      for e in snap.ends {
        #expect(e.total == e.arrows.reduce(0) { $0 + $1.score })
        #expect(Set(e.arrows.map(\.arrowNumber)).count == e.arrows.count)
      }
    }
  }
}
