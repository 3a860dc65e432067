import Foundation
import Testing

/// `bullseye report merge`: shard folders of one verify run merge into counts
/// equal to the unsharded run's; a folder without report.json, the same
/// scenario twice, or verify mixed with conform are refused with exit 2.
struct ReportMergeTests {
  func tree(_ name: String) throws -> String {
    let root = try CLIRunner.scratch("merge-\(name)")
    try FileManager.default.createDirectory(atPath: root + "/S", withIntermediateDirectories: true)
    for i in 0..<3 {
      try """
        id: tiny-\(i)
        face: 10_zone
        seed: \(i)
        size: 160x120
        profile: ios
        scene: {noise: 0, jpeg: 0}
        arrows: [{x: 0.1, y: 0.1}]
        """.write(toFile: root + "/S/tiny-\(i).yaml", atomically: true, encoding: .utf8)
    }
    return root
  }

  func verify(_ root: String, _ extra: [String]) throws -> CLIRunner.Result {
    try CLIRunner.run(["verify", root + "/S", "--scenario-root", root + "/S", "--golden", root + "/G"] + extra, env: ["CI": "false"])
  }

  @Test func shardsMergeToTheUnshardedCounts() throws {
    let root = try tree("counts")
    #expect(try verify(root, ["--report", root + "/R", "--mode", "record-missing"]).status == 0)
    let whole = try verify(root, ["--report", root + "/R"])
    #expect(whole.status == 0 && whole.stdout.contains("3 passed, 0 failed"))
    for k in 1...2 { _ = try verify(root, ["--report", root + "/R\(k)", "--shard", "\(k)/2"]) }
    let merged = try CLIRunner.run(["report", "merge", root + "/R1", root + "/R2", "--out", root + "/M"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("3 passed, 0 failed"))
    let junit = try String(contentsOfFile: root + "/M/junit.xml", encoding: .utf8)
    #expect(junit.contains("tests=\"3\" failures=\"0\""))
    for f in ["report.html", "report.json", ".manifest", "tiny-0/thumb-overlay-ios.png"] {
      #expect(FileManager.default.fileExists(atPath: root + "/M/" + f), "\(f)")
    }
  }

  /// A shard that found differences makes the merge exit 1 with the same summary line as one run.
  @Test func aFailingShardMakesTheMergeExitOne() throws {
    let root = try tree("failing")
    _ = try verify(root, ["--mode", "record-missing"])
    let golden = root + "/G/tiny-2/result.json"
    let text = try String(contentsOfFile: golden, encoding: .utf8)
    try text.replacingOccurrences(of: "\"end_total\": ", with: "\"end_total\": 1").write(toFile: golden, atomically: true, encoding: .utf8)
    for k in 1...2 { _ = try verify(root, ["--report", root + "/R\(k)", "--shard", "\(k)/2"]) }
    let merged = try CLIRunner.run(["report", "merge", root + "/R1", root + "/R2", "--out", root + "/M"])
    #expect(merged.status == 1 && merged.stdout.contains("2 passed, 1 failed"), "\(merged.stdout.suffix(300))")
  }

  @Test func refusesMissingDuplicateAndMixedFolders() throws {
    let root = try tree("refuse")
    _ = try verify(root, ["--report", root + "/R", "--mode", "record-missing"])
    try FileManager.default.copyItem(atPath: root + "/R", toPath: root + "/Copy")
    try FileManager.default.createDirectory(atPath: root + "/Empty", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/C", withIntermediateDirectories: true)
    try #"{"report": "conform", "cases": []}"#.write(toFile: root + "/C/report.json", atomically: true, encoding: .utf8)
    let missing = try CLIRunner.run(["report", "merge", root + "/R", root + "/Empty", "--out", root + "/M"])
    #expect(missing.status == 2 && missing.stderr.contains("Empty") && missing.stderr.contains("report.json"))
    let dup = try CLIRunner.run(["report", "merge", root + "/R", root + "/Copy", "--out", root + "/M"])
    #expect(dup.status == 2 && dup.stderr.contains("tiny-0") && dup.stderr.contains("Copy"))
    let mixed = try CLIRunner.run(["report", "merge", root + "/R", root + "/C", "--out", root + "/M"])
    #expect(mixed.status == 2 && mixed.stderr.contains("/C"))
    #expect(mixed.stderr.split(separator: "\n").count == 1)
  }
}
