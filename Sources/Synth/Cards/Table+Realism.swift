import SetCards
import Canvas
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How cards are printed: inks, stock and strokes. `classic` reproduces the
/// synthesizer's first look exactly; realistic tables draw their own.
struct CardPrint: Sendable, Hashable {
  /// Ink per `CardColor` (red, green, purple).
  var inks: [Color]
  /// Card stock.
  var stock: Color
  /// Outline width as a share of the card height.
  var outline: Double
  /// Stripe pitch as a share of the card height, and the inked share of each period.
  var stripePitch: Double, stripeDuty: Double
  /// The squiggle as printed (an S-shaped tilde with bulbous ends) instead of the bean.
  var tilde: Bool
  /// Diamonds with sharp (mitred) corners.
  var sharpDiamond: Bool

  /// Printed inks (hues about 357°, 143°, 270°).
  static let classicInks = [Color(hex: 0xE0252D), Color(hex: 0x13A04A), Color(hex: 0x5D2B90)]

  /// The first look: outline h/92, stripes h/69 at 38 % ink, the bean squiggle, round joins.
  static let classic = CardPrint(inks: classicInks, stock: Color(hex: 0xF8F6F0), outline: 1.0 / 92,
                                 stripePitch: 1.0 / 69, stripeDuty: 0.38, tilde: false, sharpDiamond: false)
}

/// What a realistic photo adds beyond the classic look.
struct RealismLook: Sendable, Hashable {
  /// Which ranges it was drawn from.
  var style: CardStyle
  /// White balance (−1 cool … +1 warm), contrast and exposure gain.
  var whiteBalance: Double, contrast: Double, exposure: Double
  /// A soft specular highlight: centre and radius as shares of the image, strength 0...1.
  var glare: [Double]?
  /// Motion blur: length (px) and angle (degrees).
  var motion: [Double]?
  /// JPEG quality the photo is saved at.
  var jpegQuality: Int
  /// Target card short side in output pixels (the grid shrinks to it when it fits).
  var cardWidthPx: Double
  /// Whether the cards lie landscape.
  var landscape: Bool
  /// The strip of thumbnail cards at an edge, if any.
  var thumbnails: ThumbnailStrip?
  /// The game box in frame, if any.
  var gameBox: GameBox?
}

/// A strip of small cards along one edge (the app's found-Sets thumbnails).
struct ThumbnailStrip: Sendable, Hashable {
  /// 0 top, 1 right, 2 bottom, 3 left.
  var edge: Int
  /// Cards in the strip.
  var count: Int
  /// Size as a share of a table card.
  var scale: Double
}

/// The game box, partly in frame at a corner.
struct GameBox: Sendable, Hashable {
  /// 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
  var corner: Int
  /// How far it reaches into the frame, as a share of its size.
  var inside: Double
}

extension SetTable {
  /// Draws the realistic print and look from `r` (its own sub-stream, so the
  /// classic draws before it are untouched).
  static func resolveRealism(_ style: CardStyle, ranges r: RealismRanges, imageWidth: Int,
                             _ g: inout SeededGenerator) -> (CardPrint, RealismLook) {
    let base: [(h: Double, s: Double, v: Double)] = [(357, 0.83, 0.88), (143, 0.88, 0.63), (270, 0.70, 0.56)]
    let hues = [g.uniform(r.redHue), g.uniform(r.greenHue), g.uniform(r.purpleHue)]
    var inks: [Color] = []
    for (i, b) in base.enumerated() {
      let s = min(1, b.s * g.uniform(r.inkSaturation)), v = min(1, b.v * g.uniform(r.inkValue))
      inks.append(hsv(hues[i], s, v))
    }
    let stockTint = g.uniform(0...1)
    let stock = Color(r: 0.97 - 0.02 * stockTint, g: 0.965 - 0.03 * stockTint, b: 0.95 - 0.07 * stockTint)
    let outline = g.uniform(r.outline) * aspect
    let print = CardPrint(inks: inks, stock: stock, outline: outline, stripePitch: g.uniform(r.stripePitch),
                          stripeDuty: g.uniform(r.stripeDuty), tilde: true, sharpDiamond: true)
    let wb = g.uniform(r.whiteBalance), contrast = g.uniform(r.contrast), exposure = g.uniform(r.exposure)
    let glare = g.chance(r.glareChance) ? [g.uniform(0.15...0.85), g.uniform(0.15...0.85), g.uniform(0.08...0.25), g.uniform(0.25...0.6)] : nil
    let motion = g.chance(r.motionChance) ? [g.uniform(r.motion), g.uniform(0...180)] : nil
    let quality = Int(g.uniform(r.jpegQuality).rounded())
    let cardWidth = g.uniform(r.cardWidth) * Double(imageWidth) / 1280
    let landscape = g.chance(r.landscapeChance)
    let thumbs = g.chance(r.thumbnailChance) ? ThumbnailStrip(edge: g.int(0...3), count: g.int(3...9), scale: g.uniform(0.3...0.45)) : nil
    let box = g.chance(r.boxChance) ? GameBox(corner: g.int(0...3), inside: g.uniform(0.35...0.8)) : nil
    let look = RealismLook(style: style, whiteBalance: wb, contrast: contrast, exposure: exposure, glare: glare, motion: motion,
                           jpegQuality: quality, cardWidthPx: cardWidth, landscape: landscape, thumbnails: thumbs, gameBox: box)
    return (print, look)
  }

  /// Surfaces a realistic photo draws from: the classic two plus white laminate and a patterned mat.
  static let realismTables: [TableKind] = [.wood, .cloth, .laminate, .laminate, .mat]

  /// Base colours per surface.
  static func tableColors(_ kind: TableKind) -> [UInt32] {
    switch kind {
    case .wood: return [0x9C6A3C, 0x7E5030, 0xB7844F, 0x5E3B22]
    case .cloth: return [0x2F6B45, 0x2E4F7C, 0x7B7468, 0xC2B49A, 0x8A3B3B]
    case .laminate: return [0xF2F1EC, 0xE6E6E2, 0xDCD8CE, 0xEDEFF2]
    case .mat: return [0x3A3F4A, 0x6B2E2E, 0x254B63, 0x9AA39B, 0xD8CBB0]
    }
  }

  /// HSV (hue in degrees, wrapping) to an opaque colour.
  static func hsv(_ hue: Double, _ s: Double, _ v: Double) -> Color {
    let h = ((hue.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360) / 60
    let c = v * s, x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
    let (r, g, b): (Double, Double, Double) = switch Int(h) {
    case 0: (c, x, 0)
    case 1: (x, c, 0)
    case 2: (0, c, x)
    case 3: (0, x, c)
    case 4: (x, 0, c)
    default: (c, 0, x)
    }
    return Color(r: r + m, g: g + m, b: b + m)
  }
}
