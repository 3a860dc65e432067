import Imaging

/// Thresholds of the pipeline, named as the reference names them.
public struct PipelineConfig: Sendable, Hashable {
  /// Detector score a box must exceed (web app: 0.7; CLI: 0.25).
  public var detectionThreshold: Double
  /// NMS suppresses a box whose IoU with a kept one is above this (Ultralytics 0.7).
  public var nmsIoUThreshold: Double
  /// Merged-detection filter: keep area ≤ ratio × upper median.
  public var mergedAreaRatio: Double
  /// Lowest attribute confidence a card needs to join Set finding.
  public var classThreshold: Double

  /// Defaults of the reference web app.
  public init(detectionThreshold: Double = 0.7, nmsIoUThreshold: Double = 0.7,
              mergedAreaRatio: Double = 2.2, classThreshold: Double = 0.8) {
    self.detectionThreshold = detectionThreshold
    self.nmsIoUThreshold = nmsIoUThreshold
    self.mergedAreaRatio = mergedAreaRatio
    self.classThreshold = classThreshold
  }
}

/// One card the pipeline found.
public struct DetectedCard: Sendable, Hashable {
  /// The detection box, float image pixels (the reported box is its truncation).
  public var box: Box
  /// The argmax card.
  public var card: Card
  /// Detector score.
  var detectionConfidence: Double
  /// Winning probability per head (number, color, shape, fill).
  var attributeConfidences: [Double]
  /// The lowest attribute confidence.
  var classConfidence: Double { attributeConfidences.min() ?? 0 }
  /// Whether the card joined Set finding (class confidence ≥ threshold, on the table).
  public var included: Bool
  /// `CardDetection.source` of its box.
  var source: Int
  /// Why the detection is not on the table (profiles with a table filter); nil: on it.
  public var offTable: OffTableReason? = nil
  /// Under a profile that marks them: class confidence under the threshold, so
  /// the card is shown as uncertain instead of plain gray.
  public var uncertain: Bool = false
}

/// What the pipeline returns: the cards in detection order and every Set among
/// the included ones, as sorted index triples into `cards`.
public struct SetResult: Sendable, Hashable {
  /// Cards in NMS order (confidence descending).
  public var cards: [DetectedCard]
  /// Sets, lexicographic.
  public var sets: [[Int]]
  /// Image size the cards were found in.
  var imageWidth: Int, imageHeight: Int
  /// The profile the cards were found under (what the JSON and overlay report).
  public var profile: SetCardProfile = .seed
}

/// The pipeline's entry point: detect → NMS → merged filter → crop → resize →
/// normalise → classify → cards → Sets.
public enum SetPipeline {
  /// Runs every stage on `image` with injected detector and classifier sources,
  /// under explicit thresholds and the seed's rules (what scenarios run).
  public static func run(
    image: RGBA8Image, detections: DetectionSource, classifier: ClassificationSource,
    config: PipelineConfig = PipelineConfig()
  ) throws(SetCardsError) -> SetResult {
    try run(image: image, detections: detections, classifier: classifier,
            settings: SetProfileSettings(pipeline: config, tableFilter: nil, marksUncertain: false), profile: .seed)
  }

  /// Runs every stage under a named profile's settings.
  public static func run(
    image: RGBA8Image, detections: DetectionSource, classifier: ClassificationSource, profile: SetCardProfile
  ) throws(SetCardsError) -> SetResult {
    try run(image: image, detections: detections, classifier: classifier, settings: profile.settings, profile: profile)
  }

  /// The stages; `settings` decide, `profile` names them in the result.
  static func run(
    image: RGBA8Image, detections: DetectionSource, classifier: ClassificationSource,
    settings: SetProfileSettings, profile: SetCardProfile
  ) throws(SetCardsError) -> SetResult {
    let config = settings.pipeline
    let raw: [CardDetection]
    switch detections {
    case .tensor(let t, let anchors, let frame):
      raw = try Detect.decode(t, anchors: anchors, frame: frame, threshold: config.detectionThreshold)
    case .boxes(let list):
      raw = list.filter { $0.confidence > config.detectionThreshold }
    }
    let kept = Detect.dropMerged(Detect.nms(raw, iouThreshold: config.nmsIoUThreshold),
                                 ratio: config.mergedAreaRatio)
    let offTable = settings.tableFilter.map {
      TableFilter.classify(boxes: kept.map(\.box), imageWidth: image.width, imageHeight: image.height, settings: $0)
    } ?? [OffTableReason?](repeating: nil, count: kept.count)
    var cards: [DetectedCard] = []
    for (d, reason) in zip(kept, offTable) {
      let c = try Classify.run(classifier, input: { CardPreprocess.classifierInput(image, box: d.box) },
                               detection: d)
      let sure = c.confidence >= config.classThreshold
      cards.append(DetectedCard(box: d.box, card: c.card, detectionConfidence: d.confidence,
                                attributeConfidences: c.confidences, included: sure && reason == nil,
                                source: d.source, offTable: reason, uncertain: settings.marksUncertain && !sure))
    }
    let sets = SetFinder.sets(in: cards.map(\.card), included: cards.map(\.included))
    return SetResult(cards: cards, sets: sets, imageWidth: image.width, imageHeight: image.height, profile: profile)
  }
}
