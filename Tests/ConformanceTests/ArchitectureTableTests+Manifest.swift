import Foundation

/// Reading `Package.swift` as text for ArchitectureTableTests: the targets of
/// `Package(... targets: [...])`, their kinds and dependencies, with comments and
/// string literals skipped as the compiler skips them.
extension ArchitectureTableTests {
  // MARK: Package.swift, as text

  /// The targets of `Package(... targets: [...])`.
  static func parseManifest(_ source: String) -> Manifest {
    var m = Manifest()
    let c = withoutComments(source)
    guard let package = find(Array("Package("), in: c), let close = closing(c, package + "Package".count) else {
      m.unreadable.append("Package.swift: no `Package(...)` call found")
      return m
    }
    let args = items(c, from: package + "Package(".count, to: close)
    guard let targets = args.first(where: { labeled($0).label == "targets" }) else {
      m.unreadable.append("Package.swift: `Package(...)` has no `targets:` argument")
      return m
    }
    guard let list = arrayItems(labeled(targets).value) else {
      m.unreadable.append("Package.swift: `targets:` is not an array literal")
      return m
    }
    for item in list {
      guard let call = callExpression(item) else {
        m.unreadable.append("Package.swift: cannot read the target `\(String(item))`")
        continue
      }
      let args = call.args.map(labeled)
      guard let nameArg = args.first(where: { $0.label == "name" }), let name = stringLiteral(nameArg.value) else {
        m.unreadable.append("Package.swift: a `.\(call.name)(` has no string `name:`")
        continue
      }
      var deps: [String] = []
      if let d = args.first(where: { $0.label == "dependencies" }) {
        guard let elements = arrayItems(d.value) else {
          m.unreadable.append("Package.swift: `\(name)`'s `dependencies:` is not an array literal")
          continue
        }
        for e in elements {
          if let s = stringLiteral(e) {
            deps.append(s)
          } else if let dep = callExpression(e), dep.name == "product" {
            continue  // another package's product
          } else if let dep = callExpression(e), dep.name == "target" || dep.name == "byName",
            let n = dep.args.map(labeled).first(where: { $0.label == "name" }).flatMap({ stringLiteral($0.value) })
          {
            deps.append(n)
          } else {
            m.unreadable.append("Package.swift: `\(name)` has a dependency this test cannot read: `\(String(e))`")
          }
        }
      }
      m.targets.append(Target(kind: call.name, name: name, dependencies: deps))
    }
    return m
  }

  /// The source with `//` and `/* */` comments blanked; string literals kept as they are.
  static func withoutComments(_ source: String) -> [Character] {
    let c = Array(source)
    var out: [Character] = []
    var i = 0
    while i < c.count {
      if c[i] == "\"" {
        let end = stringEnd(c, i)
        out.append(contentsOf: c[i..<end])
        i = end
      } else if c[i] == "/", i + 1 < c.count, c[i + 1] == "/" {
        while i < c.count, c[i] != "\n" { i += 1 }
      } else if c[i] == "/", i + 1 < c.count, c[i + 1] == "*" {
        i += 2
        while i + 1 < c.count, !(c[i] == "*" && c[i + 1] == "/") { i += 1 }
        i = min(i + 2, c.count)
        out.append(" ")
      } else {
        out.append(c[i])
        i += 1
      }
    }
    return out
  }

  /// The index just past the string literal that starts at `i` (`"` or `"""`).
  static func stringEnd(_ c: [Character], _ i: Int) -> Int {
    if i + 2 < c.count, c[i + 1] == "\"", c[i + 2] == "\"" {
      var j = i + 3
      while j + 2 < c.count {
        if c[j] == "\"", c[j + 1] == "\"", c[j + 2] == "\"" { return j + 3 }
        j += 1
      }
      return c.count
    }
    var j = i + 1
    while j < c.count {
      if c[j] == "\\" { j += 2; continue }
      if c[j] == "\"" { return j + 1 }
      if c[j] == "\n" { return j }
      j += 1
    }
    return c.count
  }

  /// The first index of `needle` in `c` outside string literals.
  static func find(_ needle: [Character], in c: [Character]) -> Int? {
    var i = 0
    while i + needle.count <= c.count {
      if c[i] == "\"" { i = stringEnd(c, i); continue }
      if Array(c[i..<(i + needle.count)]) == needle { return i }
      i += 1
    }
    return nil
  }

  /// The index of the bracket that closes the one at `open`.
  static func closing(_ c: [Character], _ open: Int) -> Int? {
    var depth = 0
    var i = open
    while i < c.count {
      let ch = c[i]
      if ch == "\"" { i = stringEnd(c, i); continue }
      if "([{".contains(ch) {
        depth += 1
      } else if ")]}".contains(ch) {
        depth -= 1
        if depth == 0 { return i }
      }
      i += 1
    }
    return nil
  }

  /// The comma-separated items of `c[from..<to]` at bracket depth 0, trimmed, empty ones dropped.
  static func items(_ c: [Character], from: Int, to: Int) -> [ArraySlice<Character>] {
    var out: [ArraySlice<Character>] = []
    var depth = 0, start = from, i = from
    func add(_ lo: Int, _ hi: Int) {
      let piece = trimmed(c[lo..<hi])
      if !piece.isEmpty { out.append(piece) }
    }
    while i < to {
      let ch = c[i]
      if ch == "\"" { i = stringEnd(c, i); continue }
      if "([{".contains(ch) {
        depth += 1
      } else if ")]}".contains(ch) {
        depth -= 1
      } else if ch == ",", depth == 0 {
        add(start, i)
        start = i + 1
      }
      i += 1
    }
    add(start, min(to, c.count))
    return out
  }

  static func trimmed(_ s: ArraySlice<Character>) -> ArraySlice<Character> {
    var lo = s.startIndex, hi = s.endIndex
    while lo < hi, s[lo].isWhitespace { lo += 1 }
    while hi > lo, s[hi - 1].isWhitespace { hi -= 1 }
    return s[lo..<hi]
  }

  /// `label: value` (label nil when the item has none).
  static func labeled(_ item: ArraySlice<Character>) -> (label: String?, value: ArraySlice<Character>) {
    var i = item.startIndex
    while i < item.endIndex, item[i].isLetter || item[i].isNumber || item[i] == "_" { i += 1 }
    guard i > item.startIndex, !item[item.startIndex].isNumber else { return (nil, item) }
    var j = i
    while j < item.endIndex, item[j].isWhitespace { j += 1 }
    guard j < item.endIndex, item[j] == ":" else { return (nil, item) }
    return (String(item[item.startIndex..<i]), trimmed(item[(j + 1)...]))
  }

  /// The items of an array literal `[a, b, ...]`; nil when `value` is not one.
  static func arrayItems(_ value: ArraySlice<Character>) -> [ArraySlice<Character>]? {
    let c = Array(value)
    guard c.first == "[", closing(c, 0) == c.count - 1 else { return nil }
    return items(c, from: 1, to: c.count - 1).map { ArraySlice($0) }
  }

  /// `.name(args)` with nothing after the closing parenthesis.
  static func callExpression(_ value: ArraySlice<Character>) -> (name: String, args: [ArraySlice<Character>])? {
    let c = Array(value)
    guard c.first == "." else { return nil }
    var i = 1
    while i < c.count, c[i].isLetter || c[i].isNumber || c[i] == "_" { i += 1 }
    guard i > 1, i < c.count, c[i] == "(", closing(c, i) == c.count - 1 else { return nil }
    return (String(c[1..<i]), items(c, from: i + 1, to: c.count - 1).map { ArraySlice($0) })
  }

  /// The contents of a plain string literal `"..."`; nil for anything else.
  static func stringLiteral(_ value: ArraySlice<Character>) -> String? {
    let c = Array(value)
    guard c.count >= 2, c.first == "\"", c.last == "\"", stringEnd(c, 0) == c.count,
      !c.contains("\\")
    else { return nil }
    return String(c[1..<(c.count - 1)])
  }

  // MARK: The checks
}
