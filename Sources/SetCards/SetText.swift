/// The reference app's words on a result: the header, the Set navigation and
/// each card's label. Text, not drawing: results carry it (`header`) and the
/// overlays in `Overlays` draw it.
public enum SetText {
  /// `{n} cards — Set i / N` (i is 0-based here, shown 1-based), or
  /// `{n} cards — no Sets found` when `set` is nil.
  public static func header(cardCount n: Int, set i: Int?, of count: Int) -> String {
    guard let i, count > 0 else { return "\(n) cards — no Sets found" }
    return "\(n) cards — Set \(i + 1) / \(count)"
  }

  /// Arrow navigation: `current + step` wrapped into 0..<count (0 when no Sets).
  public static func navigate(from current: Int, by step: Int, count: Int) -> Int {
    guard count > 0 else { return 0 }
    return ((current + step) % count + count) % count
  }

  /// `2实红菱 d95% c88%`: label, detection and class confidence in whole percent.
  public static func label(_ c: DetectedCard) -> String { label(c, style: .seed) }

  /// The label in `style`: the seed's `2实红菱 d95% c88%` or `2 red oval striped d95% c88%`.
  public static func label(_ c: DetectedCard, style: SetLabelStyle) -> String {
    let card = c.card
    let words = style == .seed ? card.label : "\(card.number.rawValue + 1) \(card.color.name) \(card.shape.name) \(card.fill.name)"
    return "\(words) d\(percent(c.detectionConfidence))% c\(percent(c.classConfidence))%"
  }

  static func percent(_ v: Double) -> Int { Int((v * 100).rounded()) }
}

/// How overlay labels name a card: the seed's one-character Chinese shorthand
/// (the goldens' style) or English words, readable without the seed's key.
public enum SetLabelStyle: String, Sendable, Hashable, CaseIterable, Codable {
  /// `2实红菱`: number, fill, colour, shape.
  case seed
  /// `2 red oval striped`: number, colour, shape, fill.
  case english

  /// The font that has the style's glyphs.
  public var fontFamily: String { self == .seed ? "WenQuanYi Micro Hei" : "DejaVu Sans" }
}
