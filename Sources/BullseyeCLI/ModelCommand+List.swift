import ArgumentParser
import Core
import Foundation
import Harness
import Inference

/// `bullseye model list`: where each shipped model was found, so a user can
/// see which file a default run reads (and why it is missing when it is).
struct ModelList: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "Where each shipped model was found (BULLSEYE_MODELS=DIR overrides the search).",
    discussion: """
      Defaults are read from Models/ beside the installed executable (or share/bullseye/Models/ \
      under its prefix), never from the working directory. Exit 2 when one is missing.

      Example: BULLSEYE_MODELS=/opt/models bullseye model list --json
      """)
  @Flag(help: "One JSON object: {models: [{name, role, path, found, bytes, inputs, outputs, searched}]}.") var json = false

  /// One shipped model as found (or not).
  struct Row {
    let name: String, role: String, path: String?, bytes: Int
    let inputs: [String], outputs: [String], error: String?
    var json: JSONValue {
      var o: [String: JSONValue] = ["name": .string(name), "role": .string(role), "found": .bool(path != nil),
                                    "path": path.map(JSONValue.string) ?? .null]
      if path != nil {
        o["bytes"] = .int(bytes)
        o["inputs"] = .array(inputs.map(JSONValue.string)); o["outputs"] = .array(outputs.map(JSONValue.string))
        if let error { o["error"] = .string(error) }
      } else {
        o["searched"] = .array(ProductPaths.candidates(name).map(JSONValue.string))
      }
      return .object(o)
    }
  }

  static func rows() -> [Row] {
    ProductPaths.shippedModels.map { name, role in
      guard let path = ProductPaths.model(name) else {
        return Row(name: name, role: role, path: nil, bytes: 0, inputs: [], outputs: [], error: nil)
      }
      let bytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
      let port = { (p: ModelSummary.Port) in "\(p.name) [\(p.shape.joined(separator: ", "))]" }
      do {
        let s = try InferenceModel.summary(contentsOf: path)
        return Row(name: name, role: role, path: path, bytes: bytes, inputs: s.inputs.map(port), outputs: s.outputs.map(port), error: nil)
      } catch {
        return Row(name: name, role: role, path: path, bytes: bytes, inputs: [], outputs: [], error: "\(error)")
      }
    }
  }

  func run() throws {
    let rows = Self.rows()
    if json {
      print(try JSONValue.object(["models": .array(rows.map(\.json)), "override": ProductPaths.override.map(JSONValue.string) ?? .null])
        .canonicalText(), terminator: "")
    } else {
      if let dir = ProductPaths.override { print("BULLSEYE_MODELS=\(dir)") }
      for r in rows {
        if let path = r.path {
          let shapes = r.error.map { "unreadable: \($0)" } ?? r.inputs.joined(separator: "; ") + " → " + r.outputs.joined(separator: "; ")
          print("\(r.name): \(path) (\(r.bytes) bytes) \(shapes)\n  \(r.role)")
        } else {
          print("\(r.name): NOT FOUND — \(ProductPaths.expected(r.name))\n  \(r.role)")
        }
      }
    }
    // The listing is on stdout; the failure gets its one line on stderr, as every exit 2 does.
    let missing = rows.filter { $0.path == nil || $0.error != nil }
    if !missing.isEmpty {
      throw CLIError(message: "\(missing.count) of \(rows.count) default models cannot be used (listed above): expected each found and loadable")
    }
  }
}
