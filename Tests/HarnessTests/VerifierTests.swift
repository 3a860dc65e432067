import Canvas
import Foundation
import Testing
@testable import Harness

/// The verify contract on a throwaway tree: record, verify, one changed pixel
/// fails with a diff image, CI refuses to record, shards cover everything,
/// orphans are found and pruned only on full runs.
struct VerifierTests {
  func tree(_ name: String) throws -> VerifyOptions {
    try scratchTree("verify-\(name)", scenarios: tinyScenarios())
  }

  @Test func recordVerifyAndCatchOnePixel() throws {
    var o = try tree("pixel")
    o.mode = .recordMissing
    let rec = try Verifier.run(o) { _ in }
    #expect(rec.verdicts.map(\.status) == ["recorded", "recorded", "recorded"] && rec.exitCode == 0)
    o.mode = .verify
    let ok = try Verifier.run(o) { _ in }
    #expect(ok.passed == 3 && ok.failed == 0 && ok.exitCode == 0)

    let path = o.goldenRoot + "/tiny-1/overlay-ios.png"
    var img = try PNG.read(path: path)
    let p = img[5, 5]
    img[5, 5] = RGBA(p.r ^ 0x01, p.g, p.b, p.a)
    try PNG.write(img, to: path)
    let bad = try Verifier.run(o) { _ in }
    #expect(bad.failed == 1 && bad.exitCode != 0)
    let v = try #require(bad.verdicts.first { $0.status == "failed" })
    #expect(v.id == "tiny-1" && v.messages.contains { $0.contains("overlay-ios.png") && $0.contains("1 pixels differ") })
    #expect(FileManager.default.fileExists(atPath: o.reportDir + "/tiny-1/diff-overlay-ios.png"))
    try Reports.write(bad, to: o.reportDir)
    let html = try String(contentsOfFile: o.reportDir + "/report.html", encoding: .utf8)
    #expect(html.contains("tiny-1/diff-overlay-ios.png") && html.contains("cairo"))
    let junit = try String(contentsOfFile: o.reportDir + "/junit.xml", encoding: .utf8)
    #expect(junit.contains("failures=\"1\"") && junit.contains("<failure"))

    // update-failed rewrites only the failing golden; then all pass again.
    o.mode = .updateFailed
    _ = try Verifier.run(o) { _ in }
    o.mode = .verify
    #expect(try Verifier.run(o) { _ in }.failed == 0)
  }

  @Test func ciRefusesToRecord() throws {
    var o = try tree("ci")
    o.mode = .recordMissing
    o.ci = true
    let r = try Verifier.run(o) { _ in }
    #expect(r.exitCode != 0 && r.failed == 3 && r.notes.contains { $0.contains("recording refused") })
    #expect(!FileManager.default.fileExists(atPath: o.goldenRoot + "/tiny-0"))
  }

  @Test func shardsPartitionTheCorpusAndOrphansNeedAFullRun() throws {
    var o = try tree("shard")
    o.mode = .recordMissing
    _ = try Verifier.run(o) { _ in }
    o.mode = .verify
    var ids: [String] = []
    for k in 1...2 {
      o.shard = (k, 2)
      ids += try Verifier.run(o) { _ in }.verdicts.map(\.id)
    }
    #expect(ids.sorted() == ["tiny-0", "tiny-1", "tiny-2"])
    try FileManager.default.createDirectory(atPath: o.goldenRoot + "/gone", withIntermediateDirectories: true)
    o.prune = true
    let refused = try Verifier.run(o) { _ in }
    #expect(refused.orphans == ["gone"] && refused.notes.contains { $0.contains("--prune refused") })
    o.shard = nil
    let pruned = try Verifier.run(o) { _ in }
    #expect(pruned.notes.contains { $0.contains("pruned 1") } && !FileManager.default.fileExists(atPath: o.goldenRoot + "/gone"))
  }
}
