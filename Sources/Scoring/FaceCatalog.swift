/// Every face Bullseye knows, as one table.
///
/// Ring diameters follow archeryutils (fractions of the nominal face diameter);
/// multi-spot layouts follow MyTargets (sheet frame [-1, 1]²); the seed's four
/// systems follow seed 002 literally, including its fixed 5 % X radius.
public enum FaceCatalog {
  /// All faces, in a stable order.
  public static let all: [Face] = standardFaces + multiSpotFaces + seedFaces

  /// Looks a face up by id or alias (case-insensitive).
  public static func face(named name: String) throws(ScoringError) -> Face {
    let key = name.lowercased()
    if let f = all.first(where: { $0.id.lowercased() == key || $0.aliases.contains { $0.lowercased() == key } }) {
      return f
    }
    throw .unknownFace(name, known: all.map(\.id))
  }
}

/// Colours used by faces. Gold and blue are the seed's DomainColor values.
enum Paint {
  static let gold = RGB8(hex: 0xFFD700)
  static let red = RGB8(hex: 0xFF3B30)  // SwiftUI `.red`, the seed's ring 7–8 fill
  static let blue = RGB8(hex: 0x00B4D8)
  static let black = RGB8(hex: 0x000000)
  static let white = RGB8(hex: 0xFFFFFF)
  static let nfaaBlue = RGB8(hex: 0x1F4E9C)

  /// WA ring colours by score on a 10-zone face.
  static func wa(_ score: Int) -> RGB8 {
    switch score {
    case 9...: return gold
    case 7...8: return red
    case 5...6: return blue
    case 3...4: return black
    default: return white
    }
  }
}

/// One ring as written in the table: diameter fraction of the nominal face, score, X flag, fill.
struct Ring {
  let fraction: Double
  let score: Int
  let isX: Bool
  let fill: RGB8
  init(_ fraction: Double, _ score: Int, x: Bool = false, _ fill: RGB8) {
    self.fraction = fraction; self.score = score; self.isX = x; self.fill = fill
  }
}

extension Face {
  /// Builds a face from table rows: radii are normalised so the outermost ring is 1.
  init(
    _ id: String, aliases: [String] = [], title: String, rings: [Ring], diameters: [Double],
    spots: [Spot] = [Spot(x: 0, y: 0, radius: 1)], floorUnit: Double, buttons: [String]? = nil,
    lines: RGB8 = Paint.black, source: String
  ) {
    let outer = rings.last!.fraction
    let zones = rings.enumerated().map { i, r in
      // A line between two black zones is drawn white, as on WA faces.
      let next = i + 1 < rings.count ? rings[i + 1].fill : Paint.white
      let line = (r.fill == Paint.black && next == Paint.black) ? Paint.white : lines
      return Zone(
        radius: r.fraction / outer, score: r.score, label: r.isX ? "X" : String(r.score),
        isX: r.isX, fill: r.fill, line: line)
    }
    var derived = zones.map(\.label)
    derived = derived.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    self.init(
      id: id, aliases: aliases, title: title, zones: zones, spots: spots, diametersCm: diameters,
      scoringFraction: outer, floorUnit: floorUnit, buttons: buttons ?? derived + ["M"], source: source)
  }
}
