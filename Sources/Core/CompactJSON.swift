/// One-line JSON for line protocols: no whitespace, keys sorted by their UTF-8
/// bytes, Doubles in their shortest round-trip digits with the sign of zero kept
/// (`-0.0`), so every Double survives a trip through a testee bit for bit.
extension JSONValue {
  /// The value on one line, without a trailing newline.
  public func compactText() throws(CoreError) -> String {
    var out = ""
    try writeCompact(into: &out)
    return out
  }

  func writeCompact(into out: inout String) throws(CoreError) {
    switch self {
    case .null: out.append("null")
    case .bool(let b): out.append(b ? "true" : "false")
    case .int(let i): out.append(String(i))
    case .double(let d):
      guard d.isFinite else { throw .invalidValue("JSON number \(d) is not finite: expected a finite value") }
      out.append(d == 0 ? (d.sign == .minus ? "-0.0" : "0.0") : d.description)
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      out.append("[")
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(",") }
        try item.writeCompact(into: &out)
      }
      out.append("]")
    case .object(let fields):
      out.append("{")
      let keys = fields.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      for (i, key) in keys.enumerated() {
        if i > 0 { out.append(",") }
        JSONValue.quote(key, into: &out)
        out.append(":")
        try fields[key]!.writeCompact(into: &out)
      }
      out.append("}")
    }
  }

  /// A value (or its absence) on one line for messages: `null` when absent or not representable.
  public static func oneLine(_ v: JSONValue?) -> String {
    v.flatMap { try? $0.compactText() } ?? "null"
  }

  /// The number as a Double, for `.int` and `.double`; nil otherwise.
  public var number: Double? {
    switch self {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }
}
