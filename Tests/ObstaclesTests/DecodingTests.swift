import Canvas
import Testing
@testable import Obstacles
@testable import Harness
@testable import Synth

struct DecodingTests {
  static let minimal = """
    kind: obstacles
    seed: 3
    size: 320x240
    frames:
      - time_s: 0.5
        objects:
          - {kind: dog, box: [0.1, 0.2, 0.3, 0.4]}
        vision:
          - {source: objects, label: dog, confidence: 0.9, box: [0.1, 0.2, 0.3, 0.4]}
          - {source: classification, label: dining_table, confidence: 0.3}
          - {source: faces, confidence: 0.6, box: [0.5, 0.1, 0.1, 0.1]}
        yolo:
          - {confidence: 0.8, box: [0.1, 0.2, 0.3, 0.4]}
    modes:
      - {time_s: 0.0, text: Camera Mode Activated, speech_enabled: true}
    overlays: [0]
    expect:
      announcements:
        - {time_s: 0.5, text: "Dog detected Left, close, 1.0 meters"}
      frames:
        - {index: 0, zone: Left, category: close, matched_yolo: 0, reason: first}
    """

  @Test func decodesAFullFileWithDefaults() throws {
    let s = try ObstacleScenario.decode(Self.minimal, path: "dir/demo-1.yaml")
    #expect(s.id == "demo-1" && s.width == 320 && s.height == 240 && s.seed == 3)
    #expect(s.semantics == .batsight && s.detections == .scripted)
    #expect(s.frames[0].vision[1].box == nil && s.frames[0].vision[2].label == "Person")
    #expect(s.modes[0].speechEnabled == true && s.expect?.frames[0].matchedYOLO == 0)
  }

  /// (YAML, expected message prefix): every error names file:line:column.
  @Test(arguments: [
    ("frames:\n  - time_s: 0\n    yolo:\n      - {confidence: 0.5, box: [0, 0, 1, 1], colour: x}\n",
     "t.yaml:4:46: unknown key 'frames[0].yolo[0].colour': expected one of box, confidence, label"),
    ("frame:\n  - time_s: 0\n", "t.yaml:1:1: unknown key 'frame'"),
    ("semantics: {zones: middle}\nframes: [{time_s: 0}]\n", "t.yaml:1:13: zones 'middle' is unknown: expected one of batsight, legacy"),
    ("frames:\n  - time_s: 1.0\n  - time_s: 1.0\n", "t.yaml:3:5: frame time 1.0 s is not after 1.0 s"),
    ("frames:\n  - time_s: 0.0005\n", "t.yaml:2:5: time 0.0005 s is not on the clock"),
    ("frames:\n  - time_s: 0\n    vision:\n      - {source: classification, label: x, confidence: 0.5, box: [0, 0, 1, 1]}\n",
     "t.yaml:4:61: a classification has no box"),
    ("frames:\n  - time_s: 0\n    yolo:\n      - {confidence: 1.5, box: [0, 0, 1, 1]}\n", "t.yaml:4:10: confidence 1.5 is out of range"),
    ("frames:\n  - time_s: 0\n    yolo:\n      - {confidence: 0.5, box: [0, 0, 1]}\n", "t.yaml:4:27: box [0.0, 0.0, 1.0] is not [x, y, width, height]"),
    ("kind: archery\nframes: [{time_s: 0}]\n", "t.yaml:1:1: kind 'archery' is not an obstacle scenario"),
    ("frames: [{time_s: 0}]\noverlays: [3]\n", "t.yaml:2:12: overlay frame 3 does not exist"),
    ("seed: seven\nframes: [{time_s: 0}]\n", "t.yaml:1:1: 'seed' has the wrong type"),
    ("frames: []\n", "t.yaml:1:1: 'frames' is empty"),
  ])
  func errorsAreLocated(yaml: String, prefix: String) {
    do {
      let s = try ObstacleScenario.decode(yaml, path: "t.yaml")
      Issue.record("decoded \(s.id) but expected the error '\(prefix)'")
    } catch {
      #expect("\(error)".hasPrefix(prefix), "got: \(error)")
    }
  }

  /// A syntax error is one line saying where and what: an undefined alias by
  /// name, a tab as a tab.
  @Test(arguments: [("frames: [*nope]\n", "invalid YAML at 1:10: found undefined alias *nope"),
                    ("frames:\n\t- time_s: 0\n", "(a tab: YAML indents with spaces)")])
  func syntaxErrorsSayWhatWasFound(yaml: String, text: String) {
    #expect {
      try ObstacleScenario.decode(yaml, path: "s.yaml")
    } throws: { e in "\(e)".contains(text) && !"\(e)".contains("\n") }
  }

  @Test func malformedYAMLNamesTheFile() {
    #expect {
      try ObstacleScenario.decode("frames: [unclosed\n", path: "bad.yaml")
    } throws: { e in "\(e)".hasPrefix("bad.yaml") }
  }

  /// The seam: `detections: model` needs a detector; one that renders works.
  struct RenderingDetector: ObstacleDetector {
    func detect(frame: ObstacleFrame, index: Int, image: () throws -> RGBA8Image) throws -> FrameDetections {
      let picture = try image()
      return FrameDetections(vision: [], yolo: picture.width == 320 ? [] : [YOLOBox(confidence: 1, box: .classificationCentre)])
    }
  }

  @Test func modelDetectionsNeedADetector() throws {
    var s = try ObstacleScenario.decode(Self.minimal, path: "m.yaml")
    s.detections = .model
    #expect(throws: ObstacleError.self) { try ObstacleResult.run(s) }
    let r = try ObstacleResult.run(s, detector: RenderingDetector())
    #expect(r.frames[0].reason == .noObject && r.frames[0].yoloStatus.isEmpty)
    #expect(r.announcements.map(\.kind) == [.mode])
  }
}
