@testable import Scoring

/// A deliberately naive scorer written from the rule texts, not from Scorer:
/// walk the zones innermost first and take the first one the rule admits.
enum Reference {
  static func score(_ face: Face, _ rule: BoundaryRule, d: Double, shaft: Double) -> (score: Int, isX: Bool) {
    if rule == .floor { return floorScore(face, d: d) }
    for z in face.zones {
      let hit: Bool
      switch rule {
      case .inclusive: hit = d <= z.radius
      case .strict: hit = d < z.radius
      case .lineCutter: hit = d - shaft <= z.radius
      case .floor: hit = false
      }
      if hit { return (z.score, z.isX) }
    }
    return (0, false)
  }

  /// Seed 002's `calculateScore` generalised by a band table: band k covers
  /// [k·u, (k+1)·u) and belongs to the first non-flag zone whose radius, in
  /// whole bands, exceeds k.
  static func floorScore(_ face: Face, d: Double) -> (score: Int, isX: Bool) {
    if d > 1.0 { return (0, false) }
    let u = face.floorUnit
    let bandCount = Int((1 / u).rounded())
    let band = min(Int(d / u), bandCount - 1)
    let flagX = face.xIsFlag
    let candidates = face.zones.filter { !(flagX && $0.isX) }
    let zone = candidates.first { Int(($0.radius / u).rounded()) > band }!
    let isX = flagX ? d <= face.xRadius! : zone.isX
    return (zone.score, isX)
  }

  /// The seed's literal code for its equal-width systems (ringCount rings, X at 0.05).
  static func seedCalculateScore(ringCount: Int, scores: [Int], x: Double, y: Double) -> Int {
    let distance = (x * x + y * y).squareRoot()
    if distance > 1.0 { return 0 }
    let ringWidth = 1.0 / Double(ringCount)
    let ringFromCenter = Int(distance / ringWidth)
    let ringIndex = ringCount - 1 - min(ringFromCenter, ringCount - 1)
    return scores[ringIndex]  // scores indexed outer→inner as getScoreForRing(at:)
  }
}
