#if canImport(Glibc)
  import Glibc
#endif
import Scoring
@testable import Synth
import Testing
import TestSupport
@testable import Detection

struct TargetLocatorTests {
  func scene(tilt: Double, noisy: Bool) throws -> SynthResult {
    var s = SceneSpec(face: "10_zone", seed: 5, size: ImageSize(width: 640, height: 480))
    s.camera.center = [330, 235]; s.camera.radius = 170; s.camera.tiltDeg = tilt
    s.camera.tiltAxisDeg = 35; s.camera.rotationDeg = 10; s.camera.focalPx = 900
    if !noisy {
      s.scene.blur = 0; s.scene.noise = 0; s.scene.jpeg = 0; s.scene.oldHoles = 0; s.scene.tornCentre = false
    }
    s.arrowCount = 6
    return try Synthesizer.render(s)
  }

  @Test(arguments: [(0.0, false), (20.0, false), (20.0, true)])
  func fitsTheTruthEllipse(tilt: Double, noisy: Bool) throws {
    let r = try scene(tilt: tilt, noisy: noisy)
    // The fitted edge is the 0.8 ring; compare with that ring's true image, scaled.
    let truth = try #require(Ellipse.image(of: r.truth.homography, radius: 0.8))
    let box = r.truth.targetBox
    // Hint from a rough box, 8 px off.
    let hint = FittedEllipse(cx: (box[0] + box[2]) / 2 + 8, cy: (box[1] + box[3]) / 2 - 8,
                             a: (box[2] - box[0]) / 2, b: (box[3] - box[1]) / 2, angleDeg: 0)
    let fit = TargetLocator.locate(r.image, face: r.truth.scene.face, hint: hint, lineWidth: r.lineWidth)
    #expect(fit.method.hasPrefix("ring-edges") && fit.edgePoints > 100)
    // Under perspective the ring-0.8 ellipse's centre differs slightly from the outer one's.
    let ring = fit.ellipse.scaled(0.8)
    let tol = 0.6  // pixels
    #expect(abs(ring.cx - truth.centerX) < tol && abs(ring.cy - truth.centerY) < tol,
            "centre \(ring.cx),\(ring.cy) vs \(truth.centerX),\(truth.centerY)")
    #expect(abs(ring.a - truth.semiMajor) < tol && abs(ring.b - truth.semiMinor) < tol,
            "axes \(ring.a),\(ring.b) vs \(truth.semiMajor),\(truth.semiMinor)")
  }

  @Test func normalizeInvertsDenormalize() {
    let e = FittedEllipse(cx: 100, cy: 80, a: 50, b: 30, angleDeg: 25)
    for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.3, -0.7), (-1.2, 0.4)] {
      let p = e.denormalize(x, y)
      let q = e.normalize(p.0, p.1)
      #expect(Tolerance.close.accepts(q.0, x) && Tolerance.close.accepts(q.1, y))
    }
    let onMajor = e.normalize(100 + 50 * 0.906307787036650, 80 + 50 * 0.4226182617406994)
    #expect(Tolerance.geometric.accepts((onMajor.0 * onMajor.0 + onMajor.1 * onMajor.1).squareRoot(), 1))
  }
}

struct RectificationTests {
  /// Truth arrows on a 25°-tilted face: the rectified normalization lands within
  /// a small fraction of a ring width, far better than the affine one.
  @Test func rectifiedNormalizationBeatsAffine() throws {
    var s = SceneSpec(face: "10_zone", seed: 9, size: ImageSize(width: 1280, height: 960))
    s.camera.center = [640, 480]; s.camera.radius = 380; s.camera.tiltDeg = 25; s.camera.tiltAxisDeg = 60
    s.camera.rotationDeg = 0; s.camera.focalPx = 1300
    s.scene.noise = 2; s.scene.oldHoles = 0; s.scene.tornCentre = false
    s.arrows = [ArrowSpec(x: 0.8, y: 0.1, style: .hole), ArrowSpec(x: -0.7, y: -0.5, style: .hole), ArrowSpec(x: 0.1, y: 0.9, style: .hole),
                ArrowSpec(x: -0.3, y: 0.6, style: .hole), ArrowSpec(x: 0.05, y: 0.0, style: .hole)]
    let r = try Synthesizer.render(s)
    let fit = TargetLocator.locate(r.image, face: r.truth.scene.face, hint: r.boxHint, lineWidth: r.lineWidth)
    #expect(fit.rectification != nil && fit.method == "ring-edges-rectified")
    let centre = r.truth.scene.camera.project(u: 0, v: 0)
    #expect(hypot(fit.centerX - centre.x, fit.centerY - centre.y) < 1.0, "centre \(fit.centerX),\(fit.centerY) vs \(centre)")
    var worstRect = 0.0, worstAffine = 0.0
    for a in r.truth.arrows {
      let n = fit.normalize(a.pixelX, a.pixelY)
      let m = fit.ellipse.normalize(a.pixelX, a.pixelY)
      // Distances from the centre are what scoring uses (orientation is free).
      let d = (a.normalizedX * a.normalizedX + a.normalizedY * a.normalizedY).squareRoot()
      worstRect = max(worstRect, abs((n.0 * n.0 + n.1 * n.1).squareRoot() - d))
      worstAffine = max(worstAffine, abs((m.0 * m.0 + m.1 * m.1).squareRoot() - d))
    }
    #expect(worstRect < 0.004, "rectified error \(worstRect)")
    #expect(worstRect < worstAffine / 3, "rectified \(worstRect) vs affine \(worstAffine)")
  }

  /// The default photo look (blur, sensor noise, JPEG, old holes, arrows) at
  /// 1280x960, as `eval archery` draws it: the second ring edge is found (the
  /// edge threshold is per pixel, so the narrow search window still sees a
  /// blurred edge) and the perspective is undone at every tilt.
  @Test(arguments: [(UInt64(7_000_009), 24.0), (7_000_003, 20.0), (7_000_001, 8.0), (7_000_008, 3.5)])
  func rectifiesDefaultPhotos(seed: UInt64, tilt: Double) throws {
    var s = SceneSpec(face: "10_zone", seed: seed, size: ImageSize(width: 1280, height: 960), arrowCount: 6)
    s.camera.tiltDeg = tilt
    let r = try Synthesizer.render(s)
    let fit = TargetLocator.locate(r.image, face: r.truth.scene.face, hint: r.boxHint, lineWidth: r.lineWidth)
    #expect(fit.method == "ring-edges-rectified")
    var worst = 0.0
    for a in r.truth.arrows {
      let n = fit.normalize(a.pixelX, a.pixelY)
      let d = (a.normalizedX * a.normalizedX + a.normalizedY * a.normalizedY).squareRoot()
      worst = max(worst, abs((n.0 * n.0 + n.1 * n.1).squareRoot() - d))
    }
    #expect(worst < 0.006, "worst distance error \(worst)")
  }

  /// Noisy conics split the double eigenvalue into a complex pair: the cubic
  /// then has one real root, which is the distinct eigenvalue.
  @Test func cubicWithAComplexPairGivesItsRealRoot() {
    // (x − 2)(x² − 2·0.9x + 0.81 + 1e-4): roots 2 and 0.9 ± 0.01i
    let b = -(2 + 1.8), c = 2 * 1.8 + 0.8101, d = -2 * 0.8101
    let roots = Rectification.cubicRoots(1, b, c, d)
    #expect(roots.count == 1)
    #expect(abs(roots[0] - 2) < 1e-9, "\(roots)")
    // Three real roots still come back as three.
    #expect(Rectification.cubicRoots(1, -6, 11, -6).sorted().enumerated().allSatisfy { abs($0.element - Double($0.offset + 1)) < 1e-9 })
  }
}
