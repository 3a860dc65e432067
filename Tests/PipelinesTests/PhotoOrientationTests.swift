import Foundation
import Imaging
import Synth
import Testing
import TestSupport
@testable import Harness

/// A portrait photo saved as a landscape sensor buffer with an EXIF tag: the
/// app that applies the tag and the app that ignores it (seed 000's trap)
/// score the same arrows, in two different frames.
struct PhotoOrientationTests {
  static let base = """
    id: p
    face: 10_zone
    seed: 5
    size: 480x640
    camera: {tilt_deg: 10, rotation_deg: 5}
    scene: {noise: 1, blur: 0.5}
    arrow_count: 4
    profile: ios

    """

  static func run(_ extra: String) throws -> ScenarioOutcome {
    let s = try ArcheryScenario.decode(base + extra, path: "p.yaml")
    return try ScenarioRunner.run(s, id: "p", workDir: NSTemporaryDirectory())
  }

  @Test(arguments: ["png", "jpeg"], [6, 8])
  func ignoreScoresTheSameArrowsInTheStoredFrame(format: String, tag: Int) throws {
    let apply = try Self.run("photo: {format: \(format), exif_orientation: \(tag)}\norientation: apply\n")
    let ignore = try Self.run("photo: {format: \(format), exif_orientation: \(tag)}\norientation: ignore\n")
    #expect((apply.image.width, apply.image.height) == (480, 640))
    #expect((ignore.image.width, ignore.image.height) == (640, 480))
    #expect(apply.truthFailures.isEmpty && ignore.truthFailures.isEmpty, "\(apply.truthFailures) \(ignore.truthFailures)")
    let a = apply.runs[0].result, i = ignore.runs[0].result
    #expect(a.detections.map(\.score.score) == i.detections.map(\.score.score))
    // Same rings, but the group turned a quarter: clock positions in the sensor's frame.
    let turn = tag == 6 ? 270.0 : 90.0
    for (u, s) in zip(a.detections, i.detections) {
      let d = (s.score.clockPositionDeg - u.score.clockPositionDeg + 360).truncatingRemainder(dividingBy: 360)
      #expect(Tolerance.fitAngle.accepts(d, turn), "clock \(u.score.clockPositionDeg)° → \(s.score.clockPositionDeg)°")
    }
    // Each detection of the ignoring app sits where the tag's map sends the applying app's.
    let o = Orientation(rawValue: tag)!
    for (u, s) in zip(a.detections, i.detections) {
      let p = o.storedPoint(uprightX: Double(u.pixelX), y: Double(u.pixelY), width: 640, height: 480)
      #expect(Tolerance.float32Sum.accepts(p.x, Double(s.pixelX)) && Tolerance.float32Sum.accepts(p.y, Double(s.pixelY)),
              "upright (\(u.pixelX), \(u.pixelY)) → stored (\(p.x), \(p.y)), got (\(s.pixelX), \(s.pixelY))")
    }
    guard case .object(let photo) = ignore.photo else { Issue.record("no photo block"); return }
    #expect(photo["frame"] == .string("stored"))
    guard case .array(let off) = photo["marks_off_by_px"] else { Issue.record("no marks_off_by_px"); return }
    #expect(off.count == 4 && off.allSatisfy { if case .double(let d) = $0 { d > 10 } else { false } })
  }

  @Test func theTruthInTheStoredFrameIsTheUprightTruthMapped() throws {
    let out = try Self.run("photo: {format: png, exif_orientation: 6}\norientation: ignore\n")
    let upright = try Self.run("")
    for (s, u) in zip(try #require(out.truth).arrows, try #require(upright.truth).arrows) {
      let p = Orientation.right.storedPoint(uprightX: u.pixelX, y: u.pixelY, width: 640, height: 480)
      #expect(Tolerance.exact.accepts(p.x, s.pixelX) && Tolerance.exact.accepts(p.y, s.pixelY))
    }
    let t = try #require(out.truth)
    #expect((t.width, t.height) == (640, 480))
  }

  @Test(arguments: [
    ("photo: {exif_orientation: 9}", "exif_orientation 9 is out of range: expected 1...8"),
    ("photo: {format: heic}", "photo format 'heic' is unknown: expected png or jpeg"),
    ("photo: {format: jpeg, quality: 0}", "photo quality 0 is out of range: expected 1...100"),
    ("orientation: sideways", "orientation 'sideways' is unknown: expected apply or ignore"),
  ])
  func badPhotoKeysAreRefusedNamingTheValue(line: String, message: String) {
    #expect {
      _ = try ArcheryScenario.decode(Self.base + line + "\n", path: "p.yaml")
    } throws: { "\($0)".contains(message) }
  }
}
