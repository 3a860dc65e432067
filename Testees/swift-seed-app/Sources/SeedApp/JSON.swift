// A small JSON reader/writer. Integers keep their token text (echoed verbatim); every other number
// is a Double parsed with Double(String) (correctly rounded) and printed with Double.description
// (shortest round-trip digits).

enum JSON: Equatable {
    case null
    case bool(Bool)
    case int(String)          // an integer token, kept as written
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(key: String) -> JSON? {
        if case let .object(pairs) = self {
            for (k, v) in pairs where k == key { return v }
        }
        return nil
    }

    var number: Double? {
        switch self {
        case let .double(d): return d
        case let .int(s): return Double(s)
        default: return nil
        }
    }

    var integer: Int? {
        switch self {
        case let .int(s): return Int(s)
        case let .double(d): return d.rounded() == d && abs(d) < 1e15 ? Int(d) : nil
        default: return nil
        }
    }

    var boolValue: Bool? { if case let .bool(b) = self { return b }; return nil }
    var stringValue: String? { if case let .string(s) = self { return s }; return nil }
    var arrayValue: [JSON]? { if case let .array(a) = self { return a }; return nil }
}

struct JSONError: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Reading

struct JSONReader {
    private let bytes: [UInt8]
    private var i = 0

    static func parse(_ text: String) throws -> JSON {
        var r = JSONReader(bytes: Array(text.utf8))
        r.skipSpace()
        let v = try r.value()
        r.skipSpace()
        guard r.i == r.bytes.count else { throw JSONError(description: "trailing characters at \(r.i)") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private func fail(_ what: String) -> JSONError { JSONError(description: "\(what) at byte \(i)") }

    private mutating func value() throws -> JSON {
        guard i < bytes.count else { throw fail("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var pairs: [(String, JSON)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let k = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipSpace()
                pairs.append((k, try value()))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSON] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value())
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return try number()
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw fail("bad literal") }
        i += w.count
    }

    private mutating func number() throws -> JSON {
        let start = i
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        guard i > digitsStart else { throw fail("bad number") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let f = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > f else { throw fail("bad fraction") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let e = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > e else { throw fail("bad exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger { return .int(text) }
        guard let d = Double(text) else { throw fail("bad number \(text)") }
        return .double(d)
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("bad \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func string() throws -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard i < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var cp = try hex4()
                if cp >= 0xD800, cp < 0xDC00, i + 6 <= bytes.count,
                   bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    let save = i
                    i += 2
                    let lo = try hex4()
                    if lo >= 0xDC00, lo < 0xE000 {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                    } else {
                        i = save
                    }
                }
                let scalar = Unicode.Scalar(cp) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw fail("bad escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - Writing

struct NonFinite: Error {}

func writeJSON(_ v: JSON, into s: inout String) throws {
    switch v {
    case .null: s += "null"
    case let .bool(b): s += b ? "true" : "false"
    case let .int(t): s += t
    case let .double(d):
        guard d.isFinite else { throw NonFinite() }
        s += d.description
    case let .string(t): writeString(t, into: &s)
    case let .array(a):
        s += "["
        for (n, x) in a.enumerated() {
            if n > 0 { s += "," }
            try writeJSON(x, into: &s)
        }
        s += "]"
    case let .object(pairs):
        s += "{"
        for (n, (k, x)) in pairs.enumerated() {
            if n > 0 { s += "," }
            writeString(k, into: &s)
            s += ":"
            try writeJSON(x, into: &s)
        }
        s += "}"
    }
}

func writeString(_ t: String, into s: inout String) {
    s += "\""
    for u in t.unicodeScalars {
        switch u {
        case "\"": s += "\\\""
        case "\\": s += "\\\\"
        case "\n": s += "\\n"
        case "\r": s += "\\r"
        case "\t": s += "\\t"
        default:
            if u.value < 0x20 {
                let h = String(u.value, radix: 16)
                s += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            } else {
                s.unicodeScalars.append(u)
            }
        }
    }
    s += "\""
}

func serialize(_ v: JSON) throws -> String {
    var s = ""
    try writeJSON(v, into: &s)
    return s
}

// Small builders.
func num(_ d: Double) -> JSON { .double(d) }
func int(_ n: Int) -> JSON { .int(String(n)) }
