import Core
import Yams

/// A YAML decoding failure located as `file:line:column`.
package struct YAMLLocatedError: Error, Equatable, CustomStringConvertible {
  /// `path:line:column`, or just `path` when the YAML did not parse.
  package let location: String
  /// One sentence naming the value and what was expected.
  package let message: String
  package var description: String { "\(location): \(message)" }
}

/// A YAML file parsed once: its text (to locate errors), its path, and the
/// composed root node every reader of the file decodes from.
package struct YAMLDocument: @unchecked Sendable {
  /// The file's text.
  package let text: String
  /// The file's path, as errors name it.
  package let path: String
  /// The root node (an empty document is the empty string).
  package let root: Node
  /// Holds the anchors the nodes refer to weakly, for as long as the document lives.
  let parser: Parser
}

/// Strict YAML decoding shared by every scenario format: unknown keys and
/// wrong types are errors that name the file, line and column.
package enum StrictYAML {
  /// The largest YAML text any reader takes.
  package static let maximumBytes = 1 << 20

  /// Parses `text` (the contents of `path`) once; decode it with `decode(_:_:extraKeys:)`.
  package static func parse(_ text: String, path: String) throws(YAMLLocatedError) -> YAMLDocument {
    // Scenario and gesture files are written by hand (the largest shipped is 6 KB); a parsed
    // node costs about a thousand times its text, so a generated megabyte would take gigabytes.
    guard text.utf8.count <= maximumBytes else {
      throw YAMLLocatedError(location: path, message: "the file is \(text.utf8.count) bytes: expected a YAML file of at most \(maximumBytes / 1024) KiB")
    }
    let parser: Parser, root: Node
    do {
      parser = try Parser(yaml: text, resolver: Resolver.basic.appending(.merge), encoding: .default)
      root = try parser.singleRoot() ?? ""
    } catch {
      throw YAMLLocatedError(location: path, message: describeSyntax(error, text: text))
    }
    if let (tag, mark) = explicitTag(in: root) {
      // Placed in the message, as a syntax error's place is: every reader shows the message.
      let at = mark.map { " at \($0.line):\($0.column)" } ?? ""
      // Shown as written: `!!int`, not its expansion `tag:yaml.org,2002:int`.
      let core = "tag:yaml.org,2002:"
      let tag = tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag
      throw YAMLLocatedError(location: path, message: "YAML tag '\(tag)'\(at) is not taken: values are typed by their keys; remove the tag")
    }
    return YAMLDocument(text: text, path: path, root: root, parser: parser)
  }

  /// The first node (document order) carrying a tag the file wrote itself. With no
  /// resolver rules but merge, every untagged scalar resolves to `str` (`<<` to
  /// merge) and collections stay implicit or `map` / `seq`; any other name came
  /// from the text (`!!int "3"`, `!include x.yaml`), which a strict reader refuses
  /// rather than half-honour. An explicit `!!str` cannot be told apart, and changes nothing.
  static func explicitTag(in node: Node) -> (String, Mark?)? {
    switch node {
    case .scalar(let s):
      return untagged(s.tag, .str, .merge) ? nil : (s.tag.description, s.mark)
    case .mapping(let m):
      if !untagged(m.tag, .map) { return (m.tag.description, m.mark) }
      for (k, v) in m { if let t = explicitTag(in: k) ?? explicitTag(in: v) { return t } }
      return nil
    case .sequence(let q):
      if !untagged(q.tag, .seq) { return (q.tag.description, q.mark) }
      for v in q { if let t = explicitTag(in: v) { return t } }
      return nil
    case .alias:
      return nil
    }
  }

  /// A tag the parser gave on its own: none yet (implicit) or one of `names`.
  private static func untagged(_ tag: Tag, _ names: Tag.Name...) -> Bool {
    tag.description.isEmpty || names.contains { $0.rawValue == tag.description }
  }

  /// One line for a YAML syntax error: where, what libyaml was reading and what
  /// it found (Yams puts those on separate lines), naming an undefined alias and
  /// a tab, the two a hand-edited file most often trips on.
  static func describeSyntax(_ error: Error, text: String) -> String {
    let (context, problem, mark): (YamlError.Context?, String, Mark)
    switch error as? YamlError {
    case .scanner(let c, let p, let m, _), .parser(let c, let p, let m, _), .composer(let c, let p, let m, _):
      (context, problem, mark) = (c, p, m)
    default:
      return "\(error)".split(separator: "\n").first.map(String.init) ?? "invalid YAML"
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = mark.line >= 1 && mark.line <= lines.count ? Array(lines[mark.line - 1].unicodeScalars) : []
    let at = mark.column - 1
    var found = problem
    if problem.contains("undefined alias"), at >= 0, at < line.count {
      let name = line[at...].prefix { !" ,]}\t\r".unicodeScalars.contains($0) }
      found += " \(String(String.UnicodeScalarView(name)))"
    } else if line.contains("\t") && (at < 0 || at >= line.count || line[at] == "\t" || line.prefix(max(at, 0)).allSatisfy { $0 == " " || $0 == "\t" }) {
      found += " (a tab: YAML indents with spaces)"
    }
    let while_ = context.map { "\($0.text) at \($0.mark.line):\($0.mark.column), " } ?? ""
    return "invalid YAML at \(mark.line):\(mark.column): \(while_)\(found)"
  }

  /// Decodes `text` (the contents of `path`). `extraKeys` are top-level keys a
  /// wider document type owns besides `T`'s (see `rejectUnknownKeys`).
  package static func decode<T: Decodable>(_ type: T.Type, _ text: String, path: String,
                                          extraKeys: Set<String> = []) throws(YAMLLocatedError) -> T {
    try decode(T.self, try parse(text, path: path), extraKeys: extraKeys)
  }

  /// Decodes a parsed document; errors are located in its text.
  package static func decode<T: Decodable>(_ type: T.Type, _ document: YAMLDocument,
                                          extraKeys: Set<String> = []) throws(YAMLLocatedError) -> T {
    do {
      return try YAMLDecoder().decode(T.self, from: document.root, userInfo: [.extraTopLevelKeys: extraKeys])
    } catch let e as DecodingError {
      var (codingPath, message) = describe(e)
      switch e {
      case .typeMismatch, .valueNotFound: message = describeFound(codingPath, in: document.root, message)
      default: break
      }
      let mark = locate(codingPath, in: document.root)
      throw YAMLLocatedError(location: "\(document.path):\(mark.line):\(mark.column)", message: message)
    } catch {
      throw YAMLLocatedError(location: document.path, message: "\(error)".split(separator: "\n").first.map(String.init) ?? "invalid YAML")
    }
  }

  /// A coding path and a one-sentence message for a decoding error.
  static func describe(_ e: DecodingError) -> ([CodingKey], String) {
    switch e {
    case .typeMismatch(let t, let c):
      return (c.codingPath, "\(quoted(c.codingPath)) has the wrong type: expected \(expected(t))")
    case .valueNotFound(let t, let c):
      return (c.codingPath, "\(quoted(c.codingPath)) is empty: expected \(expected(t))")
    case .keyNotFound(let k, let c):
      return (c.codingPath, "missing key '\(dotted(c.codingPath + [k]))'")
    case .dataCorrupted(let c):
      var text = c.debugDescription
      if text.hasPrefix("unknown key '"), let colon = text.firstRange(of: "': ") {
        // Name array positions as frames[0].yolo[1], not "Index 0".
        text = "unknown key '\(dotted(c.codingPath))" + text[colon.lowerBound...]
      } else if text.hasPrefix("Cannot initialize "), let value = text.firstRange(of: " from invalid String value ") {
        // Swift's own words name its type ("Cannot initialize Background from …"); say the key and the value.
        let found = text[value.upperBound...]
        text = "'\(dotted(c.codingPath))' is '\(found)', which is not one of its names: expected a name Scenarios/README.md lists for it"
      }
      return (c.codingPath, text)
    @unknown default:
      return ([], "\(e)")
    }
  }

  /// A Swift type as a scenario author would name it: "a whole number", not `UInt64`.
  static func expected(_ t: Any.Type) -> String {
    switch t {
    case is UInt64.Type, is UInt32.Type, is UInt.Type: return "a whole number, 0 or more"
    case is Int.Type, is Int64.Type, is Int32.Type: return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    case is Bool.Type: return "true or false"
    case is String.Type: return "text"
    case is Node.Scalar.Type: return "a single value"
    case is Node.Sequence.Type: return "a list"
    case is Node.Mapping.Type: return "a mapping of keys to values"
    default:
      let name = "\(t)"
      if name.hasPrefix("Array<") { return "a list" }
      if name.hasPrefix("Dictionary<") { return "a mapping of keys to values" }
      return name
    }
  }

  /// Adds what the file holds at `path` to a wrong-type message: "found 'abc'" or "found a list".
  static func describeFound(_ path: [CodingKey], in root: Node, _ message: String) -> String {
    guard let node = node(at: path, in: root) else { return message }
    let found: String
    switch node {
    case .scalar(let s):
      let text = s.string.count > 40 ? String(s.string.prefix(40)) + "…" : s.string
      found = text.isEmpty ? "nothing" : "'\(text)'"
    case .sequence: found = "a list"
    case .mapping: found = "a mapping"
    case .alias: found = "an alias"
    }
    guard let colon = message.range(of: ": expected ") else { return message }
    return message[..<colon.lowerBound] + ", found \(found)" + message[colon.lowerBound...]
  }

  /// The node a full coding path names, or nil where the path leaves the tree.
  static func node(at path: [CodingKey], in root: Node) -> Node? {
    var node = root
    for key in path {
      if let i = key.intValue, let seq = node.sequence, i < seq.count {
        node = seq[i]
      } else if let map = node.mapping, let pair = map.first(where: { $0.key.string == key.stringValue }) {
        node = pair.value
      } else {
        return nil
      }
    }
    return node
  }

  /// `a.b[0].c`.
  /// A key path as messages quote it; the whole file when there is none (not `''`).
  static func quoted(_ path: [CodingKey]) -> String {
    path.isEmpty ? "the file" : "'\(dotted(path))'"
  }

  static func dotted(_ path: [CodingKey]) -> String {
    var out = ""
    for k in path {
      if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
    }
    return out
  }

  /// Follows the coding path through the YAML node tree to the deepest node
  /// reached and returns its 1-based line and column.
  static func locate(_ path: [CodingKey], in root: Node) -> (line: Int, column: Int) {
    var node = root
    var mark = node.mark
    for key in path {
      if let i = key.intValue, let seq = node.sequence, i < seq.count {
        node = seq[i]
        mark = node.mark ?? mark
      } else if let map = node.mapping, let pair = map.first(where: { $0.key.string == key.stringValue }) {
        mark = pair.key.mark ?? mark
        node = pair.value
      } else {
        break
      }
    }
    return (mark?.line ?? 1, mark?.column ?? 1)
  }
}
