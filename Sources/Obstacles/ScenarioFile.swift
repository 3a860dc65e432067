import Yams

extension ObstacleScenario {
  /// Decodes a scenario file's text strictly. `path` names the file in errors
  /// (`path:line:column: message`) and gives the default id (its base name
  /// without `.yaml`).
  public static func decode(_ text: String, path: String) throws(ObstacleError) -> ObstacleScenario {
    var scenario: ObstacleScenario
    do {
      scenario = try YAMLDecoder().decode(ObstacleScenario.self, from: text)
    } catch let e as DecodingError {
      let (codingPath, message) = describe(e)
      let mark = locate(codingPath, in: text)
      throw .file(location: "\(path):\(mark.line):\(mark.column)", message: message)
    } catch let e as YamlError {
      let first = "\(e)".split(separator: "\n").first.map(String.init) ?? "invalid YAML"
      throw .file(location: path, message: first)
    } catch {
      throw .file(location: path, message: "\(error)")
    }
    if scenario.id.isEmpty { scenario.id = baseName(path) }
    return scenario
  }

  /// `dir/area-0.15.yaml` → `area-0.15`.
  static func baseName(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for ext in [".yaml", ".yml"] where name.hasSuffix(ext) { name.removeLast(ext.count) }
    return name
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
        // Core spells array positions "Index 0"; name them as frames[0].yolo[1].
        text = "unknown key '\(dotted(c.codingPath))" + text[colon.lowerBound...]
      }
      return (c.codingPath, text)
    @unknown default:
      return ([], "\(e)")
    }
  }

  /// `frames[0].yolo[1].label`.
  static func dotted(_ path: [CodingKey]) -> String {
    path.reduce(into: "") { text, key in
      if let i = key.intValue {
        text += "[\(i)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
  }

  /// Follows a coding path through the YAML node tree to the deepest node that
  /// exists and returns its 1-based line and column (a mapping key's own mark
  /// when the path ends at a key).
  static func locate(_ path: [CodingKey], in text: String) -> (line: Int, column: Int) {
    guard var node = try? Yams.compose(yaml: text) else { return (1, 1) }
    var mark = node.mark
    for key in path {
      if let i = key.intValue, let seq = node.sequence, i < seq.count {
        node = seq[i]
        mark = node.mark ?? mark
      } else if let map = node.mapping,
        let pair = map.first(where: { $0.key.string == key.stringValue })
      {
        mark = pair.key.mark ?? mark
        node = pair.value
      } else {
        break
      }
    }
    return (mark?.line ?? 1, mark?.column ?? 1)
  }
}
