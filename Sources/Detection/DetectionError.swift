/// Detection's error: one sentence naming the actual value and what was expected.
public enum DetectionError: Error, Equatable, CustomStringConvertible {
  case badTensor(String)
  case badInput(String)

  /// The one-line message shown to users.
  public var description: String {
    switch self {
    case .badTensor(let m), .badInput(let m): return m
    }
  }
}
