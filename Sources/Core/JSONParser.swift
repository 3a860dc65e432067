/// Parses JSON text into `JSONValue`. Numbers written with a fraction or
/// exponent become `.double`, others `.int`, so a canonical file reads back as
/// the tree that wrote it.
public enum JSONParser {
  /// Parses one JSON document; errors name the byte offset.
  public static func parse(_ text: String) throws(CoreError) -> JSONValue {
    try parse(bytes: Array(text.utf8))
  }

  /// Parses UTF-8 bytes, refusing invalid UTF-8 (a line from another program
  /// need not be valid text).
  public static func parse(bytes: [UInt8]) throws(CoreError) -> JSONValue {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw .invalidValue("JSON is not valid UTF-8")
    }
    var p = Cursor(bytes: bytes)
    p.skipSpace()
    let v = try p.value(depth: 0)
    p.skipSpace()
    guard p.i == p.bytes.count else { throw p.fail("trailing characters") }
    return v
  }

  struct Cursor {
    let bytes: [UInt8]
    var i = 0

    func fail(_ what: String) -> CoreError { .invalidValue("JSON is malformed at byte \(i): \(what)") }

    mutating func skipSpace() {
      while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
    }

    mutating func expect(_ word: String) throws(CoreError) {
      for b in word.utf8 {
        guard i < bytes.count, bytes[i] == b else { throw fail("expected '\(word)'") }
        i += 1
      }
    }

    mutating func value(depth: Int) throws(CoreError) -> JSONValue {
      guard depth < 512 else { throw fail("nesting deeper than 512") }
      guard i < bytes.count else { throw fail("unexpected end") }
      switch bytes[i] {
      case UInt8(ascii: "{"):
        i += 1; skipSpace()
        var out: [String: JSONValue] = [:]
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
        while true {
          skipSpace()
          guard case .string(let k) = try value(depth: depth + 1) else { throw fail("object key is not a string") }
          skipSpace(); try expect(":"); skipSpace()
          out[k] = try value(depth: depth + 1)
          skipSpace()
          guard i < bytes.count else { throw fail("unterminated object") }
          if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
          try expect("}")
          return .object(out)
        }
      case UInt8(ascii: "["):
        i += 1; skipSpace()
        var out: [JSONValue] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
        while true {
          skipSpace()
          out.append(try value(depth: depth + 1))
          skipSpace()
          guard i < bytes.count else { throw fail("unterminated array") }
          if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
          try expect("]")
          return .array(out)
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): try expect("true"); return .bool(true)
      case UInt8(ascii: "f"): try expect("false"); return .bool(false)
      case UInt8(ascii: "n"): try expect("null"); return .null
      default: return try number()
      }
    }

    mutating func string() throws(CoreError) -> String {
      i += 1
      var out: [UInt8] = []
      while i < bytes.count {
        let b = bytes[i]; i += 1
        if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
        if b != UInt8(ascii: "\\") { out.append(b); continue }
        guard i < bytes.count else { break }
        let e = bytes[i]; i += 1
        switch e {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "u"):
          guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else {
            throw fail("bad \\u escape")
          }
          i += 4
          var scalar = code
          // A high surrogate followed by an escaped low one is one character (JSON's UTF-16 escapes).
          if (0xD800..<0xDC00).contains(code), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
            let low = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(low)
          {
            scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            i += 6
          }
          out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
        default: out.append(e)
        }
      }
      throw fail("unterminated string")
    }

    mutating func number() throws(CoreError) -> JSONValue {
      let start = i
      var isDouble = false
      while i < bytes.count, let c = Optional(bytes[i]),
        (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
          || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
      {
        if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { isDouble = true }
        i += 1
      }
      let s = String(decoding: bytes[start..<i], as: UTF8.self)
      // "-0" keeps its sign as a Double; other integers stay integers.
      if !isDouble, s != "-0", let v = Int(s) { return .int(v) }
      guard let d = Double(s), d.isFinite else { throw fail("'\(s)' is not a number") }
      return .double(d)
    }
  }
}
