import Detection
import Imaging

#if canImport(Glibc)
  import Glibc
#endif

/// A look along the shafts after the refiner (`PlatformProfile.shaftCheck`).
///
/// Arrows in one face were shot from one place, so their shafts stand roughly
/// parallel; a point whose shaft runs back the other way is a nock, one with no
/// shaft is an old hole, one with a shaft both ways lies on a shaft. Each point
/// the refiner keeps is kept only when a logistic model of that evidence and the
/// refiner's probability says so; the model is fitted on synthesized photos of
/// training seeds (`Training/shaft_check.py`) and held here as data.
public struct ShaftCheck: Sendable, Hashable {
  /// Probability from the model a point needs to be kept.
  public var keepAbove: Double
  /// One weight per `featureNames` entry, then the intercept.
  var weights: [Double]

  /// The model's inputs, in order: `ShaftEvidence`'s twelve (e: towards the
  /// photo's shaft direction, n: away; angle tolerance ±1/2/4 steps of 7.5°;
  /// near or far band), the refiner's probability and its logarithm.
  public static let featureNames = ["e1near", "e1far", "e2near", "e2far", "e4near", "e4far",
                                    "n1near", "n1far", "n2near", "n2far", "n4near", "n4far", "p", "log_p"]

  /// What `--shaft-check on` runs: keep 0.3 chosen on the selection photos (seeds 7100000…), weights fitted on seeds 7400000….
  public static let shipped = ShaftCheck(keepAbove: 0.3, weights: ShaftCheckWeights.shipped)

  /// The model's probability that a point with this evidence is an arrow's entry.
  func probability(_ evidence: [Double], confidence: Double) -> Double {
    let x = evidence + [confidence, log(max(confidence, 1e-6))]
    var z = weights[x.count]
    for (w, v) in zip(weights, x) { z += w * v }
    return 1 / (1 + exp(-z))
  }
}

extension ArcheryPipeline {
  /// The arrows the check keeps, in their order (all of them without a
  /// single-spot face fitted: the shaft width is read off the face's size).
  static func shaftChecked(_ arrows: [Detection], image: RGBA8Image, target: TargetFit?, face spots: Int,
                           check: ShaftCheck) -> [Detection] {
    guard let target, spots == 1, !arrows.isEmpty else { return arrows }
    let radius = max(target.ellipse.a, target.ellipse.b)
    let points = arrows.map { (x: Double($0.centerX), y: Double($0.centerY), confidence: $0.confidence) }
    let evidence = ShaftEvidence.features(image, points: points, faceRadius: radius).features
    return arrows.indices.filter { check.probability(evidence[$0], confidence: arrows[$0].confidence) >= check.keepAbove }.map { arrows[$0] }
  }
}
