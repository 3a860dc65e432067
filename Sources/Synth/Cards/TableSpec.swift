import SetCards
import Core

/// What a Set table photo should show. Every optional field left out is drawn
/// from `seed`, so a scenario pins only what it cares about and stays
/// reproducible.
public struct SetTableSpec: Sendable, Hashable, Decodable {
  /// The one seed every random choice derives from.
  var seed: UInt64
  /// Image size in pixels.
  var size: ImageSize
  /// Cards to deal when `cards` is left out, 3...21 (default 12).
  var cardCount: Int?
  /// Explicit cards in table order (their count wins over `cardCount`).
  var cards: [Card]?
  /// Explicit card centres and rotations; otherwise a grid of rows of three.
  var placements: [Placement]?
  /// Roll of the whole layout (camera rotation about its axis), degrees.
  var rotationDeg: Double?
  /// Amplitude of each card's small random rotation, degrees (0...30).
  var jitterDeg: Double?
  /// Spacing between grid neighbours.
  var arrangement: Arrangement?
  /// Grid gap in card widths; negative overlaps (overrides `arrangement`).
  var gap: Double?
  /// Card height in pixels (default: fitted to the image).
  var cardHeight: Double?
  /// What the cards lie on.
  var table: TableKind?
  /// Perspective: camera tilt away from straight-down, degrees (0...40).
  var tiltDeg: Double?
  /// Warm light, 0...1: red toward orange, purple toward lavender, white toward cream.
  var warmth: Double?
  /// Strength of the light gradient across the table, 0...1.
  var lighting: Double?
  /// Corner darkening, 0...1.
  var vignette: Double?
  /// Card shadow strength, 0...1.
  var shadow: Double?
  /// Faint printing of empty and striped symbols, 0...1.
  var faint: Double?
  /// Soft focus: Gaussian sigma in pixels, 0...20.
  var blur: Double?
  /// Sensor noise sigma in 8-bit units, 0...64.
  var noise: Double?
  /// The look: classic (default), realism or realism-holdout.
  public var style: CardStyle?

  /// A spec with everything but seed, size and count left to the seed.
  public init(seed: UInt64, size: ImageSize = ImageSize(width: 1280, height: 960), cardCount: Int? = nil) {
    self.seed = seed
    self.size = size
    self.cardCount = cardCount
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case seed, size, cards, placements, arrangement, gap, table, warmth, lighting, vignette
    case shadow, faint, blur, noise, style
    case cardCount = "card_count", rotationDeg = "rotation_deg", jitterDeg = "jitter_deg"
    case cardHeight = "card_height", tiltDeg = "tilt_deg"
  }

  /// Strict decoding: unknown keys are errors; cards are `NCSF` digits or labels.
  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
    size = try c.decodeIfPresent(ImageSize.self, forKey: .size) ?? ImageSize(width: 1280, height: 960)
    cardCount = try c.decodeIfPresent(Int.self, forKey: .cardCount)
    if let texts = try c.decodeIfPresent([String].self, forKey: .cards) {
      cards = try texts.map { text in
        guard let card = Card(parsing: text) else {
          throw DecodingError.dataCorruptedError(forKey: .cards, in: c,
            debugDescription: "card '\(text)' is not NCSF digits 0-2 or a label like 2实红菱")
        }
        return card
      }
    }
    placements = try c.decodeIfPresent([Placement].self, forKey: .placements)
    rotationDeg = try c.decodeIfPresent(Double.self, forKey: .rotationDeg)
    jitterDeg = try c.decodeIfPresent(Double.self, forKey: .jitterDeg)
    arrangement = try c.decodeIfPresent(Arrangement.self, forKey: .arrangement)
    gap = try c.decodeIfPresent(Double.self, forKey: .gap)
    cardHeight = try c.decodeIfPresent(Double.self, forKey: .cardHeight)
    table = try c.decodeIfPresent(TableKind.self, forKey: .table)
    tiltDeg = try c.decodeIfPresent(Double.self, forKey: .tiltDeg)
    warmth = try c.decodeIfPresent(Double.self, forKey: .warmth)
    lighting = try c.decodeIfPresent(Double.self, forKey: .lighting)
    vignette = try c.decodeIfPresent(Double.self, forKey: .vignette)
    shadow = try c.decodeIfPresent(Double.self, forKey: .shadow)
    faint = try c.decodeIfPresent(Double.self, forKey: .faint)
    blur = try c.decodeIfPresent(Double.self, forKey: .blur)
    noise = try c.decodeIfPresent(Double.self, forKey: .noise)
    style = try c.decodeIfPresent(CardStyle.self, forKey: .style)
  }
}

/// One card's centre (flat-table pixels) and rotation.
struct Placement: Sendable, Hashable, Decodable {
  /// Centre x, pixels.
  var x: Double
  /// Centre y, pixels.
  var y: Double
  /// Rotation, degrees clockwise on screen (0 = portrait upright).
  var rotationDeg: Double

  /// Memberwise.
  init(x: Double, y: Double, rotationDeg: Double = 0) {
    self.x = x
    self.y = y
    self.rotationDeg = rotationDeg
  }

  enum CodingKeys: String, CodingKey, CaseIterable { case x, y, rotationDeg = "rotation_deg" }

  /// Strict decoding.
  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    x = try c.decode(Double.self, forKey: .x)
    y = try c.decode(Double.self, forKey: .y)
    rotationDeg = try c.decodeIfPresent(Double.self, forKey: .rotationDeg) ?? 0
  }
}

/// How far apart grid neighbours lie.
enum Arrangement: String, Sendable, Hashable, Decodable, CaseIterable {
  /// Gaps of 0.15–0.35 card widths, small position and rotation jitter.
  case spaced
  /// Edges touching (gap 0), no jitter.
  case touching
  /// Neighbours overlapping by 0.12–0.25 card widths; later cards lie on top.
  case overlapping
}

/// The table surface.
enum TableKind: String, Sendable, Hashable, Decodable, CaseIterable {
  /// Wooden boards with grain.
  case wood
  /// Woven cloth or felt.
  case cloth
  /// White or light-grey laminate (a kitchen or office table).
  case laminate
  /// A patterned play mat.
  case mat
}
