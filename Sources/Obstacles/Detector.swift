import Imaging

/// What a detector reports for one frame: raw Vision observations and raw YOLO
/// boxes, before any filtering (the pipeline applies the app's thresholds).
public struct FrameDetections: Sendable, Hashable {
  /// Vision observations in request output order.
  var vision: [VisionObservation]
  /// YOLO boxes in model output order.
  public var yolo: [YOLOBox]
  /// Memberwise.
  init(vision: [VisionObservation], yolo: [YOLOBox]) {
    self.vision = vision
    self.yolo = yolo
  }
}

/// The seam for detection backends. A model-backed detector (the CPU backend)
/// renders the frame through `image` and runs its model; the scripted one
/// returns what the scenario wrote and never renders.
public protocol ObstacleDetector: Sendable {
  /// Raw detections for frame `index` (`frame` carries its time and scripted lists).
  func detect(frame: ObstacleFrame, index: Int, image: () throws -> RGBA8Image) throws -> FrameDetections
}

/// Returns each frame's scripted `vision:` and `yolo:` lists unchanged.
public struct ScriptedDetector: ObstacleDetector {
  /// The scripted detector has no settings.
  public init() {}

  /// The frame's scripted observations and boxes.
  public func detect(frame: ObstacleFrame, index: Int, image: () throws -> RGBA8Image) -> FrameDetections {
    FrameDetections(vision: frame.vision, yolo: frame.yolo)
  }
}
