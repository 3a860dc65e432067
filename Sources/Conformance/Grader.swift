import Core

/// Compares answers with expected answers. A wrong *type* (a number sent as a
/// string, a missing key) makes a case errored; a wrong *value* makes it failed.
enum Grader {
  /// True when `got` equals `expected` under the tolerance. Keys the testee
  /// adds to an object are ignored; arrays must have the same length.
  static func equal(_ expected: JSONValue, _ got: JSONValue, _ t: NumberTolerance) -> Bool {
    switch (expected, got) {
    case (.object(let e), .object(let g)):
      for (k, v) in e { guard let w = g[k], equal(v, w, t) else { return false } }
      return true
    case (.array(let e), .array(let g)):
      guard e.count == g.count else { return false }
      for (v, w) in zip(e, g) where !equal(v, w, t) { return false }
      return true
    case (.int(let a), .int(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default:
      if let a = expected.number, let b = got.number { return t.accepts(a, b) }
      return false
    }
  }

  /// Why `got` cannot be graded against `expected` (a missing key or a value
  /// of another type), or nil when its shape fits.
  static func shapeProblem(expected: JSONValue, got: JSONValue, path: String = "output") -> String? {
    switch expected {
    case .object(let e):
      guard case .object(let g) = got else { return "\(path) is \(Input.kind(got)), expected an object" }
      for k in e.keys.sorted() {
        guard let w = g[k] else { return "\(path) has no '\(k)'" }
        if let p = shapeProblem(expected: e[k]!, got: w, path: "\(path).\(k)") { return p }
      }
      return nil
    case .array(let e):
      guard case .array(let g) = got else { return "\(path) is \(Input.kind(got)), expected an array" }
      for (n, w) in g.enumerated() {
        guard let model = n < e.count ? e[n] : e.first else { break }
        if let p = shapeProblem(expected: model, got: w, path: "\(path)[\(n)]") { return p }
      }
      return nil
    case .int, .double:
      return got.number == nil ? "\(path) is \(Input.kind(got)), expected a number" : nil
    case .bool:
      if case .bool = got { return nil }
      return "\(path) is \(Input.kind(got)), expected true or false"
    case .string:
      if case .string = got { return nil }
      return "\(path) is \(Input.kind(got)), expected a string"
    case .null:
      return nil
    }
  }
}
