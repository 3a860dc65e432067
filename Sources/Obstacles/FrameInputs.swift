/// A timed sequence of frames on a virtual clock, the pipeline's input: each
/// frame's scripted (or detector-supplied) observations and the mode events.
public struct ObstacleSequence: Sendable, Hashable {
  /// Named semantics (zones, NMS, confidence arithmetic, Vision pick).
  public var semantics: ObstacleSemantics
  /// Frames in strictly increasing time.
  public var frames: [ObstacleFrame]
  /// Mode announcements (bypass the interval and the cooldown).
  public var modes: [ModeEvent]
  /// Memberwise.
  package init(semantics: ObstacleSemantics, frames: [ObstacleFrame], modes: [ModeEvent]) {
    self.semantics = semantics
    self.frames = frames
    self.modes = modes
  }
}

/// One camera frame at a virtual time.
public struct ObstacleFrame: Sendable, Hashable {
  /// Virtual time in seconds (whole milliseconds).
  package var time: Double
  /// Scripted Vision observations, in the order Vision returned them.
  package var vision: [VisionObservation]
  /// Scripted YOLO boxes, in model output order.
  package var yolo: [YOLOBox]

  /// Memberwise.
  package init(time: Double, vision: [VisionObservation] = [], yolo: [YOLOBox] = []) {
    self.time = time
    self.vision = vision
    self.yolo = yolo
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
public struct VisionObservation: Sendable, Hashable {
  /// Which request.
  package var source: VisionSource
  /// Raw identifier (faces: ignored, always "Person").
  package var label: String
  /// Confidence 0…1.
  package var confidence: Double
  /// Box (classification: nil, the app substitutes its centre box).
  package var box: NormalizedBox?
  /// Memberwise.
  package init(source: VisionSource, label: String, confidence: Double, box: NormalizedBox?) {
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
  /// The class the overlay names the box by (a scenario's `label`); nil: the
  /// overlay takes it from the class list of what the frame shows. Never part of results.
  package var label: String?
  /// Memberwise.
  package init(confidence: Double, box: NormalizedBox, label: String? = nil) {
    self.confidence = confidence
    self.box = box
    self.label = label
  }
}

/// A mode announcement ("Camera Mode Activated", "Voice muted", …).
public struct ModeEvent: Sendable, Hashable {
  /// Virtual time in seconds (whole milliseconds).
  package var time: Double
  /// Spoken text.
  package var text: String
  /// When set, turns object announcements on or off from this time.
  package var speechEnabled: Bool?
  /// Memberwise.
  package init(time: Double, text: String, speechEnabled: Bool? = nil) {
    self.time = time
    self.text = text
    self.speechEnabled = speechEnabled
  }
}

