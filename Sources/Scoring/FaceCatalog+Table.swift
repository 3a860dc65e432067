// The face table. Each row: diameter fraction of the nominal face, score, X flag, fill.
// Diameters and scores match archeryutils' `gen_face_spec`; X rings follow WA
// (X diameter = face / 20) where the face has one.

extension FaceCatalog {
  /// WA-coloured rings for scores `from` down to `to` (diameter n/10 scores 11 − n).
  static func waRings(from top: Int = 10, to bottom: Int, x: Bool = true) -> [Ring] {
    var rings: [Ring] = x ? [Ring(0.05, 10, x: true, Paint.gold)] : []
    for score in stride(from: top, through: bottom, by: -1) {
      rings.append(Ring(Double(11 - score) / 10, score, Paint.wa(score)))
    }
    return rings
  }

  /// Compound variants: the inner ten (diameter 0.05) is the only 10.
  static func compoundRings(to bottom: Int) -> [Ring] {
    [Ring(0.05, 10, Paint.gold)] + waRings(from: 9, to: bottom, x: false)
  }

  /// Lancaster 11-zone: the X ring scores 11.
  static func elevenRings(to bottom: Int) -> [Ring] {
    [Ring(0.05, 11, x: true, Paint.gold)] + waRings(from: 10, to: bottom, x: false)
  }

  static let standardFaces: [Face] = [
    Face("10_zone", aliases: ["wa_10_zone", "wa_full"], title: "WA 10-zone",
         rings: waRings(to: 1), diameters: [122, 80, 60, 40], floorUnit: 0.1,
         source: "archeryutils 10_zone; MyTargets WAFull; X = D/20"),
    Face("10_zone_compound", aliases: ["wa_compound"], title: "WA 10-zone, compound inner 10",
         rings: compoundRings(to: 1), diameters: [122, 80, 60, 40], floorUnit: 0.05,
         source: "archeryutils 10_zone_compound"),
    Face("10_zone_6_ring", aliases: ["wa_6_ring"], title: "WA 6-ring (10–5)",
         rings: waRings(to: 5), diameters: [80, 122], floorUnit: 1.0 / 6,
         source: "archeryutils 10_zone_6_ring; MyTargets WA6Ring"),
    Face("10_zone_5_ring", aliases: ["wa_5_ring"], title: "WA 5-ring (10–6)",
         rings: waRings(to: 6), diameters: [80, 40, 60, 122], floorUnit: 0.2,
         source: "archeryutils 10_zone_5_ring; MyTargets WA5Ring"),
    Face("10_zone_5_ring_compound", title: "WA 5-ring, compound inner 10",
         rings: compoundRings(to: 6), diameters: [80, 40, 60, 122], floorUnit: 0.1,
         source: "archeryutils 10_zone_5_ring_compound"),
    Face("11_zone", aliases: ["lancaster"], title: "11-zone (X = 11)",
         rings: elevenRings(to: 1), diameters: [122, 80, 60, 40], floorUnit: 0.05,
         source: "archeryutils 11_zone"),
    Face("11_zone_6_ring", title: "11-zone, 6 ring (11–5)",
         rings: elevenRings(to: 5), diameters: [80, 40], floorUnit: 0.05 / 0.6,
         source: "archeryutils 11_zone_6_ring"),
    Face("11_zone_5_ring", title: "11-zone, 5 ring (11–6)",
         rings: elevenRings(to: 6), diameters: [40, 80], floorUnit: 0.1,
         source: "archeryutils 11_zone_5_ring"),
    Face("5_zone", aliases: ["imperial"], title: "Imperial 5-zone (9–1)",
         rings: [Ring(0.2, 9, Paint.gold), Ring(0.4, 7, Paint.red), Ring(0.6, 5, Paint.blue),
                 Ring(0.8, 3, Paint.black), Ring(1.0, 1, Paint.white)],
         diameters: [122, 80], floorUnit: 0.2, source: "archeryutils 5_zone"),
    Face("Worcester", title: "Worcester (5–1)",
         rings: [Ring(0.2, 5, Paint.white)] + (2...5).map { Ring(Double($0) / 5, 6 - $0, Paint.black) },
         diameters: [40.64], floorUnit: 0.2, lines: Paint.white, source: "archeryutils Worcester (16 in)"),
    Face("Worcester_2_ring", title: "Worcester 2-ring (5, 4)",
         rings: [Ring(0.2, 5, Paint.white), Ring(0.4, 4, Paint.black)],
         diameters: [40.64], floorUnit: 0.5, lines: Paint.white, source: "archeryutils Worcester_2_ring"),
    Face("WA_field", title: "WA field (6–1)",
         rings: [Ring(0.1, 6, x: true, Paint.gold), Ring(0.2, 5, Paint.gold)]
           + (2...5).map { Ring(Double($0) / 5, 6 - $0, Paint.black) },
         diameters: [80, 60, 40, 20], floorUnit: 0.1, lines: Paint.white, source: "archeryutils WA_field"),
    Face("IFAA_field", aliases: ["nfaa_field"], title: "IFAA/NFAA field (5, 4, 3)",
         rings: [Ring(0.2, 5, Paint.black), Ring(0.6, 4, Paint.white), Ring(1.0, 3, Paint.black)],
         diameters: [65, 50, 35, 20], floorUnit: 0.2, source: "archeryutils IFAA_field"),
    Face("IFAA_field_expert", title: "IFAA field, expert (5–1)",
         rings: [Ring(0.2, 5, Paint.black), Ring(0.4, 4, Paint.white), Ring(0.6, 3, Paint.white),
                 Ring(0.8, 2, Paint.black), Ring(1.0, 1, Paint.black)],
         diameters: [65, 50, 35, 20], floorUnit: 0.2, source: "archeryutils IFAA_field_expert"),
    Face("AA_national_field", title: "AA national field (5–1)",
         rings: [Ring(0.2, 5, Paint.gold), Ring(0.4, 4, Paint.red), Ring(0.6, 3, Paint.blue),
                 Ring(0.8, 2, Paint.black), Ring(1.0, 1, Paint.white)],
         diameters: [80, 60, 40, 20], floorUnit: 0.2, source: "archeryutils AA_national_field"),
    Face("nfaa_indoor", title: "NFAA indoor 40 cm (5–1)",
         rings: [Ring(0.1, 5, x: true, Paint.white), Ring(0.2, 5, Paint.white), Ring(0.4, 4, Paint.nfaaBlue),
                 Ring(0.6, 3, Paint.nfaaBlue), Ring(0.8, 2, Paint.nfaaBlue), Ring(1.0, 1, Paint.nfaaBlue)],
         diameters: [40], floorUnit: 0.2, lines: Paint.white, source: "MyTargets NFAAIndoor"),
    Face("Beiter_hit_miss", title: "Beiter hit/miss",
         rings: [Ring(1.0, 1, Paint.gold)], diameters: [6], floorUnit: 1.0,
         source: "archeryutils Beiter_hit_miss"),
  ]

  static let multiSpotFaces: [Face] = [
    Face("wa_vegas_3_spot", aliases: ["vegas_3_spot", "wa_triple_spot"], title: "WA/Vegas 3-spot (10–6)",
         rings: waRings(to: 6), diameters: [40],
         spots: [Spot(x: -0.52, y: 0.5, radius: 0.48), Spot(x: 0, y: -0.5, radius: 0.48),
                 Spot(x: 0.52, y: 0.5, radius: 0.48)],
         floorUnit: 0.2, source: "MyTargets WAVegas3Spot (spot radius 0.48)"),
    Face("wa_vertical_3_spot", aliases: ["vertical_3_spot"], title: "WA vertical 3-spot (10–6)",
         rings: waRings(to: 6), diameters: [40],
         spots: [Spot(x: 0, y: -0.68, radius: 0.32), Spot(x: 0, y: 0, radius: 0.32),
                 Spot(x: 0, y: 0.68, radius: 0.32)],
         floorUnit: 0.2, source: "MyTargets WAVertical3Spot (spot radius 0.32)"),
    Face("nfaa_5_spot", title: "NFAA 5-spot (5, 4)",
         rings: [Ring(0.1, 5, x: true, Paint.white), Ring(0.2, 5, Paint.white), Ring(0.4, 4, Paint.nfaaBlue)],
         diameters: [40],
         spots: [Spot(x: -0.6, y: -0.6, radius: 0.4), Spot(x: 0.6, y: -0.6, radius: 0.4), Spot(x: 0, y: 0, radius: 0.4),
                 Spot(x: -0.6, y: 0.6, radius: 0.4), Spot(x: 0.6, y: 0.6, radius: 0.4)],
         floorUnit: 0.5, lines: Paint.white, source: "MyTargets NFAAIndoor5Spot"),
  ]

  /// Seed 002's four systems: equal-width rings across the whole radius, a fixed
  /// 5 % X flag, and the button sets the seed lists (Field 5-Ring's buttons are
  /// taken literally: 5, 5, 5, 3, 1, M).
  static let seedFaces: [Face] = [
    Face("seed_standard_10_ring", aliases: ["Standard 10-Ring", "standard10Ring"], title: "Seed Standard 10-Ring",
         rings: [Ring(0.05, 10, x: true, Paint.gold)]
           + (1...10).map { Ring(Double($0) / 10, 11 - $0, Paint.wa(11 - $0)) },
         diameters: [122, 80, 40], floorUnit: 0.1,
         buttons: ["X", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "M"],
         source: "seed 002 TargetFaceViewModel (ringCount 10, X 0.05)"),
    Face("seed_indoor_5_ring", aliases: ["Indoor 5-Ring", "indoor5Ring"], title: "Seed Indoor 5-Ring",
         rings: [Ring(0.05, 10, x: true, Paint.gold)]
           + (1...5).map { Ring(Double($0) / 5, 11 - $0, Paint.wa(11 - $0)) },
         diameters: [40], floorUnit: 0.2, buttons: ["X", "10", "9", "8", "7", "6", "M"],
         source: "seed 002 (ringCount 5, X 0.05)"),
    Face("seed_vegas_2_ring", aliases: ["Vegas 2-Ring", "vegas2Ring"], title: "Seed Vegas 2-Ring",
         rings: [Ring(0.05, 10, x: true, Paint.gold), Ring(0.5, 10, Paint.gold), Ring(1.0, 9, Paint.gold)],
         diameters: [40], floorUnit: 0.5, buttons: ["X", "10", "9", "M"],
         source: "seed 002 (ringCount 2, X 0.05)"),
    Face("seed_field_5_ring", aliases: ["Field 5-Ring", "field5Ring"], title: "Seed Field 5-Ring",
         rings: [Ring(0.2, 5, Paint.white), Ring(0.4, 5, Paint.black), Ring(0.6, 5, Paint.black),
                 Ring(0.8, 3, Paint.white), Ring(1.0, 1, Paint.black)],
         diameters: [60], floorUnit: 0.2, buttons: ["5", "5", "5", "3", "1", "M"],
         source: "seed 002 button list, taken literally (no X)"),
  ]
}
