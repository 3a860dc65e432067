import Pipelines
import Detection
import Synth

/// A YAML list of raw candidates, for `run --detections`.
public enum BoxList {
  /// Decodes `[{cx, cy, w, h, confidence, class}, …]` strictly.
  public static func decode(_ text: String, path: String) throws(SynthError) -> [RawBox] {
    try SceneFile.decode([BoxSpec].self, text, path: path).map(\.raw)
  }
}
