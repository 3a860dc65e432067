import Pipelines
import Detection
import Synth

/// A perfect detector: these true arrows' boxes (confidences cycled) and, when
/// given, the true face box, in model-input pixels as the profile maps them.
func truthBoxes(_ arrows: [GroundTruth.ArrowTruth], convention: ImpactBox = .wide, targetBox t: [Double]?, mapping: InputMapping,
                confidences: [Double]) -> [RawBox] {
  var boxes: [RawBox] = []
  for (i, a) in arrows.enumerated() {
    let c = a.box(convention)
    let b = PixelBox(x: c[0], y: c[1], width: c[2] - c[0], height: c[3] - c[1])
    boxes.append(mapping.toInput(b, confidence: confidences[i % confidences.count], classID: 0))
  }
  if let t {
    boxes.append(mapping.toInput(PixelBox(x: t[0], y: t[1], width: t[2] - t[0], height: t[3] - t[1]), confidence: 0.95, classID: 1))
  }
  return boxes
}
