/// How a point on or near a ring line is scored. Each is a named semantics
/// taken from a real app or rule book; none is silently preferred.
public enum BoundaryRule: String, CaseIterable, Sendable, Codable {
  /// Seed 000's camera path: `d ≤ r` scores the ring, so a point exactly on a
  /// line scores the higher value.
  case inclusive
  /// Seed 002's tap path: band `Int(d / ringWidth)`, X by `d ≤ xRadius`, with the
  /// floating-point traps of that division (0.3 / 0.1 = 2.9999999999999996).
  case floor
  /// MyTargets: `d < r`, so a point exactly on a line scores the lower value.
  case strict
  /// World Archery: the shaft scores the higher ring whenever it touches the
  /// line, i.e. `d − shaftRadius ≤ r`.
  case lineCutter = "line-cutter"
}

/// The arithmetic the scorer runs in, as the apps persist and compute.
public enum Precision: String, CaseIterable, Sendable, Codable {
  /// Coordinates and distance in Double.
  case double
  /// Coordinates rounded to Float32 (as persisted), widened back, then Double
  /// arithmetic — the resume path of seed 002.
  case float32
  /// Everything in Float32, thresholds included (seed 000's `DetectedArrow`).
  case float32Native = "float32-native"
}

/// Which spot of a multi-spot face an arrow is scored on.
public enum SpotAssignment: Sendable, Hashable {
  /// The spot whose centre is nearest relative to its radius (where it hit).
  case nearest
  /// A fixed spot, e.g. the seed-style `arrow i → spot i mod n`.
  case index(Int)
}
