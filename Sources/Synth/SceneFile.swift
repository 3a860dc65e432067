import Core
import StrictYAML

/// Reads scene files (YAML) strictly: unknown keys and wrong types are errors
/// that name the file, line and column.
public enum SceneFile {
  /// Decodes `text` (the contents of `path`) into a spec.
  static func decode(_ text: String, path: String) throws(SynthError) -> SceneSpec {
    try decode(SceneSpec.self, text, path: path)
  }

  /// Decodes any strict document type; `extraKeys` are top-level keys that a
  /// wider document type (e.g. a pipeline scenario) adds to the scene keys.
  public static func decode<T: Decodable>(_ type: T.Type, _ text: String, path: String,
                                          extraKeys: Set<String> = []) throws(SynthError) -> T {
    let document: YAMLDocument
    do { document = try StrictYAML.parse(text, path: path) } catch { throw .file(location: error.location, message: error.message) }
    return try decode(T.self, document, extraKeys: extraKeys)
  }

  /// Decodes an already parsed document.
  package static func decode<T: Decodable>(_ type: T.Type, _ document: YAMLDocument,
                                           extraKeys: Set<String> = []) throws(SynthError) -> T {
    do { return try StrictYAML.decode(T.self, document, extraKeys: extraKeys) } catch {
      throw .file(location: error.location, message: error.message)
    }
  }
}
