#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The classifier seam: `[1, 3, 224, 224]` normalised Float in, 12 logits out
/// in head order — number `[0:3]`, color `[3:6]` (red, green, "blue" = purple),
/// shape `[6:9]`, fill `[9:12]` (empty, full = solid, partial = striped).
public protocol CardClassifier: Sendable {
  /// Runs the model on one crop.
  func logits(_ input: [Float]) throws -> [Float]
}

/// A scripted classification for one detection, standing in for the model.
public enum ScriptedClass: Sendable, Hashable {
  /// Raw head logits (12, head order); softmax is applied per head.
  case logits([Double])
  /// Per-head probabilities (12, head order), used as they are.
  case probabilities([Double])
  /// A card with one confidence per head (number, color, shape, fill): the
  /// argmax gets it and the other two share the rest equally.
  case card(Card, confidences: [Double])
}

/// Where classifications come from.
public enum ClassificationSource: Sendable {
  /// A real model, run on every crop.
  case model(any CardClassifier)
  /// Per-detection scripts keyed by `CardDetection.source`; a detection without a
  /// script is an error.
  case scripted([Int: ScriptedClass])
}

/// One crop's decoded classification.
struct Classification: Sendable, Hashable {
  /// The argmax card.
  var card: Card
  /// The winning probability per head (number, color, shape, fill).
  var confidences: [Double]
  /// The lowest of the four: the card's class confidence.
  var confidence: Double { confidences.min() ?? 0 }

  /// Memberwise.
  init(card: Card, confidences: [Double]) {
    self.card = card
    self.confidences = confidences
  }
}

/// Turning classifier output into cards.
enum Classify {
  /// Softmax over each 3-way head, then argmax (first index wins ties) and
  /// its probability per head.
  static func decode(logits: [Double]) throws(SetCardsError) -> Classification {
    try decode(probabilities: softmaxHeads(logits))
  }

  /// Per-head softmax of 12 logits (max-subtracted for stability).
  static func softmaxHeads(_ logits: [Double]) throws(SetCardsError) -> [Double] {
    try checkCount(logits)
    var out = [Double](repeating: 0, count: 12)
    for h in 0..<4 {
      let z = logits[(h * 3)..<(h * 3 + 3)]
      let m = z.max()!
      let e = z.map { exp($0 - m) }
      let s = e.reduce(0, +)
      for i in 0..<3 { out[h * 3 + i] = e[i] / s }
    }
    return out
  }

  /// Argmax per head of 12 probabilities.
  static func decode(probabilities p: [Double]) throws(SetCardsError) -> Classification {
    try checkCount(p)
    var digits: [Int] = [], conf: [Double] = []
    for h in 0..<4 {
      var best = 0
      for i in 1..<3 where p[h * 3 + i] > p[h * 3 + best] { best = i }
      digits.append(best)
      conf.append(p[h * 3 + best])
    }
    return Classification(card: Card(digits: digits)!, confidences: conf)
  }

  /// Probabilities for a scripted card: `confidences[h]` on the card's value,
  /// the remainder split between the other two.
  static func probabilities(for card: Card, confidences: [Double]) throws(SetCardsError) -> [Double] {
    guard confidences.count == 4, confidences.allSatisfy({ $0.isFinite && $0 > 1.0 / 3 && $0 <= 1 }) else {
      throw .invalid(name: "class confidences", value: "\(confidences)",
                     expected: "4 numbers in (1/3, 1] (number, color, shape, fill)")
    }
    var p = [Double](repeating: 0, count: 12)
    for (h, v) in card.digits.enumerated() {
      for i in 0..<3 { p[h * 3 + i] = i == v ? confidences[h] : (1 - confidences[h]) / 2 }
    }
    return p
  }

  /// Classifies one detection from its source.
  static func run(_ source: ClassificationSource, input: () -> [Float],
                  detection: CardDetection) throws(SetCardsError) -> Classification {
    switch source {
    case .model(let model):
      let out: [Float]
      do { out = try model.logits(input()) } catch {
        throw .model(message: "classifier failed on detection \(detection.source): \(error)")
      }
      return try decode(logits: out.map(Double.init))
    case .scripted(let scripts):
      guard let script = scripts[detection.source] else {
        throw .invalid(name: "scripted classification", value: "none for detection \(detection.source)",
                       expected: "one per scripted box")
      }
      switch script {
      case .logits(let l): return try decode(logits: l)
      case .probabilities(let p): return try decode(probabilities: p)
      case .card(let card, let c):
        return try decode(probabilities: probabilities(for: card, confidences: c))
      }
    }
  }

  static func checkCount(_ v: [Double]) throws(SetCardsError) {
    guard v.count == 12 else {
      throw .invalid(name: "classifier output", value: "\(v.count) values", expected: "12 finite values (4 heads × 3)")
    }
    if let bad = v.first(where: { !$0.isFinite }) {
      throw .invalid(name: "classifier output", value: "\(bad) among its 12 values", expected: "12 finite values (4 heads × 3)")
    }
  }
}
