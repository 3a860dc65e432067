import Core
import Foundation

extension VectorFiles {
  /// Checks the keys of a vector directory's manifest that the loader does not
  /// otherwise use, so a manifest that misstates its directory is refused rather
  /// than trusted by other readers: `protocol_version` must be 1, `tolerances`
  /// must name each stage's own tolerance, `axes` must match the axis table.
  static func checkManifest(_ m: [String: JSONValue], path: String) throws(ConformanceError) {
    guard m["protocol_version"] == .int(1) else {
      throw .usage("\(path): protocol_version is \(shown(m["protocol_version"])), expected 1")
    }
    if let t = m["tolerances"] {
      guard case .object(let byStage) = t else { throw .usage("\(path): tolerances is \(Input.kind(t)), expected an object of stage names to tolerances") }
      for (name, value) in byStage.sorted(by: { $0.key < $1.key }) {
        guard let stage = Stage(rawValue: name) else { throw .usage("\(path): tolerances names stage '\(name)', expected one of \(stageNames)") }
        guard value == .string(stage.tolerance.rawValue) else {
          throw .usage("\(path): tolerances.\(name) is \(shown(value)), expected \"\(stage.tolerance.rawValue)\" (the tolerance the stage is graded with)")
        }
      }
    }
    if let a = m["axes"] {
      guard case .object(let byName) = a else { throw .usage("\(path): axes is \(Input.kind(a)), expected an object of axis names") }
      for (name, value) in byName.sorted(by: { $0.key < $1.key }) {
        guard let axis = AxisTable.axis(name) else {
          throw .usage("\(path): axes names '\(name)', expected one of \(AxisTable.all.map(\.name).joined(separator: ", "))")
        }
        let table: [String: JSONValue] = ["stage": .string(axis.stage.rawValue), "values": .array(axis.values.map(JSONValue.string)),
                                          "default": .string(axis.defaultValue)]
        guard case .object(let o) = value, o.allSatisfy({ table[$0.key] == $0.value }) else {
          throw .usage("\(path): axes.\(name) is \(shown(value)), expected \(JSONValue.oneLine(.object(table)))")
        }
      }
    }
  }

  /// A manifest's `cases` count checked against what the files hold (absent is allowed).
  static func checkCount(_ value: JSONValue?, _ actual: Int, path: String, key: String) throws(ConformanceError) {
    guard let value else { return }
    guard value == .int(actual) else { throw .usage("\(path): \(key) is \(shown(value)), expected \(actual) (the cases the files hold)") }
  }

  /// A file of a vector directory, refused when it (or a link on its way) leads outside the directory.
  static func checkInside(_ file: String, dir: String, path: String) throws(ConformanceError) {
    let root = URL(fileURLWithPath: dir).standardizedFileURL.resolvingSymlinksInPath().path
    let real = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
    guard real.hasPrefix(root + "/") else {
      throw .usage("\(path): file '\(file)' leads to '\(real)', outside the vector directory: expected a file inside it")
    }
  }

  static var stageNames: String { Stage.allCases.map(\.rawValue).joined(separator: ", ") }

  /// A value as it appears in the file, or `missing`.
  static func shown(_ v: JSONValue?) -> String { v.map { String(JSONValue.oneLine($0).prefix(60)) } ?? "missing" }
}
