import Core

/// Why a frame was or was not announced. The first six mean announced.
public enum DecisionReason: String, Sendable, Hashable, CaseIterable {
  /// The previous frame had no object.
  case first
  /// Position (zone) changed.
  case position
  /// Label changed.
  case label
  /// Confidence changed by more than 0.2.
  case confidence
  /// Centre moved by more than 0.1 in x or y.
  case centre
  /// No detection survived filtering.
  case noObject = "no_object"
  /// Nothing significant changed since the previous frame.
  case noChange = "no_change"
  /// A change, but less than 4.0 s since the last object announcement.
  case interval
  /// A change, but less than 2.0 s since any speech.
  case cooldown
  /// Speech is disabled by a mode event.
  case muted
}

/// Whether an announcement came from an object or a mode event.
package enum AnnouncementKind: String, Sendable, Hashable, CaseIterable {
  case object, mode
}

/// One spoken line of the transcript.
public struct Announcement: Sendable, Hashable {
  /// Virtual time, seconds.
  public var time: Double
  /// Spoken text.
  public var text: String
  /// Object or mode.
  package var kind: AnnouncementKind
  /// The frame that caused it (objects only).
  package var frame: Int?
}

/// Everything the pipeline decided for one frame.
public struct FrameDecision: Sendable, Hashable {
  /// Frame index.
  public var index: Int
  /// Virtual time, seconds.
  public var time: Double
  /// The detector's raw output for this frame.
  public var detections: FrameDetections
  /// The zone variant in force (for overlays).
  public var zones: ZoneVariant
  /// Per Vision observation: "chosen", or why it was not.
  package var visionStatus: [String]
  /// The chosen Vision detection's source, cleaned label, held confidence and box.
  public var source: VisionSource?
  /// Cleaned label of the chosen detection.
  public var label: String?
  /// Its confidence as the arithmetic holds it.
  public var confidence: Double?
  /// Its Vision box (classification: the fake centre box).
  public var visionBox: NormalizedBox?
  /// Per YOLO box: "kept", "matched", or why it was dropped.
  public var yoloStatus: [String]
  /// Index of the matched YOLO box.
  public var matchedYOLO: Int?
  /// Its true IoU with the Vision box.
  package var matchIoU: Double?
  /// The box direction uses: the matched YOLO box, else the Vision box.
  public var box: NormalizedBox?
  /// Zone of `box`.
  public var zone: Zone?
  /// Area of the matched YOLO box.
  public var area: Double?
  /// Distance category of that area (nil for no box or area 0).
  public var category: DistanceCategory?
  /// The text the app would speak for this frame's object.
  public var text: String?
  /// Whether it was spoken.
  public var announced: Bool
  /// Why, or why not.
  public var reason: DecisionReason
  /// One sentence with the numbers behind `reason`.
  public var detail: String
}

/// What `ObstaclePipeline.run` returns: the transcript and every frame's decision.
public struct ObstacleRun: Sendable, Hashable {
  /// Every spoken line, in time order.
  public var announcements: [Announcement]
  /// One decision per frame.
  public var frames: [FrameDecision]
}
