import Yams

/// Reads Set scenario files (YAML) strictly: unknown keys and wrong types are
/// errors naming `file:line:column`.
public enum SetScenarioFile {
  /// Decodes `text`, the contents of `path`.
  public static func decode(_ text: String, path: String) throws(SetCardsError) -> SetScenario {
    do {
      return try YAMLDecoder().decode(SetScenario.self, from: text)
    } catch let e as DecodingError {
      let (codingPath, message) = describe(e)
      let mark = locate(codingPath, in: text)
      throw .file(location: "\(path):\(mark.line):\(mark.column)", message: message)
    } catch let e as YamlError {
      throw .file(location: path, message: "\(e)".split(separator: "\n").first.map(String.init) ?? "invalid YAML")
    } catch {
      throw .file(location: path, message: "\(error)")
    }
  }

  static func describe(_ e: DecodingError) -> ([CodingKey], String) {
    switch e {
    case .typeMismatch(let t, let c):
      return (c.codingPath, "'\(dotted(c.codingPath))' has the wrong type: expected \(t)")
    case .valueNotFound(let t, let c):
      return (c.codingPath, "'\(dotted(c.codingPath))' is empty: expected \(t)")
    case .keyNotFound(let k, let c):
      return (c.codingPath, "missing key '\(dotted(c.codingPath + [k]))'")
    case .dataCorrupted(let c):
      return (c.codingPath, c.debugDescription)
    @unknown default:
      return ([], "\(e)")
    }
  }

  static func dotted(_ path: [CodingKey]) -> String {
    path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
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
