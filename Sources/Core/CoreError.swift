/// Core's error: one sentence naming the actual value and what was expected.
public enum CoreError: Error, Equatable, CustomStringConvertible {
  /// A value that cannot be represented (e.g. NaN in JSON).
  case invalidValue(String)
  /// A file-system failure, with the path and the reason.
  case io(path: String, reason: String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .invalidValue(let m): return m
    case .io(let path, let reason): return "cannot write '\(path)': \(reason)"
    }
  }
}
