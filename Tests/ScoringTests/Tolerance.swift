/// Named tolerances for comparing floating-point results in tests.
enum Tolerance {
  /// Bit-for-bit equality.
  case exact
  /// Within 1e-9 absolute: for values computed two ways in Double.
  case close

  func accepts(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .exact: return a == b
    case .close: return abs(a - b) <= 1e-9
    }
  }
}

import Testing
@testable import Scoring

extension Face: CustomTestStringConvertible {
  public var testDescription: String { id }
}
