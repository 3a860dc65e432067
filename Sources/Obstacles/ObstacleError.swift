import Imaging
import Core

/// The Obstacles module's error: one sentence naming the actual value and what
/// was expected.
public enum ObstacleError: Error, Equatable, CustomStringConvertible {
  /// A value outside what the pipeline accepts.
  case invalid(name: String, value: String, expected: String)
  /// A scenario file problem, located as `file:line:column`.
  case file(location: String, message: String)
  /// Drawing failed in the canvas layer.
  case canvas(ImageError)
  /// Canonical JSON could not be produced.
  case json(CoreError)
  /// A detector backend failed on a frame.
  case detector(frame: Int, message: String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .invalid(let name, let value, let expected):
      return "\(name) \(value) is not accepted: expected \(expected)"
    case .file(let location, let message): return "\(location): \(message)"
    case .canvas(let e): return e.description
    case .json(let e): return e.description
    case .detector(let frame, let message): return "detector failed on frame \(frame): \(message)"
    }
  }
}
