import Scoring
import Testing
import TestSupport
@testable import Synth

#if canImport(Glibc)
  import Glibc
#endif

struct TruthTests {
  @Test func untiltedFaceIsACircleOfTheRequestedRadius() throws {
    let truth = try Synthesizer.render(cleanSpec()).truth
    let e = try #require(truth.ellipse)
    #expect(Tolerance.geometric.accepts(e.centerX, 200) && Tolerance.geometric.accepts(e.centerY, 200))
    #expect(Tolerance.geometric.accepts(e.semiMajor, 160) && Tolerance.geometric.accepts(e.semiMinor, 160))
  }

  @Test func tiltedOutlineLiesOnTheTruthEllipse() throws {
    let truth = try Synthesizer.render(cleanSpec(tilt: 25)).truth
    let e = try #require(truth.ellipse)
    #expect(e.semiMinor < e.semiMajor * 0.95)
    let cam = truth.scene.camera
    for deg in stride(from: 0.0, to: 360, by: 15) {
      let p = cam.project(u: cos(deg * .pi / 180), v: sin(deg * .pi / 180))
      // Point → ellipse frame → (x/a)² + (y/b)² should be 1.
      let a = e.angleDeg * .pi / 180
      let dx = p.x - e.centerX, dy = p.y - e.centerY
      let u = dx * cos(a) + dy * sin(a), v = -dx * sin(a) + dy * cos(a)
      let q = (u / e.semiMajor) * (u / e.semiMajor) + (v / e.semiMinor) * (v / e.semiMinor)
      #expect(Tolerance.geometric.accepts(q, 1), "angle \(deg): \(q)")
    }
    // The face centre is not the ellipse centre under perspective.
    let c = cam.project(u: 0, v: 0)
    #expect(hypot(c.x - e.centerX, c.y - e.centerY) > 0.01)
  }

  @Test func arrowTruthAgreesWithScorerAndCamera() throws {
    let spec = SceneSpec(face: "10_zone", seed: 21, size: ImageSize(width: 640, height: 480), arrowCount: 12)
    let truth = try Synthesizer.render(spec).truth
    #expect(truth.arrows.count == 12)
    for a in truth.arrows {
      let p = truth.scene.camera.project(u: a.normalizedX, v: a.normalizedY)
      #expect(Tolerance.exact.accepts(p.x, a.pixelX) && Tolerance.exact.accepts(p.y, a.pixelY))
      let want = try Scorer.score(ScoreRequest(face: truth.scene.face, x: a.normalizedX, y: a.normalizedY,
                                               rule: .inclusive, diameterCm: truth.scene.diameterCm))
      #expect(a.inclusive.score == want.score && a.inclusive.isX == want.isX)
      #expect(a.box[0] < a.pixelX && a.pixelX < a.box[2] && a.box[1] < a.pixelY && a.pixelY < a.box[3])
      #expect(a.scores[.lineCutter]!.score >= a.scores[.strict]!.score)
    }
    guard case .object(let top) = truth.json, case .array(let arrows)? = top["arrows"],
          case .object(let first)? = arrows.first, case .object(let target)? = top["target"] else {
      Issue.record("truth JSON lacks arrows/target"); return
    }
    for key in ["pixel_x", "pixel_y", "normalized_x", "normalized_y", "score", "is_x"] { #expect(first[key] != nil, "\(key)") }
    for key in ["center_x", "center_y", "ellipse", "homography"] { #expect(target[key] != nil, "\(key)") }
  }

  @Test func pinnedFieldsDoNotShiftTheRest() throws {
    var a = SceneSpec(face: "10_zone", seed: 4, size: ImageSize(width: 320, height: 240), arrowCount: 3)
    let base = try Scene.resolve(a)
    a.scene.noise = 0
    let pinned = try Scene.resolve(a)
    #expect(pinned.arrows == base.arrows && pinned.camera == base.camera)
    #expect(pinned.look.noise == 0 && base.look.noise > 0)
  }

  @Test func badSpecsAreRefused() {
    let cases: [(SceneSpec) -> SceneSpec] = [
      { var s = $0; s.size = ImageSize(width: 0, height: 10); return s },
      { var s = $0; s.size = ImageSize(width: 16385, height: 10); return s },
      { var s = $0; s.diameterCm = -1; return s },
      { var s = $0; s.camera.radius = .nan; return s },
      { var s = $0; s.camera.tiltDeg = 89; return s },
      { var s = $0; s.arrowCount = 100_000; return s },
      { var s = $0; s.face = "dartboard"; return s },
      { var s = $0; s.arrows = [ArrowSpec(x: .infinity, y: 0)]; return s },
    ]
    let base = SceneSpec(face: "10_zone", seed: 1, size: ImageSize(width: 64, height: 64))
    for make in cases { #expect(throws: SynthError.self) { try Scene.resolve(make(base)) } }
  }

  @Test(arguments: ImpactBox.allCases) func impactBoxesAreCentredSquaresOfTheirConvention(_ convention: ImpactBox) throws {
    let spec = SceneSpec(face: "10_zone", seed: 21, size: ImageSize(width: 1280, height: 960), arrowCount: 12)
    let truth = try Synthesizer.render(spec).truth
    for a in truth.arrows {
      let b = a.box(convention), w = a.box(.wide)
      #expect(Tolerance.close.accepts((b[0] + b[2]) / 2, a.pixelX) && Tolerance.close.accepts((b[1] + b[3]) / 2, a.pixelY))
      #expect(Tolerance.close.accepts(b[2] - b[0], max(convention.minimumPx, convention.diameters * a.shaftPx)))
      #expect(Tolerance.close.accepts(b[3] - b[1], b[2] - b[0]))
      // No convention is wider than the wide one; `box` is the wide one.
      #expect(b[0] >= w[0] && b[2] <= w[2] && a.box == w)
      // The shaft diameter follows perspective: a few pixels at this size.
      #expect((1...20).contains(a.shaftPx))
    }
  }
}


/// `touchingShare`: how many drawn arrows land touching the one before.
struct TouchingShareTests {
  /// Arrows whose entry lies within 1.2 of its own shaft diameters of another's,
  /// over twenty random 10-arrow scenes.
  func touching(_ share: Double?) throws -> Int {
    try (0..<20).reduce(0) { n, i in
      var spec = SceneSpec(face: "10_zone", seed: 8_100 + UInt64(i), size: ImageSize(width: 640, height: 480), arrowCount: 10)
      spec.touchingShare = share
      let a = try Synthesizer.render(spec).truth.arrows
      return n + a.indices.filter { i in
        a.indices.contains { j in j != i && hypot(a[i].pixelX - a[j].pixelX, a[i].pixelY - a[j].pixelY) <= 1.2 * a[i].shaftPx }
      }.count
    }
  }

  @Test func theDefaultIsTheDrawsBeforeTheKnob() throws {
    // nil and the default share draw the same scenes, so goldens keep their bytes
    var a = SceneSpec(face: "10_zone", seed: 8_100, size: ImageSize(width: 640, height: 480), arrowCount: 10)
    let before = try Synthesizer.render(a).truth.arrows
    a.touchingShare = Scene.defaultTouchingShare
    #expect(try Synthesizer.render(a).truth.arrows == before)
  }

  @Test func aLargerShareDrawsMoreTouchingArrows() throws {
    let few = try touching(nil), many = try touching(0.6), none = try touching(0)
    #expect(many > 2 * few)
    #expect(none < few)
  }

  @Test func anAbsurdShareIsRefused() {
    for bad in [-0.1, 0.9, .nan] {
      var spec = SceneSpec(face: "10_zone", seed: 1, size: ImageSize(width: 64, height: 48), arrowCount: 3)
      spec.touchingShare = bad
      #expect { try Synthesizer.render(spec) } throws: { "\($0)".contains("touching_share") }
    }
  }
}
