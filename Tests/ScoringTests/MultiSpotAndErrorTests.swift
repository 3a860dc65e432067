import Testing
@testable import Scoring

struct MultiSpotAndErrorTests {
  @Test(arguments: FaceCatalog.all.filter { $0.spots.count > 1 })
  func eachSpotScoresInItsOwnFrame(face: Face) throws {
    for (i, s) in face.spots.enumerated() {
      for (zi, zone) in face.zones.enumerated() {
        // Middle of the zone, to the right of the spot centre.
        let inner = zi == 0 ? 0 : face.zones[zi - 1].radius
        let mid = (inner + zone.radius) / 2
        let r = try Scorer.score(ScoreRequest(face: face, x: s.x + mid * s.radius, y: s.y))
        #expect(r.spot == i && r.score == zone.score && r.ring == zi, "\(face.id) spot \(i) zone \(zi)")
        #expect(abs(r.distance - mid) <= 1e-12)
      }
    }
  }

  @Test func sequentialSpotAssignmentScoresOnTheNamedSpot() throws {
    let vegas = try FaceCatalog.face(named: "wa_vegas_3_spot")
    let s1 = vegas.spots[1]
    // Hit spot 1's centre but assign the arrow to spot 0 (seed-style i mod 3).
    let r = try Scorer.score(ScoreRequest(face: vegas, x: s1.x, y: s1.y, spot: .index(0)))
    #expect(r.spot == 0 && r.isMiss)
    let hit = try Scorer.score(ScoreRequest(face: vegas, x: s1.x, y: s1.y, spot: .index(1)))
    #expect(hit.isX && hit.score == 10)
  }

  @Test func lookupByAliasAndUnknownNames() throws {
    #expect(try FaceCatalog.face(named: "Standard 10-Ring").id == "seed_standard_10_ring")
    #expect(try FaceCatalog.face(named: "worcester").id == "Worcester")
    #expect(throws: ScoringError.self) { try FaceCatalog.face(named: "dartboard") }
    let e = ScoringError.unknownFace("dartboard", known: ["10_zone"])
    #expect(e.description == "unknown face 'dartboard': expected one of 10_zone")
  }

  @Test func absurdNumbersAreRefused() throws {
    let wa = try FaceCatalog.face(named: "10_zone")
    let bad: [ScoreRequest] = [
      ScoreRequest(face: wa, x: .nan, y: 0),
      ScoreRequest(face: wa, x: 0, y: .infinity),
      ScoreRequest(face: wa, x: 0, y: 0, diameterCm: 0),
      ScoreRequest(face: wa, x: 0, y: 0, diameterCm: -122),
      ScoreRequest(face: wa, x: 0, y: 0, arrowMM: -1),
      ScoreRequest(face: wa, x: 1e300, y: 0),
      ScoreRequest(face: wa, x: 0, y: 0, spot: .index(3)),
    ]
    for r in bad { #expect(throws: ScoringError.self) { try Scorer.score(r) } }
  }

  @Test func archeryutilsDiametersAndScores() throws {
    // Ring diameters (fraction of the nominal face) and scores as archeryutils' face specs.
    let expected: [String: [(Double, Int)]] = [
      "10_zone_6_ring": [(0.1, 10), (0.2, 9), (0.3, 8), (0.4, 7), (0.5, 6), (0.6, 5)],
      "10_zone_5_ring_compound": [(0.05, 10), (0.2, 9), (0.3, 8), (0.4, 7), (0.5, 6)],
      "11_zone": [(0.05, 11), (0.1, 10), (0.2, 9), (0.3, 8), (0.4, 7), (0.5, 6), (0.6, 5), (0.7, 4), (0.8, 3), (0.9, 2), (1.0, 1)],
      "5_zone": [(0.2, 9), (0.4, 7), (0.6, 5), (0.8, 3), (1.0, 1)],
      "WA_field": [(0.1, 6), (0.2, 5), (0.4, 4), (0.6, 3), (0.8, 2), (1.0, 1)],
      "IFAA_field": [(0.2, 5), (0.6, 4), (1.0, 3)],
      "AA_national_field": [(0.2, 5), (0.4, 4), (0.6, 3), (0.8, 2), (1.0, 1)],
      "Worcester_2_ring": [(0.2, 5), (0.4, 4)],
      "Beiter_hit_miss": [(1.0, 1)],
    ]
    for (id, rings) in expected {
      let f = try FaceCatalog.face(named: id)
      let scoring = f.zones.filter { !($0.isX && f.xIsFlag) }
      #expect(scoring.count == rings.count, "\(id)")
      for (z, (frac, score)) in zip(scoring, rings) {
        #expect(Tolerance.close.accepts(z.radius * f.scoringFraction, frac) && z.score == score, "\(id) \(frac)")
      }
    }
  }
}
