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
    do { return try StrictYAML.decode(SetScenario.self, text, path: path) } catch {
      throw .file(location: error.location, message: error.message)
    }
  }
}
