import Core
import Imaging
import Synth
import SetCards
import StrictYAML

/// Reads Set scenario files (YAML) strictly: unknown keys and wrong types are
/// errors naming `file:line:column`.
public enum SetScenarioFile {
  /// Decodes `text`, the contents of `path`.
  public static func decode(_ text: String, path: String) throws(SetCardsError) -> SetScenario {
    let document: YAMLDocument
    do { document = try StrictYAML.parse(text, path: path) } catch { throw .file(location: error.location, message: error.message) }
    return try decode(document)
  }

  /// Decodes an already parsed scenario file.
  package static func decode(_ document: YAMLDocument) throws(SetCardsError) -> SetScenario {
    do { return try StrictYAML.decode(SetScenario.self, document) } catch {
      throw .file(location: error.location, message: error.message)
    }
  }
}
