import Testing
@testable import Scoring

/// The conformance traps of anchors/archery.md (d), pinned with their numbers.
struct TrapTests {
  let wa = try! FaceCatalog.face(named: "10_zone")

  func score(_ y: Double, _ rule: BoundaryRule, _ p: Precision = .double, face: Face? = nil,
             diameter: Double? = nil, arrow: Double = 5.5) throws -> ScoreResult {
    try Scorer.score(ScoreRequest(face: face ?? wa, x: 0, y: y, rule: rule, diameterCm: diameter,
                                  arrowMM: arrow, precision: p))
  }

  @Test func contractExampleIsAnX() throws {
    let r = try score(0.05, .inclusive)
    #expect(r.score == 10 && r.isX && r.distance == 0.05 && r.ring == 0)
  }

  @Test func exactRingLineOn122() throws {
    // (d)1: d = 6.100 cm on a 122 cm face is the 10/9 line.
    #expect(try score(0.1, .inclusive).score == 10)
    #expect(try score(0.1, .strict).score == 9)
    // 0.01 mm further out scores 9 under both.
    let beyond = (61.0 + 0.01) / 610
    #expect(try score(beyond, .inclusive).score == 9)
    #expect(try score(beyond, .strict).score == 9)
  }

  @Test func lineCutterReachesAcrossTheLine() throws {
    // (d)2: a 5 mm shaft centred at 6.35 cm still touches the 10 line (6.1 + 0.25 cm).
    #expect(try score(63.4 / 610, .lineCutter, arrow: 5.0).score == 10)
    #expect(try score(63.6 / 610, .lineCutter, arrow: 5.0).score == 9)
    // (d)3: 40 cm compound face, 9.3 mm shaft: inner 10 (r = 10 mm) touched up to 14.65 mm.
    let compound = try FaceCatalog.face(named: "10_zone_compound")
    #expect(try score(14.6 / 200, .lineCutter, face: compound, diameter: 40, arrow: 9.3).score == 10)
    #expect(try score(14.7 / 200, .lineCutter, face: compound, diameter: 40, arrow: 9.3).score == 9)
    // (d)8: d = 15 mm on the 40 cm compound face scores 9 without a shaft.
    #expect(try score(15.0 / 200, .inclusive, face: compound, diameter: 40).score == 9)
  }

  @Test func doubleFloorDivisionTraps() throws {
    // (d)4: Int(d / 0.1) is 2, 5, 6 for d = 0.3, 0.6, 0.7 — one band too far in.
    #expect(Int(0.3 / 0.1) == 2 && Int(0.6 / 0.1) == 5 && Int(0.7 / 0.1) == 6)
    #expect(try score(0.3, .floor).score == 8)   // a strict floor would say 7
    #expect(try score(0.6, .floor).score == 5)
    #expect(try score(0.7, .floor).score == 4)
    #expect(try score(0.2, .floor).score == 8)   // 0.2 / 0.1 == 2 exactly: outward
    #expect(try score(0.3, .strict).score == 7)
  }

  @Test func floatToDoubleTraps() throws {
    // (d)5: widened Floats land on the other side of the division.
    #expect(Double(Float(0.7)) < 0.7 && Double(Float(0.9)) < 0.9 && Double(Float(0.3)) > 0.3)
    #expect(try score(0.7, .floor, .float32).score == 4)   // index 6, as in Double
    #expect(try score(0.9, .floor, .double).score == 1)    // 0.9 / 0.1 = 9.000000000000002
    #expect(try score(0.9, .floor, .float32).score == 2)   // 8.9999998 → 8
    #expect(try score(0.3, .floor, .float32).score == 7)   // 3.0000001 → 3
  }

  @Test func xThresholdAfterFloatRoundTrip() throws {
    // (d)6: Float(0.05) widens to 0.0500000007, which fails ≤ 0.05.
    #expect(try score(0.05, .inclusive, .double).isX)
    #expect(try !score(0.05, .inclusive, .float32).isX)
    #expect(try score(0.05, .inclusive, .float32Native).isX)  // Float vs Float(0.05)
    #expect(try !score(0.05, .floor, .float32).isX)
  }

  @Test func centreAndEdge() throws {
    // (d)7: d = 0 is the top score; d = 1 scores 1 inclusive, 0 strict; beyond is M.
    #expect(try score(0, .floor).score == 10)
    #expect(try score(1, .inclusive).score == 1)
    #expect(try score(1, .strict).score == 0)
    #expect(try score(1, .floor).score == 1)
    #expect(try score(1.0.nextUp, .inclusive).label == "M")
  }
}
