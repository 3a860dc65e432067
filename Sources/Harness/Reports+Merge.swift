import Core
import Foundation

/// Joins the report folders of `verify --shard k/n` runs into one folder, as
/// if the run had not been sharded: each shard's scenario folders copied in,
/// then one page, one JUnit file and one report.json written from the union.
public enum ReportMerge {
  /// Reads `dir/report.json`; the error names the folder when there is none or it is not JSON.
  public static func load(_ dir: String) throws -> JSONValue {
    let path = dir + "/report.json"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw GoldenError("'\(dir)' has no report.json: expected a report folder of bullseye verify or bullseye conform run")
    }
    do { return try JSONParser.parse(bytes: [UInt8](data)) } catch {
      throw GoldenError("'\(path)' is not valid JSON: \(error)")
    }
  }

  /// `verify` or `conform`: which command wrote this report.json.
  public static func kind(_ v: JSONValue, dir: String) throws -> String {
    guard case .object(let o) = v, case .string(let k)? = o["report"], ["verify", "conform"].contains(k) else {
      throw GoldenError("'\(dir)/report.json' has no \"report\" key of verify or conform: expected a report of bullseye verify or conform run")
    }
    return k
  }

  /// Merges verify shard folders `dirs` into `out` and returns the merged record.
  /// The same scenario id in two folders is refused, naming both.
  public static func verify(_ dirs: [String], out: String) throws -> ReviewReport {
    var parts: [(String, ReviewReport)] = []
    for d in dirs { parts.append((d, try ReviewReport(json: load(d)))) }
    var owner: [String: String] = [:]
    for (d, r) in parts {
      for s in r.scenarios {
        if let other = owner[s.id] { throw GoldenError("scenario '\(s.id)' is in both '\(other)' and '\(d)': expected each scenario in one shard") }
        owner[s.id] = d
      }
    }
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    ReportManifest.clean(out)
    var scenarios: [ReviewScenario] = []
    var notes: [String] = [], orphans = Set<String>()
    for (d, r) in parts {
      for s in r.scenarios {
        var kept: [String] = []
        for f in s.files where ReportManifest.isSafe(f) {
          guard let data = FileManager.default.contents(atPath: d + "/" + f) else { continue }
          let target = out + "/" + f
          try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
          try AtomicFile.write([UInt8](data), to: target)
          kept.append(f)
        }
        var merged = s
        merged.files = kept
        scenarios.append(merged)
      }
      // A shard holding nothing says so; the merged run does not.
      for n in r.notes where !notes.contains(n) && !n.hasPrefix("shard ") { notes.append(n) }
      orphans.formUnion(r.orphans)
    }
    scenarios.sort { ($0.file, $0.id) < ($1.file, $1.id) }
    let envs = Set(parts.map { $0.1.environment })
    if envs.count > 1 { notes.append("the shards ran with different renderer versions: \(envs.map { $0.map { $0.joined(separator: " ") }.joined(separator: ", ") }.sorted().joined(separator: " | "))") }
    notes.append("merged from \(dirs.count) report folder(s): \(dirs.joined(separator: ", "))")
    let merged = ReviewReport(environment: parts.first?.1.environment ?? [], notes: notes, orphans: orphans.sorted(), scenarios: scenarios)
    try Reports.write(merged, to: out)
    return merged
  }
}
