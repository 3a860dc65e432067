import Core
import Imaging
import Synth
import SetCards
import StrictYAML

/// Stand-in model sources built from a truth file, so `run` can be exercised on
/// synthesized photos before the detector and classifier exist: every truth box
/// becomes a detection and its card a scripted classification.
public struct TruthOracle: Sendable {
  /// One detection per truth card, `source` = its truth index.
  public let detections: DetectionSource
  /// The truth card of each detection with the given confidence on every head.
  public let classifier: ClassificationSource

  /// Builds the sources from ground truth in memory.
  init(cards: [CardTruth], detectionConfidence: Double = 0.95, classConfidence: Double = 0.95) {
    detections = .boxes(cards.enumerated().map { CardDetection(box: $1.box, confidence: detectionConfidence, source: $0) })
    var scripts: [Int: ScriptedClass] = [:]
    for (i, t) in cards.enumerated() {
      scripts[i] = .card(t.card, confidences: Array(repeating: classConfidence, count: 4))
    }
    classifier = .scripted(scripts)
  }

  /// Builds the sources from a truth file's text (the synthesizer's JSON; keys
  /// other than `cards[].box/number/color/shape/fill` are ignored).
  public init(truthJSON text: String, path: String, detectionConfidence: Double = 0.95,
              classConfidence: Double = 0.95) throws(SetCardsError) {
    struct Entry: Decodable { let box: [Double]; let number, color, shape, fill: String }
    struct File: Decodable { let cards: [Entry] }
    let file: File
    do { file = try StrictYAML.decode(File.self, text, path: path) } catch {
      throw .file(location: error.location, message: "not a Set truth file: \(error.message)")
    }
    var truths: [CardTruth] = []
    for (i, e) in file.cards.enumerated() {
      guard let box = Box(e.box), let n = CardNumber(name: e.number), let c = CardColor(name: e.color),
        let s = CardShape(name: e.shape), let f = CardFill(name: e.fill)
      else {
        throw .file(location: path, message: "card \(i) is not a box and four attribute names: expected e.g. \"two\", \"red\", \"oval\", \"solid\"")
      }
      truths.append(CardTruth(card: Card(number: n, color: c, shape: s, fill: f), box: box, corners: [], rotationDeg: 0))
    }
    self.init(cards: truths, detectionConfidence: detectionConfidence, classConfidence: classConfidence)
  }
}
