import Canvas
import Foundation
import Testing
@testable import Harness
@testable import Overlays
@testable import Synth

/// Every archery scenario's overlay labels, laid out as the overlays lay them
/// out (same styles, same bounds, same cairo metrics): the truth overlay's
/// score labels, the photo panel's row numbers and the face panel's scores,
/// with the arrows where the truth puts them (a perfect detector's picture).
@Suite struct OverlayGeometryTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// Every `Scenarios/archery/*.yaml` with a rendered scene (photo files carry no scene).
  static func scenes() throws -> [(String, GroundTruth)] {
    let dir = root + "/Scenarios/archery"
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".yaml") }.sorted()
    var out: [(String, GroundTruth)] = []
    for f in files {
      let text = try String(contentsOfFile: dir + "/" + f, encoding: .utf8)
      let s = try ArcheryScenario.decode(text, path: f)
      guard s.image == nil else { continue }
      out.append((f, try Synthesizer.truth(s.scene)))
    }
    return out
  }

  /// The three layouts of one truth; each with its points, radius and bounds.
  static func layouts(_ truth: GroundTruth, _ probe: Context)
    -> [(name: String, placements: [Overlays.Placement], points: [(x: Double, y: Double)], radius: Double, bounds: LabelRect)]
  {
    let t = TruthOverlay.layout(truth, probe), scale = Double(max(truth.width, truth.height)) / 1280
    let faceTexts = truth.arrows.map { $0.inclusive.isX ? "X" : String($0.inclusive.score) }
    let photoScale = min(1, ArcheryOverlay.panel / Double(truth.height))
    let pw = Double(truth.width) * photoScale, ph = Double(truth.height) * photoScale
    let photo = truth.arrows.map { (x: 10 + $0.pixelX * photoScale, y: 34 + $0.pixelY * photoScale) }
    let photoTexts = photo.indices.map { "\($0 + 1)" }
    let fs = ArcheryOverlay.faceStyle, ps = ArcheryOverlay.photoStyle
    let fb = ArcheryOverlay.faceBounds(pw: pw), pb = ArcheryOverlay.photoBounds(pw: pw, ph: ph)
    let facePoints = truth.arrows.map { ArcheryOverlay.facePoint($0.normalizedX, $0.normalizedY, pw: pw) }
    return [
      ("truth", t.placements, t.points, TruthOverlay.pointRadius(scale), TruthOverlay.bounds(truth)),
      ("face", LabelLayout.place(points: facePoints, labelSizes: fs.sizes(probe, faceTexts), bounds: fb,
                                 pointRadius: ArcheryOverlay.faceMarkerRadius, calloutSize: fs.sizes(probe, ["88"])[0]),
       facePoints, ArcheryOverlay.faceMarkerRadius, fb),
      ("photo", LabelLayout.place(points: photo, labelSizes: ps.sizes(probe, photoTexts), bounds: pb,
                                  pointRadius: ArcheryOverlay.photoPointRadius, calloutSize: ps.sizes(probe, ["88"])[0]),
       photo, ArcheryOverlay.photoPointRadius, pb),
    ]
  }

  @Test func everyArcheryScenarioLaysOutClear() throws {
    let probe = try Context(try Surface(width: 1, height: 1))
    let scenes = try Self.scenes()
    #expect(scenes.count > 50)
    var crowded = 0
    for (file, truth) in scenes {
      for l in Self.layouts(truth, probe) {
        let issues = LabelLayoutTests.problems(l.placements, points: l.points, radius: l.radius, bounds: l.bounds)
        #expect(issues.isEmpty, "\(file) \(l.name): \(issues.prefix(3))")
        if l.placements.contains(where: { $0.leader || $0.callout != nil }) { crowded += 1 }
      }
    }
    // The set includes pictures where labels had to move out or become callouts.
    #expect(crowded > 0)
  }

  @Test func crossingShaftsKeepEveryLabelOffEveryShaft() throws {
    let probe = try Context(try Surface(width: 1, height: 1))
    let text = try String(contentsOfFile: Self.root + "/Scenarios/archery/photo-crossing-shafts.yaml", encoding: .utf8)
    let truth = try Synthesizer.truth(try ArcheryScenario.decode(text, path: "photo-crossing-shafts.yaml").scene)
    for l in Self.layouts(truth, probe) {
      #expect(l.placements.allSatisfy { $0.rect != nil }, "\(l.name)")
      #expect(LabelLayoutTests.problems(l.placements, points: l.points, radius: l.radius, bounds: l.bounds).isEmpty)
    }
  }
}
