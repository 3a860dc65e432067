import Core
import Foundation

extension Verifier {
  /// Runs scenario files and writes their artifacts under `out/<id>/` for
  /// review, checking nothing. Returns one line per scenario.
  public static func render(_ inputs: [String], root: String, out: String) throws -> [String] {
    let work = out + "/.work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    var lines: [String] = []
    for f in try discover(inputs) {
      let h = try ScenarioHeader(file: f)
      guard let kind = scenarioKinds.first(where: { $0.name == h.kind }) else { throw GoldenError("\(f): kind '\(h.kind)' is unknown") }
      let output = try kind.run(h, root: root, work: work, threads: ProcessorCount.available)
      let dir = out + "/" + h.id
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      for a in output.artifacts { try AtomicFile.write(try a.bytes(), to: dir + "/" + a.name) }
      lines.append("\(h.id): \(output.artifacts.map(\.name).joined(separator: ", "))" + (output.failures.isEmpty ? "" : " (\(output.failures.count) expectation(s) missed)"))
    }
    return lines
  }
}
