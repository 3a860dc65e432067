import Scoring
import Synth
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
    let fit = TargetLocator.locate(r.image, face: try FaceCatalog.face(named: "10_zone"), hint: hint)
    #expect(fit.method == "ring-edges" && fit.edgePoints > 100)
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
