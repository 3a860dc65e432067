import Imaging

/// The words a person labels a card with, as data: `<number>-<colour>-<shape>-<fill>`
/// (`1-red-diamond-empty`, `three-purple-squiggle-striped`), with seed 004's words,
/// the reference solver's names (`blue`, `full`, `partial`) and common synonyms.
public enum CardNames {
  /// Every accepted word per number, lower case.
  static let numbers: [String: CardNumber] = [
    "1": .one, "one": .one, "2": .two, "two": .two, "3": .three, "three": .three,
  ]
  /// Every accepted word per colour; `blue` is what the classifier was trained calling purple.
  static let colors: [String: CardColor] = [
    "red": .red, "green": .green, "purple": .purple, "blue": .purple, "violet": .purple,
  ]
  /// Every accepted word per shape, singular and plural.
  static let shapes: [String: CardShape] = [
    "diamond": .diamond, "diamonds": .diamond, "oval": .oval, "ovals": .oval, "ellipse": .oval,
    "ellipses": .oval, "squiggle": .squiggle, "squiggles": .squiggle, "wave": .squiggle, "waves": .squiggle,
  ]
  /// Every accepted word per fill; `full` and `partial` are the classifier's training names.
  static let fills: [String: CardFill] = [
    "empty": .empty, "open": .empty, "outline": .empty, "outlined": .empty, "hollow": .empty,
    "solid": .solid, "full": .solid, "filled": .solid,
    "striped": .striped, "stripes": .striped, "partial": .striped, "shaded": .striped, "lined": .striped,
  ]

  /// What a card name looks like, for errors.
  public static let expected =
    "<number>-<colour>-<shape>-<fill>, e.g. 2-red-oval-striped (number 1/2/3 or one/two/three; colour \(words(colors)); shape \(words(shapes)); fill \(words(fills)))"

  /// The card a name like `2-red-oval-striped` or `Three-Blue-Squiggles-Partial`
  /// denotes (case-insensitive; `-`, `_` or spaces between the four words); nil otherwise.
  public static func card(_ name: String) -> Card? {
    let parts = name.lowercased().split { $0 == "-" || $0 == "_" || $0 == " " }.map(String.init)
    guard parts.count == 4, let n = numbers[parts[0]], let c = colors[parts[1]],
      let s = shapes[parts[2]], let f = fills[parts[3]]
    else { return nil }
    return Card(number: n, color: c, shape: s, fill: f)
  }

  /// The canonical name of `card`: digit, then the English names (`2-red-oval-striped`).
  public static func name(_ card: Card) -> String {
    "\(card.number.rawValue + 1)-\(card.color.name)-\(card.shape.name)-\(card.fill.name)"
  }

  /// The accepted words of one table, sorted, slash-separated.
  static func words<V>(_ table: [String: V]) -> String { table.keys.sorted().joined(separator: "/") }
}

extension CardPreprocess {
  /// The classifier tensor for a whole image that is one card crop: exactly
  /// what the pipeline feeds for a detection box covering that image.
  public static func classifierInput(crop image: RGBA8Image) -> [Float] {
    classifierInput(image, box: Box(x1: 0, y1: 0, x2: Double(image.width), y2: Double(image.height)))
  }
}

extension SetPipeline {
  /// Classifies one card crop as the pipeline classifies a detection: the same
  /// preprocessing, per-head softmax and argmax. Returns the card and the
  /// winning probability per head (number, colour, shape, fill).
  public static func classify(crop image: RGBA8Image, with classifier: any CardClassifier) throws -> (card: Card, confidences: [Double]) {
    let logits = try classifier.logits(CardPreprocess.classifierInput(crop: image))
    let c = try Classify.decode(logits: logits.map(Double.init))
    return (c.card, c.confidences)
  }
}
