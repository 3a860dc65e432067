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
    // An empty selection is a mistyped path, not a render of nothing.
    guard !files.isEmpty else {
      throw GoldenError("no scenario files (.yaml) in \(inputs.map { "'\($0)'" }.joined(separator: ", ")): expected scenario files or folders holding them")
    }
    // Every header first: a duplicate id or a broken file is refused before anything runs or is written.
    var headers: [ScenarioHeader] = [], seen: [String: String] = [:]
    for f in files {
      let h: ScenarioHeader
      do { h = try ScenarioHeader(file: f) } catch { throw GoldenError(named(f, error)) }
      if let other = seen[h.id] { throw GoldenError("duplicate scenario id '\(h.id)' in \(f) and \(other): expected one scenario per id") }
      guard scenarioKinds.contains(where: { $0.name == h.kind }) else { throw GoldenError("\(f): kind '\(h.kind)' is unknown") }
      seen[h.id] = f
      headers.append(h)
    }
    let fm = FileManager.default
    try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
    let staging = out + "/.render-\(getpid())"
    try? fm.removeItem(atPath: staging)
    try fm.createDirectory(atPath: staging + "/.work", withIntermediateDirectories: true)
    defer { try? fm.removeItem(atPath: staging) }
    var lines: [String] = [], ids: [String] = []
    for h in headers {
      guard let kind = scenarioKinds.first(where: { $0.name == h.kind }) else { continue }
      let output: KindOutput
      do { output = try kind.run(h, root: root, work: staging + "/.work", threads: ProcessorCount.available) } catch { throw GoldenError(named(h.file, error)) }
      let dir = staging + "/" + h.id
      try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
      var batch = OutputBatch()
      for a in output.artifacts { batch.add(try a.bytes(), to: dir + "/" + a.name) }
      try batch.commit()
      ids.append(h.id)
      lines.append("\(h.id): \(output.artifacts.map(\.name).joined(separator: ", "))" + (output.failures.isEmpty ? "" : " (\(output.failures.count) expectation(s) missed)"))
    }
    for id in ids { try AtomicFile.placeFolder(staging + "/" + id, at: out + "/" + id) }
    return lines
  }

  /// `error`'s message, led by the scenario file unless it already names it.
  static func named(_ file: String, _ error: Error) -> String {
    let m = "\(error)"
    return m.contains(file) ? m : "\(file): \(m)"
  }
}
