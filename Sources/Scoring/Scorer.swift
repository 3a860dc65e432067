#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One point to score, with every semantic choice explicit.
public struct ScoreRequest: Sendable, Hashable {
  public var face: Face
  /// Nominal face diameter in cm (matters only for `line-cutter`).
  public var diameterCm: Double
  public var rule: BoundaryRule
  /// Arrow shaft diameter in mm (matters only for `line-cutter`).
  public var arrowMM: Double
  public var precision: Precision
  var spot: SpotAssignment
  /// Impact point in face coordinates (x right, y down).
  var x: Double, y: Double

  /// A request with the face's default diameter and a 5.5 mm shaft (AGB outdoor).
  public init(
    face: Face, x: Double, y: Double, rule: BoundaryRule = .inclusive, diameterCm: Double? = nil,
    arrowMM: Double = 5.5, precision: Precision = .double, spot: SpotAssignment = .nearest
  ) {
    self.face = face; self.x = x; self.y = y; self.rule = rule
    self.diameterCm = diameterCm ?? face.diametersCm[0]
    self.arrowMM = arrowMM; self.precision = precision; self.spot = spot
  }
}

/// The verdict for one point.
public struct ScoreResult: Sendable, Hashable {
  /// Points scored (0 for a miss).
  public let score: Int
  /// "X", "10", … or "M".
  public let label: String
  /// Inside the X ring under the rule.
  public let isX: Bool
  /// Zone index from the centre (0 = innermost), −1 for a miss.
  public let ring: Int
  /// Spot scored on.
  public let spot: Int
  /// Distance from the spot centre in spot units, in the request's arithmetic.
  public let distance: Double
  /// Angle of the point around the spot centre: 0° = 3 o'clock, 90° = 6 o'clock (y down).
  public let clockPositionDeg: Double
  /// True when outside every zone.
  public var isMiss: Bool { ring < 0 }
}

/// Scores points on faces. The one entry point of the Scoring stage.
public enum Scorer {
  /// Validates the request and scores it.
  public static func score(_ r: ScoreRequest) throws(ScoringError) -> ScoreResult {
    try validate(r)
    return scoreUnchecked(r)
  }

  /// Scores a request already known to be valid (hot loops: fuzzing, benchmarks).
  public static func scoreUnchecked(_ r: ScoreRequest) -> ScoreResult {
    score(r, spotFrame: false)
  }

  /// Scores a point given relative to the centre of spot `r.spot` (index, or 0
  /// when `.nearest`), in that spot's units: no sheet-to-spot conversion, so a
  /// conformance case on a multi-spot face is the same arithmetic as on one spot.
  public static func scoreInSpot(_ r: ScoreRequest) throws(ScoringError) -> ScoreResult {
    try validate(r)
    return score(r, spotFrame: true)
  }

  static func score(_ r: ScoreRequest, spotFrame: Bool) -> ScoreResult {
    switch r.precision {
    case .double: return classify(r, Double.self, x: r.x, y: r.y, spotFrame: spotFrame)
    case .float32: return classify(r, Double.self, x: Double(Float(r.x)), y: Double(Float(r.y)), spotFrame: spotFrame)
    case .float32Native: return classify(r, Float.self, x: Float(r.x), y: Float(r.y), spotFrame: spotFrame)
    }
  }

  /// The request's numbers are in range (finite coordinates, a real diameter and
  /// shaft, a spot the face has); `score` calls it, and so does the CLI at parse time.
  package static func validate(_ r: ScoreRequest) throws(ScoringError) {
    let limit = 1e6
    for (name, v) in [("x", r.x), ("y", r.y)] where !(v.isFinite && abs(v) <= limit) {
      throw .invalidNumber(name: name, value: v, expected: "a finite coordinate within ±\(Int(limit))")
    }
    guard r.diameterCm.isFinite, r.diameterCm > 0, r.diameterCm <= 1000 else {
      throw .invalidNumber(name: "diameter-cm", value: r.diameterCm, expected: "a face diameter in (0, 1000] cm")
    }
    guard r.arrowMM.isFinite, r.arrowMM >= 0, r.arrowMM <= 50 else {
      throw .invalidNumber(name: "arrow-mm", value: r.arrowMM, expected: "a shaft diameter in [0, 50] mm")
    }
    if case .index(let i) = r.spot, !(0..<r.face.spots.count).contains(i) {
      throw .invalidNumber(name: "spot", value: Double(i), expected: "0..<\(r.face.spots.count)")
    }
  }

  /// The scorer proper, generic over the arithmetic so Float32 and Double
  /// paths share one piece of logic.
  static func classify<T: BinaryFloatingPoint>(_ r: ScoreRequest, _: T.Type, x: T, y: T, spotFrame: Bool = false) -> ScoreResult {
    let face = r.face
    let spotIndex: Int
    if spotFrame, case .index(let i) = r.spot { spotIndex = i } else { spotIndex = spotFrame ? 0 : pickSpot(face, r.spot, x: x, y: y) }
    let s = face.spots[spotIndex]
    let single = spotFrame || face.spots.count == 1
    let dx = single ? x : (x - T(s.x)) / T(s.radius)
    let dy = single ? y : (y - T(s.y)) / T(s.radius)
    let d = (dx * dx + dy * dy).squareRoot()
    let angle = Double(atan2(Double(dy), Double(dx))) * 180 / .pi
    let clock = angle < 0 ? angle + 360 : angle
    let shaft = T(r.arrowMM / 2) / T(face.spotRadiusMM(diameterCm: r.diameterCm))
    let ring = zoneIndex(face, r.rule, d: d, shaft: shaft)
    guard ring >= 0 else {
      return ScoreResult(score: 0, label: "M", isX: false, ring: -1, spot: spotIndex,
                         distance: Double(d), clockPositionDeg: clock)
    }
    let zone = face.zones[ring]
    let isX: Bool
    if face.xIsFlag, let xr = face.xRadius {
      isX = inside(r.rule, d: d, radius: T(xr), shaft: shaft)
    } else {
      isX = zone.isX
    }
    let label = isX ? "X" : String(zone.score)
    return ScoreResult(score: zone.score, label: label, isX: isX, ring: isX ? (face.xIndex ?? ring) : ring, spot: spotIndex,
                       distance: Double(d), clockPositionDeg: clock)
  }

  /// The ring test for the edge rules (`floor` never reaches here for rings).
  @inline(__always)
  static func inside<T: BinaryFloatingPoint>(_ rule: BoundaryRule, d: T, radius: T, shaft: T) -> Bool {
    switch rule {
    case .inclusive, .floor: return d <= radius
    case .strict: return d < radius
    case .lineCutter: return d - shaft <= radius
    }
  }

  /// Zone index from the centre, or −1 for a miss. X-flag zones are skipped
  /// here (the flag is decided separately) so the zone carries the score.
  static func zoneIndex<T: BinaryFloatingPoint>(_ face: Face, _ rule: BoundaryRule, d: T, shaft: T) -> Int {
    let zones = face.zones
    let skipX = face.xIsFlag
    if rule == .floor {
      if d > 1 { return -1 }
      let bands = Int((1 / face.floorUnit).rounded())
      let band = min(Int(d / T(face.floorUnit)), bands - 1)
      let mid = (Double(band) + 0.5) * face.floorUnit
      return zones.indices.first { !(skipX && zones[$0].isX) && mid < zones[$0].radius } ?? (zones.count - 1)
    }
    for i in zones.indices where !(skipX && zones[i].isX) {
      if inside(rule, d: d, radius: T(zones[i].radius), shaft: shaft) { return i }
    }
    return -1
  }

  static func pickSpot<T: BinaryFloatingPoint>(_ face: Face, _ a: SpotAssignment, x: T, y: T) -> Int {
    if case .index(let i) = a { return i }
    if face.spots.count == 1 { return 0 }
    var best = 0
    var bestD = T.infinity
    for (i, s) in face.spots.enumerated() {
      let dx = (x - T(s.x)) / T(s.radius), dy = (y - T(s.y)) / T(s.radius)
      let d2 = dx * dx + dy * dy
      if d2 < bestD { bestD = d2; best = i }
    }
    return best
  }
}
