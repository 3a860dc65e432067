import Obstacles
import Synth

/// One obstacle scenario: a timed sequence of frames on a virtual clock, the
/// scripted detections for each, what the synthesizer draws, mode
/// announcements, and what to check.
public struct ObstacleScenario: Sendable, Hashable {
  /// Unique id (defaults to the file name without `.yaml`).
  var id: String
  /// Free text: what the scenario pins down and why.
  var description: String
  /// The one seed every random drawing choice derives from.
  public var seed: UInt64
  /// Frame width in pixels.
  public var width: Int
  /// Frame height in pixels.
  public var height: Int
  /// Named semantics (zones, NMS, confidence arithmetic).
  var semantics: ObstacleSemantics
  /// Where detections come from.
  var detections: ObstacleDetectionSource
  /// Frames in strictly increasing time (scripted detections).
  public var frames: [ObstacleFrame]
  /// Objects drawn into each frame, by frame index.
  public var objects: [[DrawnObject]]
  /// Mode announcements (bypass the interval and the cooldown).
  var modes: [ModeEvent]
  /// Indices of frames that get an overlay picture.
  public var overlays: [Int]
  /// Optional checks made besides the golden.
  var expect: ObstacleExpectation?

  /// A scenario with no frames; fill in the rest.
  init(id: String, seed: UInt64 = 0, width: Int = 640, height: Int = 480) {
    self.id = id
    self.description = ""
    self.seed = seed
    self.width = width
    self.height = height
    self.semantics = .batsight
    self.detections = .scripted
    self.frames = []
    self.objects = []
    self.modes = []
    self.overlays = []
    self.expect = nil
  }

  /// The pipeline's input: semantics, frames and mode events.
  public var sequence: ObstacleSequence { ObstacleSequence(semantics: semantics, frames: frames, modes: modes) }
  /// The synthesizer's input: the seeded room and each frame's objects.
  public var scene: ObstacleScene { ObstacleScene(seed: seed, width: width, height: height, objects: objects) }
}

/// Where a scenario's per-frame detections come from.
enum ObstacleDetectionSource: String, Sendable, Hashable, CaseIterable {
  /// Written in the scenario (`vision:` and `yolo:` of each frame).
  case scripted
  /// From an `ObstacleDetector` passed to the pipeline (e.g. the CPU backend).
  case model
}

/// Checks made besides the golden; nil fields are not checked.
struct ObstacleExpectation: Sendable, Hashable {
  /// The whole transcript, in order.
  var announcements: [ExpectedAnnouncement]?
  /// Per-frame facts.
  var frames: [ExpectedFrame]
  /// Memberwise.
  init(announcements: [ExpectedAnnouncement]? = nil, frames: [ExpectedFrame] = []) {
    self.announcements = announcements
    self.frames = frames
  }
}

/// One expected line of the transcript.
struct ExpectedAnnouncement: Sendable, Hashable {
  /// When, seconds.
  var time: Double
  /// What was said.
  var text: String
  /// Memberwise.
  init(time: Double, text: String) {
    self.time = time
    self.text = text
  }
}

/// Expected facts about one frame; nil fields are not checked.
struct ExpectedFrame: Sendable, Hashable {
  /// Frame index.
  var index: Int
  /// Zone of the chosen object.
  var zone: Zone?
  /// Distance category name, or "none".
  var category: String?
  /// Whether an object announcement was made.
  var announced: Bool?
  /// Decision reason code (see `DecisionReason`).
  var reason: DecisionReason?
  /// Index of the matched YOLO box in the frame's list.
  var matchedYOLO: Int?
  /// Memberwise.
  init(index: Int) { self.index = index }
}
