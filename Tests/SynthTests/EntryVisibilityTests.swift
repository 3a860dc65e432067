import Canvas
import Core
import Testing
@testable import Synth

#if canImport(Glibc)
  import Glibc
#endif

/// `ArrowTruth.entryHidden` must agree with what the painter drew: on a clean
/// photo a hole's paint is one exact colour, so a hole whose 3x3 neighbourhood
/// is all hole colour is visible and one with none of it is painted over.
struct EntryVisibilityTests {
  static let holePaint = RGBA(0x15, 0x11, 0x0D)

  /// Crowded ends: holes and shafts alternate within a third of the face radius.
  func crowdedSpec(seed: UInt64) -> SceneSpec {
    var s = cleanSpec(size: 1200)
    s.seed = seed
    s.diameterCm = 40
    var g = SeededGenerator(seed: seed)
    s.arrows = (0..<12).map { i in
      let r = 0.3 * g.unit().squareRoot(), t = g.uniform(0...(2 * .pi))
      return ArrowSpec(x: r * cos(t), y: r * sin(t), style: i % 2 == 0 ? .hole : .shaft, shaftMM: 6.2)
    }
    return s
  }

  @Test func hiddenEntriesAreExactlyThePaintedOverHoles() throws {
    var hidden = 0, visible = 0
    for seed in UInt64(1)...8 {
      let r = try Synthesizer.render(crowdedSpec(seed: seed))
      for a in r.truth.arrows where a.style == .hole {
        let x = Int(a.pixelX), y = Int(a.pixelY)
        var paint = 0
        for dy in -1...1 { for dx in -1...1 where r.image[x + dx, y + dy] == Self.holePaint { paint += 1 } }
        if paint == 9 {
          #expect(!a.entryHidden, "seed \(seed): hole at (\(x), \(y)) is in plain sight")
          visible += 1
        } else if paint == 0 {
          #expect(a.entryHidden, "seed \(seed): hole at (\(x), \(y)) is painted over")
          hidden += 1
        }
      }
    }
    #expect(hidden >= 3 && visible >= 10, "hidden \(hidden), visible \(visible): the scenes should hold both")
  }

  /// The painter and the truth share one paint order: farthest nock first.
  @Test func paintOrderRunsFromTheFarthestNock() throws {
    let scene = try Synthesizer.render(crowdedSpec(seed: 3)).truth.scene
    let depths = scene.shaftsInPaintOrder.map(\.nockDepth)
    #expect(depths.count == 6 && zip(depths, depths.dropFirst()).allSatisfy { $0 >= $1 })
  }
}
