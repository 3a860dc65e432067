import Detection
import Foundation
import Imaging
import Inference
import Scoring
import Synth
import Testing
@testable import Harness
@testable import Pipelines

/// The detector's closer look at a small face (`PlatformProfile.zoom`): which
/// region it reads, and that its arrows come back in the whole photo's pixels.
struct ZoomTests {
  static let z = ZoomSettings.shipped

  @Test func aSmallFaceGetsARegionOfTheInputSizeInThePhotosAspect() throws {
    let face = PixelBox(x: 550, y: 350, width: 300, height: 300)
    let r = try #require(ArcheryPipeline.zoomRegion(face: face, imageWidth: 1280, imageHeight: 960, input: 640, settings: Self.z))
    // 300 · 1.3 = 390 high → 520 wide in 4:3 → raised to 640 x 480 (never enlarged), centred on the face
    #expect(r == PixelRegion(x: 380, y: 260, width: 640, height: 480))
  }

  @Test func aRegionPastTheEdgeMovesInside() throws {
    let corner = PixelBox(x: 3600, y: 2700, width: 400, height: 300)
    let r = try #require(ArcheryPipeline.zoomRegion(face: corner, imageWidth: 4032, imageHeight: 3024, input: 640, settings: Self.z))
    #expect(r.x + r.width == 4032 && r.y + r.height == 3024)
    #expect(abs(Double(r.width) / Double(r.height) - 4.0 / 3.0) < 0.01)
    let big = PixelBox(x: 0, y: 0, width: 400, height: 1200)
    let p = try #require(ArcheryPipeline.zoomRegion(face: big, imageWidth: 3024, imageHeight: 4032, input: 640, settings: Self.z))
    #expect(p.x == 0 && p.y == 0 && p.height == 1560)
  }

  @Test func aFaceThatFillsThePhotoOrASmallPhotoTakesNone() {
    let large = PixelBox(x: 200, y: 100, width: 800, height: 760)
    #expect(ArcheryPipeline.zoomRegion(face: large, imageWidth: 1280, imageHeight: 960, input: 640, settings: Self.z) == nil)
    // a 640x480 photo: any closer look would enlarge its pixels
    let small = PixelBox(x: 250, y: 180, width: 120, height: 120)
    #expect(ArcheryPipeline.zoomRegion(face: small, imageWidth: 640, imageHeight: 480, input: 640, settings: Self.z) == nil)
    #expect(ArcheryPipeline.zoomRegion(face: PixelBox(x: 10, y: 10, width: 0, height: 5), imageWidth: 1280, imageHeight: 960,
                                       input: 640, settings: Self.z) == nil)
  }

  @Test func onlyTheBestProfileLooksCloser() throws {
    for p in PlatformProfile.all {
      #expect((p.zoom != nil) == (p.name == "best"), "\(p.name): the apps take one look")
    }
  }

  /// A 640x480 five-arrow scene pasted at (900, 700) into a 2400x1800 grey photo.
  static func pastedScene() throws -> (scene: RGBA8Image, photo: RGBA8Image, ox: Int, oy: Int) {
    let s = try ArcheryScenario.decode(PipelineTests.base + "\narrow_count: 5\n", path: "z.yaml")
    let scene = try Synthesizer.render(s.scene).image
    let ox = 900, oy = 700
    var photo = try RGBA8Image(width: 2400, height: 1800, fill: RGBA(128, 128, 128))
    for y in 0..<scene.height { for x in 0..<scene.width { photo[x + ox, y + oy] = scene[x, y] } }
    return (scene, photo, ox, oy)
  }

  /// A 640x480 scene pasted into a big grey photo: a closer look whose region
  /// is exactly the scene reads the scene's own pixels, so it must find what the
  /// detector finds on the scene alone, moved by the paste offset.
  @Test func theCloserLooksArrowsAreInThePhotosPixels() throws {
    let (scene, photo, ox, oy) = try Self.pastedScene()
    let model = try InferenceModel(contentsOf: EvalPaths.models.appendingPathComponent("arrow-detector.onnx").path)
    var profile = try PlatformProfile.named("best")
    profile.zoom = ZoomSettings(margin: 1, maximumShare: 0.75)
    let face = PixelBox(x: Double(ox), y: Double(oy), width: 640, height: 480)
    let whole = RunRequest(image: photo, profile: profile, face: try FaceCatalog.face(named: "10_zone"), detector: .loaded(model, name: "d"),
                           expectedArrows: 5)
    let look = try #require(try ArcheryPipeline.closerLook(whole, face: face, model: model, name: "d"))
    #expect(look.region == PixelRegion(x: ox, y: oy, width: 640, height: 480))
    let near = look.arrows
    let alone = DetectionStage.run(try ArcheryPipeline.run(model, name: "d", image: scene, whole),
                                   settings: DetectionSettings(confidenceThreshold: 0.35, nms: profile.nms, iouThreshold: profile.iou,
                                                               mapping: profile.mapping(width: 640, height: 480))).arrows
    #expect(!alone.isEmpty)
    #expect(near.count == alone.count)
    for (a, b) in zip(near, alone) {
      #expect(a.centerX == Float(Double(b.centerX) + Double(ox)) && a.centerY == Float(Double(b.centerY) + Double(oy)))
      #expect(a.confidence == b.confidence)
    }
  }

  /// Under `windows: .region` the refiner reads the closer look's crop: on a
  /// scene pasted into a big photo it must answer exactly what it answers on
  /// the scene alone, moved by the paste offset; under `.photo` its windows
  /// are the photo's (four times the side here), so the answers differ.
  @Test func regionWindowsReadTheCloserLooksPixels() throws {
    let (scene, photo, ox, oy) = try Self.pastedScene()
    let model = try InferenceModel(contentsOf: EvalPaths.models.appendingPathComponent("arrow-detector.onnx").path)
    let refiner = try ArrowRefiner(contentsOf: EvalPaths.models.appendingPathComponent("arrow-refiner.onnx").path)
    var profile = try PlatformProfile.named("best")
    profile.zoom = ZoomSettings(margin: 1, maximumShare: 0.75, windows: .region)
    let face = PixelBox(x: Double(ox), y: Double(oy), width: 640, height: 480)
    let whole = RunRequest(image: photo, profile: profile, face: try FaceCatalog.face(named: "10_zone"), detector: .loaded(model, name: "d"),
                           expectedArrows: 5)
    let look = try #require(try ArcheryPipeline.closerLook(whole, face: face, model: model, name: "d"))
    let refined = try ArcheryPipeline.refine(look.arrows, whole, refiner: refiner, look: (look.region, look.crop))
    // the same rules as the pipeline's, its gate fallback included
    let fallback = profile.gateFallback.map { (gate: $0, confidence: profile.confidence) }
    #expect(fallback != nil)
    let alone = try ArrowRefinement.run(look.arrows.map { ArcheryPipeline.shifted($0, by: look.region, sign: -1) }, image: scene, refiner: refiner,
                                        fallback: fallback)
    #expect(!alone.isEmpty)
    #expect(refined.count == alone.count)
    for (a, b) in zip(refined, alone) {
      #expect(a.centerX == Float(Double(b.centerX) + Double(ox)) && a.centerY == Float(Double(b.centerY) + Double(oy)))
      #expect(a.confidence == b.confidence)
    }
    var photoScale = whole
    photoScale.profile.zoom?.windows = .photo
    let wide = try ArcheryPipeline.refine(look.arrows, photoScale, refiner: refiner, look: (look.region, look.crop))
    #expect(wide.map(\.centerX) != refined.map(\.centerX))
  }
}
