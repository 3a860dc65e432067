import Foundation
import Testing

/// Exit status of the checking subcommands: 0 success, 1 the check ran and
/// found differences (its summary the last line), 2 usage or input error.
struct ExitCodeTests {
  func tree(_ name: String) throws -> String {
    let root = try CLIRunner.scratch("exit-\(name)")
    try FileManager.default.createDirectory(atPath: root + "/S", withIntermediateDirectories: true)
    try """
      id: tiny
      face: 10_zone
      seed: 2
      size: 160x120
      profile: ios
      scene: {noise: 0, jpeg: 0}
      arrows: [{x: 0.1, y: 0.1}]
      """.write(toFile: root + "/S/tiny.yaml", atomically: true, encoding: .utf8)
    return root
  }

  func verify(_ root: String, _ extra: [String] = []) throws -> CLIRunner.Result {
    try CLIRunner.run(["verify", root + "/S", "--scenario-root", root + "/S", "--golden", root + "/G", "--report", root + "/R"] + extra,
                      env: ["CI": "false"])
  }

  @Test func verifyExitsZeroOneAndTwo() throws {
    let root = try tree("verify")
    let missing = try verify(root)
    #expect(missing.status == 1, "no golden yet: differences")
    #expect(missing.stdout.split(separator: "\n").last == "0 passed, 1 failed", "\(missing.stdout.suffix(200))")
    #expect(!missing.stderr.contains("ExitCode"))
    #expect(try verify(root, ["--mode", "record-missing"]).status == 0)
    #expect(try verify(root).status == 0)
    let bad = try verify(root, ["--mode", "sideways"])
    #expect(bad.status == 2 && bad.stderr.contains("sideways"), "\(bad.stderr)")
    // A scenario that cannot be run (its photo outside the tree) is bad input: exit 2, named on
    // stderr, while the others are still checked and reported.
    try "id: outside\nface: 10_zone\nimage: ../../../../etc/passwd\nprofile: ios\n"
      .write(toFile: root + "/S/outside.yaml", atomically: true, encoding: .utf8)
    let outside = try verify(root)
    #expect(outside.status == 2 && outside.stderr.contains("outside.yaml") && outside.stderr.contains(".."), "\(outside.stderr)")
    #expect(outside.stdout.split(separator: "\n").last == "1 passed, 1 failed", "\(outside.stdout.suffix(300))")
  }

  /// Two shards started in one checkout write separate reports by default.
  @Test func shardsWriteTheirOwnReportFolders() throws {
    let root = try tree("shards")
    for k in 1...2 {
      let r = try CLIRunner.run(["verify", "S", "--scenario-root", "S", "--golden", "G", "--shard", "\(k)/2", "--mode", "record-missing"],
                                env: ["CI": "false"], cwd: root)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(FileManager.default.fileExists(atPath: root + "/Renders/shard-\(k)-of-2/junit.xml"), "shard \(k)")
    }
    #expect(!FileManager.default.fileExists(atPath: root + "/Renders/junit.xml"))
  }

  @Test func fuzzExitsZeroOneAndTwo() throws {
    let bin = "'\(CLIRunner.binary.path)'"
    #expect(try CLIRunner.run(["fuzz", "scoring", "--iterations", "2000", "--face", "10_zone"]).status == 0)
    let found = try CLIRunner.run(["fuzz", "scoring", "--testee", "\(bin) conform testee --semantics boundary=strict --declare boundary=inclusive",
                                   "--cases", "3000", "--face", "10_zone"])
    #expect(found.status == 1)
    #expect(try CLIRunner.run(["fuzz", "scoring", "--iterations", "0"]).status == 2)
    // A testee that errs on every case was never checked: exit 2, not "0 findings".
    let dir = try CLIRunner.scratch("fuzz-all-errors")
    let script = """
      import sys, json
      print(json.dumps({"ready": True, "name": "always-errs", "stages": ["score"], "semantics": {}}), flush=True)
      for line in sys.stdin:
          m = json.loads(line)
          if m.get("cmd") == "run_batch":
              print(json.dumps({"seq": m["seq"], "answers": [{"error": "broken"} for _ in m["cases"]]}), flush=True)
          elif m.get("cmd") == "run":
              print(json.dumps({"seq": m["seq"], "error": "broken"}), flush=True)
      """
    FileManager.default.createFile(atPath: dir + "/errs.py", contents: Data(script.utf8))
    let errs = try CLIRunner.run(["fuzz", "scoring", "--testee", "python3 \(dir)/errs.py", "--cases", "200", "--face", "10_zone"])
    #expect(errs.status == 2 && errs.stderr.contains("answered all 200 cases with an error"), "\(errs.stderr)")
  }

  @Test func conformExitsZeroOneAndTwo() throws {
    let bin = "'\(CLIRunner.binary.path)'"
    #expect(try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "setcards"]).status == 0)
    #expect(try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee --semantics drag=delta --declare drag=stale-capture",
                               "--stages", "adjust"]).status == 1)
    #expect(try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "nowhere"]).status == 2)
  }

  /// `eval archery --floor`: met 0, missed 1 (the figure named), malformed 2 before anything runs.
  @Test func evalFloorExitsZeroOneAndTwo() throws {
    let base = ["eval", "archery", "--images", "2", "--seed", "7000000", "--size", "640x480"]
    #expect(try CLIRunner.run(base + ["--detector", "truth", "--floor", "recall=1,precision=1"]).status == 0)
    // The shipped detector boxes a few things that are not arrows on these two photos (precision 0.462).
    let short = try CLIRunner.run(base + ["--floor", "recall=0.5,precision=1"])
    #expect(short.status == 1 && short.stdout.contains("below the floor: precision"), "\(short.stdout.suffix(300))")
    let bad = try CLIRunner.run(base + ["--floor", "recall=2"])
    #expect(bad.status == 2 && bad.stderr.contains("'recall=2'") && bad.stderr.contains("0...1") && !bad.stdout.contains("images"))
  }

  @Test func aFilterMatchingNothingAndAPartialPruneAreRefused() throws {
    let root = try tree("filter")
    #expect(try verify(root, ["--mode", "record-missing"]).status == 0)
    // A golden folder of a scenario that exists nowhere: only a full run may prune it.
    try FileManager.default.createDirectory(atPath: root + "/G/gone", withIntermediateDirectories: true)
    let typo = try verify(root, ["--filter", "tinny"])
    #expect(typo.status == 2 && typo.stderr.contains("'tinny'") && typo.stderr.contains("tiny"), "\(typo.stderr)")
    let partial = try verify(root, ["--filter", "tiny", "--prune"])
    #expect(partial.status == 2 && partial.stderr.contains("--prune"))
    #expect(FileManager.default.fileExists(atPath: root + "/G/gone") && FileManager.default.fileExists(atPath: root + "/G/tiny"),
            "a refused prune deletes nothing")
    let full = try CLIRunner.run(["verify", "--scenario-root", root + "/S", "--golden", root + "/G", "--report", root + "/R", "--prune"],
                                 env: ["CI": "false"])
    #expect(full.status == 0, "\(full.stdout.suffix(300))")
    #expect(!FileManager.default.fileExists(atPath: root + "/G/gone") && FileManager.default.fileExists(atPath: root + "/G/tiny"))
  }
}
