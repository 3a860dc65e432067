import Imaging

/// SetCards' error: one sentence naming the actual value and what was expected.
public enum SetCardsError: Error, Equatable, CustomStringConvertible {
  /// A value out of range: its name, the actual value, what was expected.
  case invalid(name: String, value: String, expected: String)
  /// A drawing or image failure from Canvas.
  case canvas(ImageError)
  /// An injected model threw.
  case model(message: String)
  /// A scenario file problem, located as `file:line:column`.
  case file(location: String, message: String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .invalid(let name, let value, let expected): return "\(name) \(value) is out of range: expected \(expected)"
    case .canvas(let e): return e.description
    case .model(let m): return m
    case .file(let location, let message): return "\(location): \(message)"
    }
  }
}
