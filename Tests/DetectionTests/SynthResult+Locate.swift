import Scoring
import Synth
@testable import Detection

extension SynthResult {
  /// The true face box as a locator hint: the axis-aligned ellipse inscribed in it.
  var boxHint: FittedEllipse {
    let b = truth.targetBox
    return FittedEllipse(cx: (b[0] + b[2]) / 2, cy: (b[1] + b[3]) / 2, a: (b[2] - b[0]) / 2, b: (b[3] - b[1]) / 2, angleDeg: 0)
  }

  /// The scene face's printed ring-line width, as the pipeline hands it to the locator.
  var lineWidth: Double { truth.scene.face.lineWidth(diameterCm: truth.scene.diameterCm) }
}
