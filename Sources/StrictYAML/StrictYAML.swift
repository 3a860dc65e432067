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

/// Strict YAML decoding shared by every scenario format: unknown keys and
/// wrong types are errors that name the file, line and column.
package enum StrictYAML {
  /// Decodes `text` (the contents of `path`). `extraKeys` are top-level keys a
  /// wider document type owns besides `T`'s (see `rejectUnknownKeys`).
  package static func decode<T: Decodable>(_ type: T.Type, _ text: String, path: String,
                                          extraKeys: Set<String> = []) throws(YAMLLocatedError) -> T {
    do {
      return try YAMLDecoder().decode(T.self, from: text, userInfo: [.extraTopLevelKeys: extraKeys])
    } catch let e as DecodingError {
      let (codingPath, message) = describe(e)
      let mark = locate(codingPath, in: text)
      throw YAMLLocatedError(location: "\(path):\(mark.line):\(mark.column)", message: message)
    } catch let e as YamlError {
      throw YAMLLocatedError(location: path, message: "\(e)".split(separator: "\n").first.map(String.init) ?? "invalid YAML")
    } catch {
      throw YAMLLocatedError(location: path, message: "\(error)".split(separator: "\n").first.map(String.init) ?? "invalid YAML")
    }
  }

  /// A coding path and a one-sentence message for a decoding error.
  static func describe(_ e: DecodingError) -> ([CodingKey], String) {
    switch e {
    case .typeMismatch(let t, let c):
      return (c.codingPath, "'\(dotted(c.codingPath))' has the wrong type: expected \(t)")
    case .valueNotFound(let t, let c):
      return (c.codingPath, "'\(dotted(c.codingPath))' is empty: expected \(t)")
    case .keyNotFound(let k, let c):
      return (c.codingPath, "missing key '\(dotted(c.codingPath + [k]))'")
    case .dataCorrupted(let c):
      var text = c.debugDescription
      if text.hasPrefix("unknown key '"), let colon = text.firstRange(of: "': ") {
        // Name array positions as frames[0].yolo[1], not "Index 0".
        text = "unknown key '\(dotted(c.codingPath))" + text[colon.lowerBound...]
      }
      return (c.codingPath, text)
    @unknown default:
      return ([], "\(e)")
    }
  }

  /// `a.b[0].c`.
  static func dotted(_ path: [CodingKey]) -> String {
    var out = ""
    for k in path {
      if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
    }
    return out
  }

  /// Follows the coding path through the YAML node tree to the deepest node
  /// reached and returns its 1-based line and column.
  static func locate(_ path: [CodingKey], in text: String) -> (line: Int, column: Int) {
    guard var node = try? Yams.compose(yaml: text) else { return (1, 1) }
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
