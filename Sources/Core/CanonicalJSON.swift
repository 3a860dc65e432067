/// A JSON value whose text form is canonical: object keys sorted by their UTF-8
/// bytes, no insignificant whitespace variation, and numbers printed by our own
/// rules — so the same value gives the same bytes on every platform (Foundation's
/// number output differs between platforms and releases).
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Canonical text: two-space indented, one key per line, trailing newline.
  public func canonicalText() throws(CoreError) -> String {
    var out = ""
    try write(into: &out, indent: 0)
    out.append("\n")
    return out
  }

  private func write(into out: inout String, indent: Int) throws(CoreError) {
    switch self {
    case .null: out.append("null")
    case .bool(let b): out.append(b ? "true" : "false")
    case .int(let i): out.append(String(i))
    case .double(let d): out.append(try JSONValue.format(d))
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      if items.isEmpty { out.append("[]"); return }
      out.append("[\n")
      for (i, item) in items.enumerated() {
        out.append(String(repeating: " ", count: indent + 2))
        try item.write(into: &out, indent: indent + 2)
        out.append(i + 1 < items.count ? ",\n" : "\n")
      }
      out.append(String(repeating: " ", count: indent) + "]")
    case .object(let fields):
      if fields.isEmpty { out.append("{}"); return }
      out.append("{\n")
      let keys = fields.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      for (i, key) in keys.enumerated() {
        out.append(String(repeating: " ", count: indent + 2))
        JSONValue.quote(key, into: &out)
        out.append(": ")
        try fields[key]!.write(into: &out, indent: indent + 2)
        out.append(i + 1 < keys.count ? ",\n" : "\n")
      }
      out.append(String(repeating: " ", count: indent) + "}")
    }
  }

  /// Our float format: the shortest digits that round-trip (Swift's own
  /// algorithm, part of the standard library, not Foundation), zero with its
  /// sign (`-0.0` reads back as -0.0: published vectors test the sign), and
  /// non-finite values refused because JSON cannot carry them.
  static func format(_ d: Double) throws(CoreError) -> String {
    guard d.isFinite else { throw .invalidValue("JSON number \(d) is not finite: expected a finite value") }
    if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
    return d.description
  }

  static func quote(_ s: String, into out: inout String) {
    out.append("\"")
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out.append("\\\"")
      case "\\": out.append("\\\\")
      case "\n": out.append("\\n")
      case "\r": out.append("\\r")
      case "\t": out.append("\\t")
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out.append("\"")
  }
}

/// Builds JSON values from Swift values without ceremony.
protocol JSONRepresentable {
  /// This value as a JSON tree.
  var json: JSONValue { get }
}

extension Int: JSONRepresentable { public var json: JSONValue { .int(self) } }
extension Double: JSONRepresentable { public var json: JSONValue { .double(self) } }
extension Bool: JSONRepresentable { public var json: JSONValue { .bool(self) } }
extension String: JSONRepresentable { public var json: JSONValue { .string(self) } }
extension Array: JSONRepresentable where Element: JSONRepresentable {
  var json: JSONValue { .array(map(\.json)) }
}
extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
  var json: JSONValue { self?.json ?? .null }
}
