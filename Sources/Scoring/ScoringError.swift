/// Scoring's error: one sentence naming the actual value and what was expected.
public enum ScoringError: Error, Equatable, CustomStringConvertible {
  /// No face has this id or alias.
  case unknownFace(String, known: [String])
  /// No rule has this name.
  case unknownRule(String)
  /// No precision has this name.
  case unknownPrecision(String)
  /// A number outside its meaningful range (NaN, infinite, negative size, …).
  case invalidNumber(name: String, value: Double, expected: String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .unknownFace(let n, let known):
      return "unknown face '\(n)': expected one of \(known.joined(separator: ", "))"
    case .unknownRule(let r):
      return "unknown rule '\(r)': expected one of \(BoundaryRule.allCases.map(\.rawValue).joined(separator: ", "))"
    case .unknownPrecision(let p):
      return "unknown precision '\(p)': expected one of \(Precision.allCases.map(\.rawValue).joined(separator: ", "))"
    case .invalidNumber(let name, let value, let expected):
      return "\(name) \(value) is out of range: expected \(expected)"
    }
  }
}
