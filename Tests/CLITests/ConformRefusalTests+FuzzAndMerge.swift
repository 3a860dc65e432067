import Foundation
import Testing

/// `fuzz scoring --testee` and `report merge` refusals: an --out that is not
/// theirs to replace, a campaign or merge that checked nothing or mixed testees.
extension ConformRefusalTests {
  /// Two conform shards of the echo stage in `dir/s1` and `dir/s2`.
  func shards(_ dir: String, _ testees: [String], expectations: String? = nil) throws {
    for (k, t) in testees.enumerated() {
      let extra = expectations.map { ["--expectations", $0] } ?? []
      let r = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "echo", "--shard", "\(k + 1)/2", "--report", dir + "/s\(k + 1)"] + extra)
      #expect(r.status == 0, "shard \(k + 1): \(r.stdout.suffix(300)) \(r.stderr)")
    }
  }

  @Test func mergeRefusesAnOutThatLinksToAShard() throws {
    let dir = try CLIRunner.scratch("conf-refuse-merge-link")
    let t = try echoTestee(dir, name: "e")
    try shards(dir, [t, t])
    try FileManager.default.createSymbolicLink(atPath: dir + "/s1link", withDestinationPath: dir + "/s1")
    let before = try String(contentsOfFile: dir + "/s1/report.json", encoding: .utf8)
    let r = try CLIRunner.run(["report", "merge", dir + "/s1", dir + "/s2", "--out", dir + "/s1link"])
    #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
    #expect(r.stderr.contains("s1link") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(try String(contentsOfFile: dir + "/s1/report.json", encoding: .utf8) == before, "the shard's report is kept")
  }

  @Test func mergedShardsWithOnlyKnownFailuresPass() throws {
    let dir = try CLIRunner.scratch("conf-refuse-merge-known")
    // Shard 1 holds echo.neg-zero, echo.min-subnormal, …; shard 2 echo.zero, echo.max, ….
    let t = try echoTestee(dir, name: "e", wrong: ["echo.min-subnormal", "echo.zero"])
    try "echo.min-subnormal # wrong\necho.zero # wrong\n".write(toFile: dir + "/known.txt", atomically: true, encoding: .utf8)
    try shards(dir, [t, t], expectations: dir + "/known.txt")
    let r = try CLIRunner.run(["report", "merge", dir + "/s1", dir + "/s2", "--out", dir + "/m"])
    #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
    #expect(r.stdout.contains("2 failed (2 known)"), "\(r.stdout)")
    // Without the expectations the same failures fail the merge.
    for k in 1...2 {
      _ = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "echo", "--shard", "\(k)/2", "--report", dir + "/u\(k)"])
    }
    let u = try CLIRunner.run(["report", "merge", dir + "/u1", dir + "/u2", "--out", dir + "/um"])
    #expect(u.status == 1, "\(u.stdout) \(u.stderr)")
  }

  @Test func mergeRefusesShardsOfDifferentTestees() throws {
    let dir = try CLIRunner.scratch("conf-refuse-merge-testees")
    try shards(dir, [try echoTestee(dir, name: "one"), try echoTestee(dir, name: "two")])
    let r = try CLIRunner.run(["report", "merge", dir + "/s1", dir + "/s2", "--out", dir + "/m"])
    #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
    #expect(r.stderr.contains("'one'") && r.stderr.contains("'two'"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/m"), "nothing written")
  }

  @Test func fuzzOutReplacesOnlyAnEarlierFuzzExport() throws {
    let dir = try CLIRunner.scratch("conf-refuse-fuzz-out")
    let fm = FileManager.default
    // A folder with a manifest that is not a fuzz export (here: the start of a conform export) is kept whole.
    try fm.createDirectory(atPath: dir + "/vectors/score", withIntermediateDirectories: true)
    try #"{"suite_version":"1.0.0","stages":{}}"#.write(toFile: dir + "/vectors/manifest.json", atomically: true, encoding: .utf8)
    try "[]".write(toFile: dir + "/vectors/score/10_zone.json", atomically: true, encoding: .utf8)
    try "mine".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
    for out in [dir + "/vectors", dir + "/file", dir + "/file/x"] {
      let r = try CLIRunner.run(["fuzz", "scoring", "--testee", markingTestee(dir), "--cases", "10", "--out", out])
      #expect(r.status == 2, "\(out): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.hasPrefix("error: --out") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(!fm.fileExists(atPath: dir + "/started"), "\(out): refused before the testee ran")
    }
    #expect(fm.fileExists(atPath: dir + "/vectors/score/10_zone.json"))
    #expect(try String(contentsOfFile: dir + "/file", encoding: .utf8) == "mine")
    // An earlier fuzz export is replaced.
    for _ in 0..<2 {
      let r = try CLIRunner.run(["fuzz", "scoring", "--testee", "\(bin) conform testee", "--cases", "10", "--out", dir + "/fuzz"])
      #expect(r.status == 0, "\(r.stderr)")
    }
    #expect(try fm.contentsOfDirectory(atPath: dir + "/fuzz").sorted() == ["manifest.json", "score"])
  }

  @Test func aFuzzThatGradedNothingExitsTwo() throws {
    let dir = try CLIRunner.scratch("conf-refuse-fuzz-skipped")
    let skipper = try pythonTestee(dir, file: "skips.py", ready: #"{"ready": True, "name": "skips", "stages": ["score"]}"#, answer: #"""
      print(json.dumps({"seq": m["seq"], "skipped": "not here"}), flush=True)
      """#)
    let skips = try CLIRunner.run(["fuzz", "scoring", "--testee", skipper, "--cases", "300", "--face", "10_zone"])
    #expect(skips.status == 2, "\(skips.stdout.suffix(200)) \(skips.stderr)")
    #expect(skips.stderr.contains("nothing was checked") && skips.stderr.contains("300 were skipped"), "\(skips.stderr)")
    let none = try CLIRunner.run(["fuzz", "scoring", "--testee", "\(bin) conform testee", "--seconds", "1e-300"])
    #expect(none.status == 2, "\(none.stdout.suffix(200)) \(none.stderr)")
    #expect(none.stderr.contains("nothing was checked: of 0 cases"), "\(none.stderr)")
  }

  @Test func fuzzBatchesHoldAtMost64Cases() throws {
    let dir = try CLIRunner.scratch("conf-fuzz-batch")
    let batcher = try pythonTestee(dir, file: "batch.py", ready: #"{"ready": True, "name": "b", "stages": ["score"], "batch": True}"#,
                                   command: "run_batch", answer: #"""
      most = max(most, len(m["cases"]))
      open(sys.argv[1], "w").write(str(most))
      print(json.dumps({"seq": m["seq"], "answers": [{"skipped": "-"} for _ in m["cases"]]}), flush=True)
      """#, args: "'\(dir)/most'")
    _ = try CLIRunner.run(["fuzz", "scoring", "--testee", batcher, "--cases", "2000", "--face", "10_zone"])
    let most = Int(try String(contentsOfFile: dir + "/most", encoding: .utf8)) ?? 0
    #expect(most == 64, "the largest batch held \(most) cases")
  }
}
