import Obstacles
import StrictYAML

extension ObstacleScenario {
  /// Decodes a scenario file's text strictly. `path` names the file in errors
  /// (`path:line:column: message`) and gives the default id (its base name
  /// without `.yaml`).
  public static func decode(_ text: String, path: String) throws(ObstacleError) -> ObstacleScenario {
    let document: YAMLDocument
    do { document = try StrictYAML.parse(text, path: path) } catch { throw .file(location: error.location, message: error.message) }
    return try decode(document)
  }

  /// Decodes an already parsed scenario file.
  package static func decode(_ document: YAMLDocument) throws(ObstacleError) -> ObstacleScenario {
    var scenario: ObstacleScenario
    do { scenario = try StrictYAML.decode(ObstacleScenario.self, document) } catch {
      throw .file(location: error.location, message: error.message)
    }
    if scenario.id.isEmpty { scenario.id = baseName(document.path) }
    return scenario
  }

  /// `dir/area-0.15.yaml` → `area-0.15`.
  static func baseName(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for ext in [".yaml", ".yml"] where name.hasSuffix(ext) { name.removeLast(ext.count) }
    return name
  }
}
