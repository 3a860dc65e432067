import Core
import Detection
import Imaging
import Scoring
import Testing
@testable import Pipelines

/// Textures the locator can fit rings to are still no target: their edges lie far
/// off any ellipse (`maximumEdgeResidual`), whether the rings are too close to judge
/// or a joint refit, keeping the best of many starts, clears 0.1 by chance.
struct TextureNoTargetTests {
  static func texture(_ kind: String) throws -> RGBA8Image {
    let w = 640, h = 480
    var pixels = [UInt8](repeating: 255, count: w * h * 4)
    var g = SeededGenerator(seed: 1)
    for y in 0..<h {
      for x in 0..<w {
        let level: UInt8 = kind == "noise" ? UInt8(truncatingIfNeeded: g.next()) : ((x / 32 + y / 32) % 2 == 0 ? 0 : 255)
        for c in 0..<3 { pixels[(y * w + x) * 4 + c] = level }
      }
    }
    return try RGBA8Image(width: w, height: h, pixels: pixels)
  }

  /// A face box (input pixels of the 640 letterbox: the picture's own at 640x480) and two arrows in it.
  @Test(arguments: ["noise", "checkerboard"], [[78.0, 389, 186, 156], [320.0, 240, 300, 260], [500.0, 120, 120, 110]])
  func texturesAreNoTarget(kind: String, face: [Double]) throws {
    let profile = try PlatformProfile.named("best")
    let boxes = [RawBox(cx: face[0], cy: face[1] + 80, w: face[2], h: face[3], confidence: 0.9, classID: 1),
                 RawBox(cx: face[0], cy: face[1] + 80, w: 12, h: 12, confidence: 0.9),
                 RawBox(cx: face[0] + 20, cy: face[1] + 70, w: 12, h: 12, confidence: 0.9)]
    let req = RunRequest(image: try Self.texture(kind), profile: profile, face: try FaceCatalog.face(named: "10_zone"),
                         rule: .inclusive, detector: .boxes(boxes), expectedArrows: 2)
    let r = try ArcheryPipeline.run(req)
    #expect(r.target == nil && r.noTarget, "\(kind) \(face): \(String(describing: r.target)) \(r.error ?? "")")
    #expect(r.detections.isEmpty)
  }

  /// A face box around nothing (a flat grey picture, a colour chart): no ring edge
  /// lies around it, so the box is no outline, under the apps' profiles too.
  @Test(arguments: ["ios", "android", "best"])
  func aFaceBoxWithNoRingEdgeIsNoTarget(profile name: String) throws {
    let image = try RGBA8Image(width: 640, height: 480, fill: RGBA(128, 128, 128))
    let boxes = [RawBox(cx: 320, cy: 320, w: 300, h: 260, confidence: 0.9, classID: 1),
                 RawBox(cx: 330, cy: 330, w: 12, h: 12, confidence: 0.9)]
    let req = RunRequest(image: image, profile: try PlatformProfile.named(name), face: try FaceCatalog.face(named: "10_zone"),
                         rule: .inclusive, detector: .boxes(boxes), expectedArrows: 1)
    let r = try ArcheryPipeline.run(req)
    #expect(r.target == nil && r.noTarget, "\(String(describing: r.target))")
    #expect(r.error?.contains("no ring edge around the detector's face box") == true, "\(r.error ?? "")")
    #expect(r.detections.isEmpty)
  }
}

