/// How many symbols a card shows. Raw values are the classifier's head order
/// (seed 004: one=0, two=1, three=2).
public enum CardNumber: Int, Sendable, Hashable, CaseIterable, Codable {
  case one, two, three
}

/// The ink colour. Raw values are the classifier's head order (red=0, green=1,
/// purple=2); the model was trained calling index 2 "blue".
public enum CardColor: Int, Sendable, Hashable, CaseIterable, Codable {
  case red, green, purple
}

/// The symbol's outline. Raw values are the classifier's head order.
public enum CardShape: Int, Sendable, Hashable, CaseIterable, Codable {
  case diamond, oval, squiggle
}

/// The symbol's shading. Raw values are the classifier's head order
/// (empty=0, solid=1, striped=2; trained as empty/full/partial).
public enum CardFill: Int, Sendable, Hashable, CaseIterable, Codable {
  case empty, solid, striped
}

/// The English names written to JSON (`"two"`, `"purple"`, ...).
public protocol CardAttribute: RawRepresentable<Int>, CaseIterable, Sendable, Hashable {
  /// The lower-case English name, as in seed 004's enums.
  var name: String { get }
  /// The one-character Chinese shorthand used in overlay labels.
  var chinese: String { get }
}

extension CardAttribute {
  /// The case whose English name is `name`, or nil.
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }
}

extension CardNumber: CardAttribute {
  /// `one`, `two`, `three`.
  public var name: String { ["one", "two", "three"][rawValue] }
  /// `1`, `2`, `3`.
  public var chinese: String { String(rawValue + 1) }
}

extension CardColor: CardAttribute {
  /// `red`, `green`, `purple`.
  public var name: String { ["red", "green", "purple"][rawValue] }
  /// 红, 绿, 紫.
  public var chinese: String { ["红", "绿", "紫"][rawValue] }
}

extension CardShape: CardAttribute {
  /// `diamond`, `oval`, `squiggle`.
  public var name: String { ["diamond", "oval", "squiggle"][rawValue] }
  /// 菱, 圆, 弯.
  public var chinese: String { ["菱", "圆", "弯"][rawValue] }
}

extension CardFill: CardAttribute {
  /// `empty`, `solid`, `striped`.
  public var name: String { ["empty", "solid", "striped"][rawValue] }
  /// 空, 实, 线.
  public var chinese: String { ["空", "实", "线"][rawValue] }
}

/// One Set card: four attributes, each with three values.
public struct Card: Sendable, Hashable, CustomStringConvertible {
  /// How many symbols.
  public var number: CardNumber
  /// Ink colour.
  public var color: CardColor
  /// Symbol outline.
  public var shape: CardShape
  /// Symbol shading.
  public var fill: CardFill

  /// Memberwise.
  public init(number: CardNumber, color: CardColor, shape: CardShape, fill: CardFill) {
    self.number = number
    self.color = color
    self.shape = shape
    self.fill = fill
  }

  /// The anchor's shorthand: number, fill, colour, shape — e.g. `2实红菱`.
  public var label: String { number.chinese + fill.chinese + color.chinese + shape.chinese }

  /// The four attribute values in head order (number, color, shape, fill).
  var digits: [Int] { [number.rawValue, color.rawValue, shape.rawValue, fill.rawValue] }

  /// `number·27 + color·9 + shape·3 + fill`, 0...80 (the board generator's order).
  var index: Int { number.rawValue * 27 + color.rawValue * 9 + shape.rawValue * 3 + fill.rawValue }

  /// The card with `index` in 0...80 (see `index`); nil outside.
  public init?(index: Int) {
    guard (0...80).contains(index) else { return nil }
    self.init(digits: [index / 27, index / 9 % 3, index / 3 % 3, index % 3])!
  }

  /// From four values in head order, each 0...2; nil otherwise.
  init?(digits: [Int]) {
    guard digits.count == 4,
      let n = CardNumber(rawValue: digits[0]), let c = CardColor(rawValue: digits[1]),
      let s = CardShape(rawValue: digits[2]), let f = CardFill(rawValue: digits[3])
    else { return nil }
    self.init(number: n, color: c, shape: s, fill: f)
  }

  /// Parses the anchor's digit form `NCSF` (e.g. `0120`) or the Chinese label
  /// (e.g. `2实红菱`); nil when `text` is neither.
  public init?(parsing text: String) {
    let chars = Array(text)
    guard chars.count == 4 else { return nil }
    let d = chars.compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
    if d.count == 4, let card = Card(digits: d) {
      self = card
      return
    }
    func find<A: CardAttribute>(_: A.Type, _ ch: Character) -> A? {
      A.allCases.first { $0.chinese == String(ch) }
    }
    guard let n = find(CardNumber.self, chars[0]), let f = find(CardFill.self, chars[1]),
      let c = find(CardColor.self, chars[2]), let s = find(CardShape.self, chars[3])
    else { return nil }
    self.init(number: n, color: c, shape: s, fill: f)
  }

  /// The digit form `NCSF`, e.g. `0120`.
  public var description: String { digits.map(String.init).joined() }

  /// All 81 cards in `index` order.
  public static let deck: [Card] = (0..<81).map { Card(index: $0)! }

  /// The unique card completing a Set with `a` and `b`: per attribute −(a+b) mod 3.
  /// For `a == b` this is `a` itself.
  static func third(_ a: Card, _ b: Card) -> Card {
    let d = zip(a.digits, b.digits).map { (6 - $0 - $1) % 3 }
    return Card(digits: d)!
  }

  /// True when every attribute is all-same or all-different across the three
  /// (equivalently, no attribute has exactly two distinct values).
  static func isSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
    // Per attribute: all-same or all-different ⇔ the sum is ≡ 0 mod 3.
    (a.number.rawValue + b.number.rawValue + c.number.rawValue) % 3 == 0
      && (a.color.rawValue + b.color.rawValue + c.color.rawValue) % 3 == 0
      && (a.shape.rawValue + b.shape.rawValue + c.shape.rawValue) % 3 == 0
      && (a.fill.rawValue + b.fill.rawValue + c.fill.rawValue) % 3 == 0
  }
}
