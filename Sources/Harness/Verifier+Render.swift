import Core
import Foundation

extension Verifier {
  /// Runs scenario files and writes their artifacts under `out/<id>/` for
  /// review, checking nothing. Returns one line per scenario.
  ///
  /// Everything is produced in a temporary folder inside `out` first; only
  /// when every scenario has run are the `<id>` folders moved into place
  /// (replacing earlier ones), so a failure part-way leaves `out` as it was.
  public static func render(_ inputs: [String], root: String, out: String) throws -> [String] {
    let files = try discover(inputs)
    let fm = FileManager.default
    try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
    let staging = out + "/.render-\(getpid())"
    try? fm.removeItem(atPath: staging)
    try fm.createDirectory(atPath: staging + "/.work", withIntermediateDirectories: true)
    defer { try? fm.removeItem(atPath: staging) }
    var lines: [String] = [], ids: [String] = []
    for f in files {
      let h = try ScenarioHeader(file: f)
      guard let kind = scenarioKinds.first(where: { $0.name == h.kind }) else { throw GoldenError("\(f): kind '\(h.kind)' is unknown") }
      let output = try kind.run(h, root: root, work: staging + "/.work", threads: ProcessorCount.available)
      let dir = staging + "/" + h.id
      try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
      var batch = OutputBatch()
      for a in output.artifacts { batch.add(try a.bytes(), to: dir + "/" + a.name) }
      try batch.commit()
      ids.append(h.id)
      lines.append("\(h.id): \(output.artifacts.map(\.name).joined(separator: ", "))" + (output.failures.isEmpty ? "" : " (\(output.failures.count) expectation(s) missed)"))
    }
    for id in ids {
      let target = out + "/" + id
      if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
      try fm.moveItem(atPath: staging + "/" + id, toPath: target)
    }
    return lines
  }
}
