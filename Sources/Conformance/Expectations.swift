import Core
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A testee's known failures: `ID # reason` a line; blank lines and lines
/// starting with `#` are comments. The run passes only when the failing set
/// equals the listed set (a listed case that now passes fails the run).
package struct Expectations: Sendable {
  /// Listed ids with their reasons, in file order.
  private(set) var entries: [(id: String, reason: String)]

  /// Reads `path`; a missing file is an empty list only when `allowMissing`.
  package static func load(_ path: String, allowMissing: Bool) throws(ConformanceError) -> Expectations {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      if allowMissing && access(path, F_OK) != 0 { return Expectations(entries: []) }
      throw .usage("--expectations '\(path)' cannot be read: expected a UTF-8 text file of 'ID # reason' lines")
    }
    var entries: [(String, String)] = []
    var lineOf: [String: Int] = [:]
    // Lines end in \n or \r\n (a file saved on Windows reads the same; Swift holds \r\n as one Character).
    for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let parts = line.split(separator: "#", maxSplits: 1)
      let id = parts[0].trimmingCharacters(in: .whitespaces)
      let reason = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
      // One id a line: `a b` would otherwise be an id no case has, and both cases silently unlisted.
      if id.contains(where: \.isWhitespace) {
        throw .usage("--expectations '\(path)' line \(n + 1): '\(id)' is not one id: expected 'ID # reason', one id a line")
      }
      if let first = lineOf[id] {
        throw .usage("--expectations '\(path)' line \(n + 1): '\(id)' is listed again (first on line \(first)): expected each id once")
      }
      lineOf[id] = n + 1
      entries.append((id, reason))
    }
    return Expectations(entries: entries)
  }

  /// The listed ids.
  package var ids: Set<String> { Set(entries.map(\.id)) }

  /// The list rewritten to `failing` among `selected` ids: lines of unselected
  /// ids stay, reasons of lines that stay are kept, new lines take `reason(id)`.
  package func fixed(failing: [String], selected: Set<String>, reason: (String) -> String) -> String {
    var out = "# Known failures: one `ID # reason` a line (written by `bullseye conform run --fix`).\n"
    let known = Dictionary(entries.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
    var written = Set<String>()
    for e in entries where !selected.contains(e.id) && written.insert(e.id).inserted {
      out += "\(e.id) # \(e.reason)\n"
    }
    for id in failing where written.insert(id).inserted {
      out += "\(id) # \(known[id].flatMap { $0.isEmpty ? nil : $0 } ?? reason(id))\n"
    }
    return out
  }
}
