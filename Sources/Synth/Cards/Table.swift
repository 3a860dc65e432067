import SetCards
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fully resolved table: every number decided. Rendering is a pure function of it.
struct SetTable: Sendable, Hashable {
  /// Output image size.
  let width: Int, height: Int
  /// The seed the spec carried (noise and textures derive from it).
  let seed: UInt64
  /// Cards in drawing order (later ones lie on top).
  var cards: [PlacedCard]
  /// The resolved look.
  let look: Look
  /// Extra flat-table width on each side that perspective brings into view.
  let marginX: Int
  /// Things in frame that are not table cards: thumbnail cards (realistic styles).
  var thumbnails: [PlacedCard] = []
  /// The game box (realistic styles): centre, size and rotation on the flat table.
  var gameBox: BoxPlacement?

  /// A rectangle on the flat table.
  struct BoxPlacement: Sendable, Hashable {
    /// Centre, size and rotation (degrees clockwise), flat-table pixels.
    let x: Double, y: Double, width: Double, height: Double, rotationDeg: Double
  }

  /// One card on the flat table.
  struct PlacedCard: Sendable, Hashable {
    /// The card.
    let card: Card
    /// Centre in flat-table pixels.
    let x: Double, y: Double
    /// Card height in pixels (width is 0.64 × height).
    let heightPx: Double
    /// Rotation, degrees clockwise on screen.
    let rotationDeg: Double
  }

  /// The resolved photo look.
  struct Look: Sendable, Hashable {
    /// Table surface and its base colour (0xRRGGBB).
    let table: TableKind, tableColor: UInt32
    /// Perspective tilt, degrees.
    let tiltDeg: Double
    /// Warm-light amount, light gradient, its angle, vignette, shadow, faintness.
    let warmth: Double, lighting: Double, lightAngleDeg: Double, vignette: Double
    /// Shadow strength and faint printing, 0...1.
    let shadow: Double, faint: Double
    /// Blur sigma (px) and noise sigma (8-bit units).
    let blur: Double, noise: Double
    /// How the cards are printed.
    var print = CardPrint.classic
    /// What a realistic style adds (nil: classic).
    var realism: RealismLook?
  }

  /// Card aspect: width / height of a real card.
  static let aspect = 0.64
}

extension SetTable {
  /// Validates `spec` and fills every unspecified field from its seed (one
  /// sub-stream per concern, so pinning one field never shifts the others).
  static func resolve(_ spec: SetTableSpec) throws(SetCardsError) -> SetTable {
    let w = spec.size.width, h = spec.size.height
    for (name, v) in [("width", w), ("height", h)] where !(16...8192).contains(v) {
      throw .invalid(name: "image \(name)", value: String(v), expected: "16...8192 px")
    }
    var root = SeededGenerator(seed: spec.seed)
    var dealRNG = root.fork("deal"), layoutRNG = root.fork("layout"), lookRNG = root.fork("look")
    let cards = try deal(spec, &dealRNG)
    let style = spec.style ?? .classic
    var look = try resolveLook(spec, style: style, &lookRNG)
    let marginX = Int((sin(look.tiltDeg * .pi / 180) * 0.5 * Double(w)).rounded(.up))
    guard let ranges = style.ranges else {
      let placed = try layout(spec, cards: cards, offsetX: Double(marginX), &layoutRNG)
      return SetTable(width: w, height: h, seed: spec.seed, cards: placed, look: look, marginX: marginX)
    }
    var realismRNG = root.fork("realism")
    let (print, realism) = resolveRealism(style, ranges: ranges, imageWidth: w, &realismRNG)
    look.print = print
    look.realism = realism
    var landscapeSpec = spec
    if realism.landscape, spec.rotationDeg == nil, spec.placements == nil { landscapeSpec.rotationDeg = 90 + layoutRNG.uniform(-5...5) }
    let placed = try layout(landscapeSpec, cards: cards, offsetX: Double(marginX), &layoutRNG)
    var table = SetTable(width: w, height: h, seed: spec.seed, cards: placed, look: look, marginX: marginX)
    if spec.placements == nil, spec.cardHeight == nil { table.placeRealistically(realism, &realismRNG) }
    return table
  }

  static func check(_ name: String, _ v: Double, _ range: ClosedRange<Double>) throws(SetCardsError) {
    guard v.isFinite, range.contains(v) else {
      throw .invalid(name: name, value: "\(v)", expected: "a finite number in \(range.lowerBound)...\(range.upperBound)")
    }
  }

  /// The explicit cards, or `cardCount` distinct cards drawn from the deck.
  static func deal(_ spec: SetTableSpec, _ g: inout SeededGenerator) throws(SetCardsError) -> [Card] {
    if let cards = spec.cards {
      guard (1...21).contains(cards.count) else {
        throw .invalid(name: "cards", value: "\(cards.count) cards", expected: "1...21")
      }
      return cards
    }
    let n = spec.cardCount ?? 12
    let counts = SceneLimits.cardCount
    guard counts.contains(n) else { throw .invalid(name: "card_count", value: String(n), expected: "\(counts.lowerBound)...\(counts.upperBound)") }
    var deck = Card.deck
    for i in 0..<n { deck.swapAt(i, g.int(i...80)) }  // partial Fisher–Yates
    return Array(deck[0..<n])
  }

  static func resolveLook(_ s: SetTableSpec, style: CardStyle, _ g: inout SeededGenerator) throws(SetCardsError) -> Look {
    let table = s.table ?? g.pick(style == .classic ? [.wood, .cloth] : realismTables)
    let color = g.pick(tableColors(table))
    let tilt = s.tiltDeg ?? g.uniform(0...18)
    let warmth = s.warmth ?? g.uniform(0.2...0.8)
    let lighting = s.lighting ?? g.uniform(0...0.35)
    let angle = g.uniform(0...360)
    let vignette = s.vignette ?? g.uniform(0...0.3)
    let shadow = s.shadow ?? g.uniform(0.3...0.8)
    let faint = s.faint ?? g.uniform(0.2...0.7)
    let ranges = style.ranges
    let blur = s.blur ?? g.uniform(ranges?.blur ?? 0.4...1.4)
    let noise = s.noise ?? g.uniform(ranges?.noise ?? 1...5)
    try check("tilt_deg", tilt, 0...40)
    try check("warmth", warmth, 0...1)
    try check("lighting", lighting, 0...1)
    try check("vignette", vignette, 0...1)
    try check("shadow", shadow, 0...1)
    try check("faint", faint, 0...1)
    try check("blur", blur, 0...20)
    try check("noise", noise, 0...64)
    return Look(table: table, tableColor: color, tiltDeg: tilt, warmth: warmth, lighting: lighting,
                lightAngleDeg: angle, vignette: vignette, shadow: shadow, faint: faint, blur: blur, noise: noise)
  }
}
