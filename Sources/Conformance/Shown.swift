/// A testee's strings (its name, error reasons, answer lines, stderr) made safe
/// to show: a testee may send any character, and a NUL, an escape sequence or
/// a line break must neither drive the reader's terminal nor forge a line of
/// the report.
package enum Shown {
  /// For one terminal line: control characters (C0, DEL and C1, line breaks
  /// included) written as `\u001b`; everything else as it is.
  package static func terminal(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: isControl) else { return s }
    var out = ""
    for u in s.unicodeScalars {
      if isControl(u) {
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(u)
      }
    }
    return out
  }

  /// For Markdown, inside `<code>`: as `terminal`, then the characters HTML or
  /// Markdown would act on (`< > & " '`, backtick, `* _ [ ] | \ ~ #`) as
  /// character references, so the text shows exactly as the testee sent it.
  package static func markdown(_ s: String) -> String {
    var out = ""
    for u in terminal(s).unicodeScalars {
      if "<>&\"'`*_[]|\\~#".unicodeScalars.contains(u) { out += "&#\(u.value);" } else { out.unicodeScalars.append(u) }
    }
    return out
  }

  static func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7F...0x9F).contains(u.value) }
}
