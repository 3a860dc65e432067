import Testing
@testable import Scoring

/// Every single-spot face, at every ring radius and its float neighbours, under
/// every rule, against the naive reference.
struct BoundaryTableTests {
  static let singleSpotFaces = FaceCatalog.all.filter { $0.spots.count == 1 }

  /// The parameterised tests below must have cases to run.
  @Test func theFaceListsAreNotEmpty() {
    #expect(Self.singleSpotFaces.count >= 20, "single-spot faces: \(Self.singleSpotFaces.count)")
    #expect(FaceCatalog.all.filter { $0.spots.count > 1 }.count >= 3, "multi-spot faces")
  }

  @Test(arguments: singleSpotFaces)
  func everyRingEdgeAgreesWithReference(face: Face) throws {
    for rule in BoundaryRule.allCases {
      for zone in face.zones {
        for d in [zone.radius.nextDown, zone.radius, zone.radius.nextUp] {
          // On the y axis sqrt(y²) == |y| exactly, so d is the distance scored.
          let req = ScoreRequest(face: face, x: 0, y: d, rule: rule, arrowMM: 5.5)
          let got = try Scorer.score(req)
          #expect(got.distance == d)
          let shaft = 2.75 / face.spotRadiusMM(diameterCm: req.diameterCm)
          let want = Reference.score(face, rule, d: d, shaft: shaft)
          #expect(got.score == want.score && got.isX == want.isX,
                  "\(face.id) \(rule) d=\(d) (\(d.hexDescription)): got \(got.score)/\(got.isX), want \(want.score)/\(want.isX)")
        }
      }
    }
  }

  @Test(arguments: singleSpotFaces)
  func exactLineSplitsInclusiveFromStrict(face: Face) throws {
    for (i, zone) in face.zones.enumerated() {
      let on = { (rule: BoundaryRule) in try Scorer.score(ScoreRequest(face: face, x: zone.radius, y: 0, rule: rule)) }
      let inclusive = try on(.inclusive), strict = try on(.strict)
      #expect(inclusive.score == zone.score, "\(face.id) ring \(i) inclusive")
      let outer = i + 1 < face.zones.count ? face.zones[i + 1].score : 0
      #expect(strict.score == outer, "\(face.id) ring \(i) strict")
      if zone.isX {
        #expect(inclusive.isX && !strict.isX)
      }
    }
  }

  @Test(arguments: singleSpotFaces)
  func lineCutterWithZeroShaftIsInclusive(face: Face) throws {
    for zone in face.zones {
      for d in [zone.radius.nextDown, zone.radius, zone.radius.nextUp] {
        let a = try Scorer.score(ScoreRequest(face: face, x: d, y: 0, rule: .lineCutter, arrowMM: 0))
        let b = try Scorer.score(ScoreRequest(face: face, x: d, y: 0, rule: .inclusive))
        #expect(a == b, "\(face.id) d=\(d)")
      }
    }
  }

  @Test(arguments: FaceCatalog.all)
  func centreScoresTopAndFarOutsideMisses(face: Face) throws {
    let s = face.spots[0]
    let centre = try Scorer.score(ScoreRequest(face: face, x: s.x, y: s.y))
    #expect(centre.score == face.topScore)
    #expect(centre.isX == (face.xRadius != nil))
    let far = try Scorer.score(ScoreRequest(face: face, x: 5, y: 5))
    #expect(far.isMiss && far.score == 0 && far.label == "M")
  }

  @Test func seedSystemsMatchSeedLiteralCode() throws {
    let systems: [(String, Int, [Int])] = [
      ("seed_standard_10_ring", 10, Array(1...10)),
      ("seed_indoor_5_ring", 5, [6, 7, 8, 9, 10]),
      ("seed_vegas_2_ring", 2, [9, 10]),
      ("seed_field_5_ring", 5, [1, 3, 5, 5, 5]),
    ]
    var rng = Scoring_TestRNG(seed: 42)
    for (id, count, scores) in systems {
      let face = try FaceCatalog.face(named: id)
      for _ in 0..<2000 {
        let x = rng.next() * 2.2 - 1.1, y = rng.next() * 2.2 - 1.1
        let got = try Scorer.score(ScoreRequest(face: face, x: x, y: y, rule: .floor))
        #expect(got.score == Reference.seedCalculateScore(ringCount: count, scores: scores, x: x, y: y),
                "\(id) at (\(x), \(y))")
      }
    }
  }
}

/// A tiny LCG for test inputs only (the product PRNG lives in Core, which this
/// target does not import).
struct Scoring_TestRNG {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> Double {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return Double(state >> 11) * 0x1.0p-53
  }
}

extension Double {
  var hexDescription: String {
    "0x" + String(bitPattern, radix: 16)
  }
}
