#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Scoring
@testable import Synth
import Testing
import TestSupport
@testable import Detection

/// Every face in the catalogue, located at in-plane rotations 0–180° and tilts
/// 0–25° in the default photo look, starting from the true face box as the
/// pipeline does: the fitted distance of every impact from its spot's centre
/// must land within the face's bound (0.01 of the radius unless the face states
/// why it cannot, in `LocatorBound`).
struct LocatorCoverageTests {
  /// Every face, or those named in `BULLSEYE_LOCATOR_ONLY` (comma-separated) when studying a few.
  static var faces: [String] {
    let all = FaceCatalog.all.map(\.id)
    guard let only = ProcessInfo.processInfo.environment["BULLSEYE_LOCATOR_ONLY"] else { return all }
    let names = only.split(separator: ",").map(String.init)
    return all.filter { names.contains($0) }
  }
  static let rotations: [Double] = [0, 37, 90, 128, 180]
  static let tilts: [Double] = [0, 12, 25]

  /// The true face box as the pipeline turns a detection box into a hint.
  static func hint(_ r: SynthResult) -> FittedEllipse {
    let b = r.truth.targetBox, ext = r.truth.scene.face.layoutHalfExtent
    return FittedEllipse(cx: (b[0] + b[2]) / 2, cy: (b[1] + b[3]) / 2,
                         a: (b[2] - b[0]) / 2 / ext.x, b: (b[3] - b[1]) / 2 / ext.y, angleDeg: 0)
  }

  static func nearestSpot(_ face: Face, _ x: Double, _ y: Double) -> Spot {
    face.spots.min { hypot(x - $0.x, y - $0.y) / $0.radius < hypot(x - $1.x, y - $1.y) / $1.radius }!
  }

  /// Worst error, in spot radii, of the fitted distance of each impact from its spot's centre.
  static func worstError(face name: String, rotation: Double, tilt: Double, seed: UInt64) throws -> Double {
    var s = SceneSpec(face: name, seed: seed, size: ImageSize(width: 1280, height: 960), arrowCount: 6)
    s.camera.rotationDeg = rotation; s.camera.tiltDeg = tilt
    let r = try Synthesizer.render(s)
    let face = r.truth.scene.face
    let fit = TargetLocator.locate(r.image, face: face, hint: hint(r), lineWidth: r.lineWidth)
    var worst = 0.0
    for a in r.truth.arrows {
      let n = fit.normalize(a.pixelX, a.pixelY)
      let spot = nearestSpot(face, a.normalizedX, a.normalizedY)
      let truthD = hypot(a.normalizedX - spot.x, a.normalizedY - spot.y) / spot.radius
      // Scoring uses the distance from the spot's centre; which of several alike
      // spots it is may be ambiguous under a symmetric layout's rotation.
      let fitSpot = nearestSpot(face, n.0, n.1)
      let fitD = hypot(n.0 - fitSpot.x, n.1 - fitSpot.y) / fitSpot.radius
      worst = max(worst, abs(fitD - truthD))
    }
    return worst
  }

  @Test(arguments: Self.faces)
  func locatesEveryFaceUnderRotationAndTilt(face: String) throws {
    #expect(!FaceCatalog.all.isEmpty)
    let bound = LocatorBound.forFace(face)
    var rows: [String] = []
    var worst = 0.0
    for (i, rot) in Self.rotations.enumerated() {
      for (j, tilt) in Self.tilts.enumerated() {
        let e = try Self.worstError(face: face, rotation: rot, tilt: tilt, seed: UInt64(8_100_000 + i * 10 + j))
        worst = max(worst, e)
        if ProcessInfo.processInfo.environment["BULLSEYE_LOCATOR_TABLE"] == face { print("CASE \(face) rot \(rot) tilt \(tilt): \(e)") }
        if e > bound { rows.append("rot \(rot) tilt \(tilt): \(e)") }
      }
    }
    if ProcessInfo.processInfo.environment["BULLSEYE_LOCATOR_TABLE"] != nil { print("LOCATOR \(face) worst \(worst)") }
    #expect(rows.isEmpty, "\(face) over its bound \(bound): \(rows.joined(separator: "; "))")
  }
}

/// The locator's error bound per face, in spot radii: 0.01, or a looser bound
/// with the reason the face cannot reach 0.01 today (docs/semantics.md, "Where
/// the locator is looser"). A bound is the measured worst case rounded up, so a
/// regression fails and a fix shows as the chance to tighten it.
enum LocatorBound {
  static let standard = 0.01
  static let looser: [String: (bound: Double, why: String)] = [
    "Worcester_2_ring": (0.035, "two edges only (0.5 and the rim); where arrows crowd one of them no second edge agrees and the affine fit of the other stands"),
    "IFAA_field": (0.012, "white outer zone: no rim against the paper, and the two inner edges are close (0.2, 0.6), so rectification is less exact at 25°"),
    "IFAA_field_expert": (0.012, "as IFAA_field"),
    "Beiter_hit_miss": (0.31, "one edge only (the rim) on a 6 cm face whose arrow holes cover much of it: perspective cannot be undone from one ellipse"),
    "seed_vegas_2_ring": (0.095, "all gold: the only second edge is the thin line at 0.5, which arrows clustered about the centre hide; the affine fit stands at tilt"),
    "wa_vegas_3_spot": (0.19, "spots are found as ink blobs and each fitted as a face of its own; where vanes and shafts join two spots' blobs even after erosion, the older rotation search (a rotated layout scaled along the image axes) stands, and tilt about an oblique axis breaks its model"),
    "wa_vertical_3_spot": (0.34, "as wa_vegas_3_spot; the column's spots are 0.04 of the sheet apart, so their blobs join most easily"),
    "nfaa_5_spot": (0.44, "as wa_vegas_3_spot; five spots 0.05 of the sheet apart"),
  ]
  static func forFace(_ name: String) -> Double { looser[name]?.bound ?? standard }
}

/// Matching a layout to blobs: the similarity fit finds which blob is which spot,
/// and a symmetric layout takes the pose nearest upright.
struct LayoutMatchTests {
  static func blob(_ x: Double, _ y: Double) -> TargetLocator.Blob {
    TargetLocator.Blob(area: 1, ellipse: FittedEllipse(cx: x, cy: y, a: 10, b: 10, angleDeg: 0))
  }

  @Test func findsEachSpotUnderRotation() throws {
    let face = try FaceCatalog.face(named: "wa_vegas_3_spot")
    // The layout turned by 30°, scaled by 200 and shifted, the blobs listed out of order.
    let t = 30.0 * .pi / 180
    let placed = face.spots.map { s in (500 + 200 * (s.x * cos(t) - s.y * sin(t)), 400 + 200 * (s.x * sin(t) + s.y * cos(t))) }
    let blobs = [Self.blob(placed[2].0, placed[2].1), Self.blob(placed[0].0, placed[0].1), Self.blob(placed[1].0, placed[1].1)]
    let m = try #require(TargetLocator.matchLayout(face.spots, blobs))
    #expect(m.order == [1, 2, 0])
    #expect(Tolerance.geometric.accepts(m.theta, t), "\(m.theta)")
  }

  @Test func symmetricLayoutTakesTheUprightPose() throws {
    let face = try FaceCatalog.face(named: "wa_vertical_3_spot")
    // A column seen upside down is the same picture as one seen upright: upright wins.
    let blobs = face.spots.reversed().map { Self.blob(300 - 100 * $0.x, 300 - 100 * $0.y) }
    let m = try #require(TargetLocator.matchLayout(face.spots, blobs))
    #expect(abs(m.theta) < 1e-9 && m.order == [0, 1, 2], "\(m)")
  }
}
