import Canvas
import Scoring

/// Synth's error: one sentence naming the actual value and what was expected.
public enum SynthError: Error, Equatable, CustomStringConvertible {
  case invalid(name: String, value: String, expected: String)
  case scoring(ScoringError)
  case canvas(ImageError)
  /// A scene file problem, located as `file:line:column`.
  case file(location: String, message: String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .invalid(let name, let value, let expected): return "\(name) \(value) is out of range: expected \(expected)"
    case .scoring(let e): return e.description
    case .canvas(let e): return e.description
    case .file(let location, let message): return "\(location): \(message)"
    }
  }
}
