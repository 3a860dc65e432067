import Core

/// Typed reads from a case's input object; each failure names the key and
/// what was expected, so a bad vector or request is one clear line.
struct Input {
  let fields: [String: JSONValue]

  init(_ v: JSONValue) throws(ConformanceError) {
    guard case .object(let f) = v else { throw .input("input is \(Input.kind(v)), expected an object") }
    fields = f
  }

  func value(_ key: String) throws(ConformanceError) -> JSONValue {
    guard let v = fields[key] else { throw .input("input has no '\(key)'") }
    return v
  }

  func number(_ key: String) throws(ConformanceError) -> Double {
    let v = try value(key)
    guard let d = v.number, d.isFinite else { throw .input("'\(key)' is \(Input.kind(v)), expected a number") }
    return d
  }

  func int(_ key: String, in range: ClosedRange<Int>) throws(ConformanceError) -> Int {
    try Input.int(try value(key), key, in: range)
  }

  func string(_ key: String) throws(ConformanceError) -> String {
    let v = try value(key)
    guard case .string(let s) = v else { throw .input("'\(key)' is \(Input.kind(v)), expected a string") }
    return s
  }

  func bool(_ key: String, default d: Bool) throws(ConformanceError) -> Bool {
    guard let v = fields[key] else { return d }
    guard case .bool(let b) = v else { throw .input("'\(key)' is \(Input.kind(v)), expected true or false") }
    return b
  }

  func array(_ key: String) throws(ConformanceError) -> [JSONValue] {
    let v = try value(key)
    guard case .array(let a) = v else { throw .input("'\(key)' is \(Input.kind(v)), expected an array") }
    return a
  }

  func numbers(_ key: String, count: Int? = nil) throws(ConformanceError) -> [Double] {
    try Input.numbers(try value(key), key, count: count)
  }

  static func numbers(_ v: JSONValue, _ key: String, count: Int? = nil) throws(ConformanceError) -> [Double] {
    guard case .array(let a) = v else { throw .input("'\(key)' is \(kind(v)), expected an array of numbers") }
    if let n = count, a.count != n { throw .input("'\(key)' has \(a.count) numbers, expected \(n)") }
    var out: [Double] = []
    out.reserveCapacity(a.count)
    for (i, e) in a.enumerated() {
      guard let d = e.number, d.isFinite else { throw .input("'\(key)'[\(i)] is \(kind(e)), expected a number") }
      out.append(d)
    }
    return out
  }

  static func int(_ v: JSONValue, _ key: String, in range: ClosedRange<Int>) throws(ConformanceError) -> Int {
    let i: Int
    switch v {
    case .int(let n): i = n
    case .double(let d) where d.rounded() == d && abs(d) < 1e15: i = Int(d)
    default: throw .input("'\(key)' is \(kind(v)), expected an integer in \(range.lowerBound)...\(range.upperBound)")
    }
    guard range.contains(i) else { throw .input("'\(key)' is \(i), expected an integer in \(range.lowerBound)...\(range.upperBound)") }
    return i
  }

  /// A short name of a JSON value's type, for messages.
  static func kind(_ v: JSONValue) -> String {
    switch v {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int, .double: return "a number"
    case .string(let s): return "a string (\"\(s.prefix(20))\")"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
