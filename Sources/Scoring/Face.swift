/// An 8-bit sRGB colour, kept here so faces carry their own paint without
/// depending on the drawing layer.
public struct RGB8: Sendable, Hashable {
  public let r: UInt8, g: UInt8, b: UInt8
  /// `hex` is 0xRRGGBB.
  public init(hex: UInt32) {
    r = UInt8((hex >> 16) & 0xFF); g = UInt8((hex >> 8) & 0xFF); b = UInt8(hex & 0xFF)
  }
}

/// One scoring zone of a spot, innermost first.
///
/// `radius` is the zone's outer edge in spot units (the outermost scoring
/// ring's edge is 1.0).
public struct Zone: Sendable, Hashable {
  /// Outer edge of the zone, in spot units.
  public let radius: Double
  /// Points for an arrow in this zone.
  public let score: Int
  /// What a scorer writes: "X", "10", …
  public let label: String
  /// True for the X (inner tie-break) ring.
  public let isX: Bool
  /// Fill colour when drawn.
  public let fill: RGB8
  /// Colour of the line on this zone's outer edge.
  public let line: RGB8
}

/// Where a spot sits on the face sheet: centre and radius in face units.
public struct Spot: Sendable, Hashable {
  /// Centre, face units (x right, y down).
  public let x: Double, y: Double
  /// Radius of the spot's outermost scoring ring, face units.
  public let radius: Double
}

/// A target face: geometry, scores and paint as data, so every rule and test
/// iterates over the same table instead of switching on names.
///
/// Coordinates: x right, y down, centre (0, 0). On a single-spot face, 1.0 is
/// the outer edge of the outermost scoring ring. On multi-spot faces the sheet
/// spans [-1, 1]² and each arrow is scored in the frame of its spot.
public struct Face: Sendable, Hashable {
  /// Canonical id, e.g. `10_zone`.
  public let id: String
  /// Other accepted names (archeryutils names, seed display names).
  public let aliases: [String]
  /// Human title.
  public let title: String
  /// Zones, innermost first, radii in spot units.
  public let zones: [Zone]
  /// Spots on the sheet; one centred unit spot for single-spot faces.
  public let spots: [Spot]
  /// Standard nominal face diameters in cm; the first is the default.
  public let diametersCm: [Double]
  /// Diameter of one spot's outermost scoring ring as a fraction of the nominal
  /// face diameter (archeryutils convention: 0.6 for a 6-ring face).
  public let scoringFraction: Double
  /// Band width (spot units) for the `floor` rule: `Int(d / floorUnit)`.
  public let floorUnit: Double
  /// Score buttons a manual-entry UI offers, best first, "M" last.
  public let buttons: [String]
  /// Where the numbers come from.
  public let source: String

  /// Half-extent of the spot layout on the sheet (x, y), in face units: 1 × 1
  /// for a single spot. A target-face box spans this extent.
  public var layoutHalfExtent: (x: Double, y: Double) {
    let xs = spots.map { abs($0.x) + $0.radius }, ys = spots.map { abs($0.y) + $0.radius }
    return (xs.max() ?? 1, ys.max() ?? 1)
  }

  /// The highest score on the face.
  public var topScore: Int { zones.map(\.score).max() ?? 0 }
  /// Every score an arrow can get on this face, 0 (a miss) included: what a
  /// mark, an expectation or a stored score is checked against.
  public var possibleScores: Set<Int> { Set(zones.map(\.score)).union([0]) }
  /// The scores an X carries here (empty: the face has no X ring).
  public var xScores: Set<Int> { Set(zones.filter(\.isX).map(\.score)) }
  /// `possibleScores` as a sentence's list, highest first: "10, 9, …, 0".
  public var possibleScoresListed: String { possibleScores.sorted(by: >).map(String.init).joined(separator: ", ") }

  /// Radius of the X ring in spot units, if the face has one.
  public let xRadius: Double?
  /// Index of the X zone, if any.
  let xIndex: Int?
  /// The X zone is a flag when it scores the same as the zone around it (WA
  /// 10-zone: X and 10 both score 10); otherwise it is a zone of its own (11-zone).
  let xIsFlag: Bool

  /// Memberwise, with the derived X facts computed once.
  init(
    id: String, aliases: [String], title: String, zones: [Zone], spots: [Spot], diametersCm: [Double],
    scoringFraction: Double, floorUnit: Double, buttons: [String], source: String
  ) {
    self.id = id; self.aliases = aliases; self.title = title; self.zones = zones; self.spots = spots
    self.diametersCm = diametersCm; self.scoringFraction = scoringFraction; self.floorUnit = floorUnit
    self.buttons = buttons; self.source = source
    xIndex = zones.firstIndex(where: \.isX)
    xRadius = xIndex.map { zones[$0].radius }
    xIsFlag = xIndex.map { $0 + 1 < zones.count && zones[$0].score == zones[$0 + 1].score } ?? false
  }

  /// Outer radius of one spot's scoring area in millimetres for a nominal diameter.
  public func spotRadiusMM(diameterCm: Double) -> Double {
    diameterCm * 10 / 2 * scoringFraction
  }

  /// Width of a printed ring line in mm (WA allows up to 2 mm). The synthesizer
  /// prints lines this wide, centred on each zone's edge, and the target locator
  /// expects them: a ring edge seen in a photo is one side of its line.
  public static let printedLineMM = 1.6

  /// A printed ring line's width as a fraction of the outer scoring radius.
  public func lineWidth(diameterCm: Double, lineMM: Double = Face.printedLineMM) -> Double {
    lineMM / spotRadiusMM(diameterCm: diameterCm)
  }

}
