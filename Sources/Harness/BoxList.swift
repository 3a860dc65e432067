import Pipelines
import Detection
import Synth

/// A YAML list of raw candidates, for `run --detections`.
public enum BoxList {
  /// Decodes `[{cx, cy, w, h, confidence, class}, …]` strictly.
  public static func decode(_ text: String, path: String) throws(SynthError) -> [RawBox] {
    let boxes = try SceneFile.decode([BoxSpec].self, text, path: path)
    // NMS is quadratic in the boxes: a detector gives 8400 candidates at most.
    guard boxes.count <= maximumCount else {
      throw .invalid(name: "\(path): box count", value: "\(boxes.count)", expected: "at most \(maximumCount), a detector's anchors at 640")
    }
    return boxes.map(\.raw)
  }

  /// The most boxes a detections file may hold.
  public static let maximumCount = 8400
}
