/// One obstacle scenario: a timed sequence of frames on a virtual clock, the
/// scripted detections for each, mode announcements, and what to check.
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
  var detections: DetectionSource
  /// Frames in strictly increasing time.
  public var frames: [ObstacleFrame]
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
    self.modes = []
    self.overlays = []
    self.expect = nil
  }
}

/// Where a scenario's per-frame detections come from.
enum DetectionSource: String, Sendable, Hashable, CaseIterable {
  /// Written in the scenario (`vision:` and `yolo:` of each frame).
  case scripted
  /// From an `ObstacleDetector` passed to the pipeline (e.g. the CPU backend).
  case model
}

/// One camera frame at a virtual time.
public struct ObstacleFrame: Sendable, Hashable {
  /// Virtual time in seconds (whole milliseconds).
  var time: Double
  /// Objects drawn into the synthesized frame.
  public var objects: [DrawnObject]
  /// Scripted Vision observations, in the order Vision returned them.
  var vision: [VisionObservation]
  /// Scripted YOLO boxes, in model output order.
  var yolo: [YOLOBox]

  /// Memberwise.
  init(
    time: Double, objects: [DrawnObject] = [], vision: [VisionObservation] = [],
    yolo: [YOLOBox] = []
  ) {
    self.time = time
    self.objects = objects
    self.vision = vision
    self.yolo = yolo
  }
}

/// Silhouettes the frame synthesizer can draw.
public enum ObjectKind: String, Sendable, Hashable, CaseIterable {
  case person, chair, dog, door, table, bicycle
}

/// An object drawn at a box.
public struct DrawnObject: Sendable, Hashable {
  /// What to draw.
  public var kind: ObjectKind
  /// Where, normalized.
  public var box: NormalizedBox
  /// Memberwise.
  init(kind: ObjectKind, box: NormalizedBox) {
    self.kind = kind
    self.box = box
  }
}

/// The Vision request an observation came from.
public enum VisionSource: String, Sendable, Hashable, CaseIterable {
  /// VNRecognizeAnimalsRequest (boxes; ≥ 0.4).
  case objects
  /// VNDetectFaceRectanglesRequest (always "Person"; ≥ 0.5).
  case faces
  /// VNClassifyImageRequest (no box: the fake centre box; ≥ 0.3).
  case classification
}

/// One Vision observation as the request returned it.
struct VisionObservation: Sendable, Hashable {
  /// Which request.
  var source: VisionSource
  /// Raw identifier (faces: ignored, always "Person").
  var label: String
  /// Confidence 0…1.
  var confidence: Double
  /// Box (classification: nil, the app substitutes its centre box).
  var box: NormalizedBox?
  /// Memberwise.
  init(source: VisionSource, label: String, confidence: Double, box: NormalizedBox?) {
    self.source = source
    self.label = label
    self.confidence = confidence
    self.box = box
  }
}

/// One YOLO box (used for distance and direction only; no label).
public struct YOLOBox: Sendable, Hashable {
  /// Confidence 0…1.
  public var confidence: Double
  /// Box, normalized.
  public var box: NormalizedBox
  /// Memberwise.
  init(confidence: Double, box: NormalizedBox) {
    self.confidence = confidence
    self.box = box
  }
}

/// A mode announcement ("Camera Mode Activated", "Voice muted", …).
struct ModeEvent: Sendable, Hashable {
  /// Virtual time in seconds (whole milliseconds).
  var time: Double
  /// Spoken text.
  var text: String
  /// When set, turns object announcements on or off from this time.
  var speechEnabled: Bool?
  /// Memberwise.
  init(time: Double, text: String, speechEnabled: Bool? = nil) {
    self.time = time
    self.text = text
    self.speechEnabled = speechEnabled
  }
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
