/// Named tolerances for comparing floating-point results in tests; never bare
/// numbers sprinkled through assertions.
public enum Tolerance: Sendable {
  /// Bit-for-bit equality.
  case exact
  /// Within 1e-9 absolute: a value computed two ways in Double.
  case close
  /// Within 1e-6 absolute: geometry recomputed through matrices (pixels).
  case geometric
  /// Within 1e-3 absolute: Float32 pipelines summed in different orders.
  case float32Sum
  /// Within 16 of 255 levels: a colour after lossy coding (JPEG, HEVC) of flat blocks.
  case lossyLevels
  /// Within 0.1 degrees: an angle measured by two ring fits of the same picture turned.
  case fitAngle
  /// Within 0.002 of the face radius (a fifth of a 10-zone ring's 0.1): an arrow's
  /// distance from the centre read through a fitted face map against the truth.
  case ringFit

  /// True when `a` and `b` agree under this tolerance.
  public func accepts(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .exact: return a == b
    case .close: return abs(a - b) <= 1e-9
    case .geometric: return abs(a - b) <= 1e-6
    case .float32Sum: return abs(a - b) <= 1e-3
    case .lossyLevels: return abs(a - b) <= 16
    case .fitAngle: return abs(a - b) <= 0.1
    case .ringFit: return abs(a - b) <= 0.002
    }
  }
}
