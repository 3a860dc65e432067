import Core
import Foundation

/// Vector directories: `manifest.json` and `<stage>/<group>.json` files that
/// need no Bullseye to read. Written atomically; read strictly.
package enum VectorFiles {
  /// Checks an export folder before any work, so a command that would export
  /// after a long run fails at once: a file, a path inside a file or a missing
  /// folder, the current folder, or a non-empty folder without `force` is refused.
  /// Returns the resolved path and whether it exists.
  package static func checkTarget(_ given: String, force: Bool) throws(ConformanceError) -> (dir: String, exists: Bool) {
    let fm = FileManager.default
    guard !given.isEmpty else { throw .usage("the export directory is empty: expected a path") }
    // `.`, `d/x/..` and the like name a folder by where it sits: resolved first, so the
    // staging folder goes beside it and --force can never replace the folder a user is in.
    let dir = URL(fileURLWithPath: given).standardizedFileURL.path
    let cwd = URL(fileURLWithPath: fm.currentDirectoryPath).standardizedFileURL.path
    if dir == "/" || dir == cwd || cwd.hasPrefix(dir + "/") {
      throw .usage("'\(given)' is the current folder or holds it: expected a folder of its own to export into")
    }
    var isDir: ObjCBool = false
    let exists = fm.fileExists(atPath: dir, isDirectory: &isDir)
    if exists && !isDir.boolValue { throw .usage("'\(dir)' is a file: expected a directory to export into") }
    if exists, let items = try? fm.contentsOfDirectory(atPath: dir), !items.isEmpty, !force {
      throw .usage("'\(dir)' is not empty: expected an empty or new directory (or --force to replace it)")
    }
    let parent = (dir as NSString).deletingLastPathComponent
    var parentIsDir: ObjCBool = false
    guard fm.fileExists(atPath: parent.isEmpty ? "." : parent, isDirectory: &parentIsDir), parentIsDir.boolValue else {
      throw .usage("'\(parent)' is not a directory: expected the export directory's parent to be an existing folder")
    }
    guard fm.isWritableFile(atPath: parent.isEmpty ? "." : parent) else {
      throw .usage("'\(parent)' is not writable: expected a folder the export can be built in")
    }
    return (dir, exists)
  }

  /// The JSON of one group file.
  static func json(_ g: VectorGroup) -> JSONValue {
    .object([
      "stage": .string(g.stage.rawValue), "group": .string(g.group),
      "notes": .object(g.notes.mapValues(JSONValue.string)),
      "tests": .array(g.tests.map { v in
        var o: [String: JSONValue] = [
          "id": .string(v.id), "comment": .string(v.comment), "flags": .array(v.flags.map(JSONValue.string)), "input": v.input,
        ]
        switch v.expected {
        case .single(let e): o["expected"] = e
        case .bySemantics(_, let answers): o["expected_by_semantics"] = .object(answers)
        }
        return .object(o)
      }),
    ])
  }

  /// Writes the suite into `dir`: refused when `dir` is not empty unless
  /// `force`, which replaces it whole (built beside it, then renamed over it).
  package static func export(_ suite: VectorSuite, to given: String, force: Bool) throws(ConformanceError) {
    let fm = FileManager.default
    let (dir, _) = try checkTarget(given, force: force)
    let parent = (dir as NSString).deletingLastPathComponent
    let staging = (parent.isEmpty ? "." : parent) + "/.\((dir as NSString).lastPathComponent).export-\(getpid())"
    try? fm.removeItem(atPath: staging)
    do {
      try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
      var stages: [String: JSONValue] = [:]
      for stage in Stage.allCases {
        let groups = suite.groups.filter { $0.stage == stage }
        guard !groups.isEmpty else { continue }
        try fm.createDirectory(atPath: "\(staging)/\(stage.rawValue)", withIntermediateDirectories: true)
        var files: [JSONValue] = []
        for g in groups {
          let file = "\(stage.rawValue)/\(g.group).json"
          try AtomicFile.write(try json(g).canonicalText(), to: "\(staging)/\(file)")
          files.append(.object(["file": .string(file), "cases": .int(g.tests.count)]))
        }
        stages[stage.rawValue] = .object(["files": .array(files), "cases": .int(groups.map(\.tests.count).reduce(0, +))])
      }
      let axes: [String: JSONValue] = Dictionary(uniqueKeysWithValues: AxisTable.all.map {
        ($0.name, .object(["stage": .string($0.stage.rawValue), "values": .array($0.values.map(JSONValue.string)),
                           "default": .string($0.defaultValue)]))
      })
      let manifest: JSONValue = .object([
        "suite_version": .string(suite.version), "protocol_version": .int(1), "stages": .object(stages), "axes": .object(axes),
        "tolerances": .object(Dictionary(uniqueKeysWithValues: Stage.allCases.map { ($0.rawValue, .string($0.tolerance.rawValue)) })),
      ])
      try AtomicFile.write(try manifest.canonicalText(), to: "\(staging)/manifest.json")
      try AtomicFile.placeFolder(staging, at: dir)
    } catch let e as ConformanceError {
      try? fm.removeItem(atPath: staging)
      throw e
    } catch let e as CoreError {
      try? fm.removeItem(atPath: staging)
      throw .usage("cannot export into '\(given)': \(e)")
    } catch {
      try? fm.removeItem(atPath: staging)
      throw .usage("cannot export into '\(given)': \(error.localizedDescription)")
    }
  }
}
