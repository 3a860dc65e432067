import Foundation
import Testing

/// The runner's contract from outside: expectations, unexpected passes,
/// --fix under CI, shards, repro, exports, bad vectors and misbehaving testees.
struct ConformRunnerTests {
  var bin: String { "'\(CLIRunner.binary.path)'" }

  @Test func expectationsUnexpectedPassAndFixRefusedUnderCI() throws {
    let dir = try CLIRunner.scratch("conform-expect")
    let file = dir + "/known.txt"
    try "# none yet\n\nscore.10_zone.122.centre # pretend it fails\n".write(toFile: file, atomically: true, encoding: .utf8)
    let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "score", "--expectations", file])
    #expect(r.status == 1, "a listed case that passes is an unexpected pass")
    #expect(r.stdout.contains("UNEXPECTED PASS score.10_zone.122.centre"), "\(r.stdout)")
    let before = try String(contentsOfFile: file, encoding: .utf8)
    let fix = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--expectations", file, "--fix"], env: ["CI": "true"])
    #expect(fix.status == 2, "\(fix.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == before, "the file is untouched")
  }

  @Test func shardsPartitionTheSelection() throws {
    var total = 0
    for k in 1...3 {
      let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "nms,decode", "--shard", "\(k)/3"])
      #expect(r.status == 0)
      let last = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
      total += Int(last.split(separator: " ")[0]) ?? 0
    }
    let all = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "nms,decode"])
    #expect("\(total) passed, 0 failed, 0 skipped, 0 errored" == all.stdout.split(separator: "\n").last.map(String.init))
  }

  @Test func reproShowsTheExchange() throws {
    let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee --semantics boundary=strict --declare boundary=inclusive",
                               "--repro", "score.10_zone.122.ring1-10.at.px"])
    #expect(r.status == 1, "strict answers 9 on the 10 line")
    #expect(r.stdout.contains("request:  {\"cmd\":\"run\""), "\(r.stdout)")
    #expect(r.stdout.contains("\"points\":9"), "\(r.stdout)")
  }

  @Test func exportIsDeterministicRefusesNonEmptyAndRunsBack() throws {
    let dir = try CLIRunner.scratch("conform-export")
    #expect(try CLIRunner.run(["conform", "export", dir + "/a"]).status == 0)
    #expect(try CLIRunner.run(["conform", "export", dir + "/b"]).status == 0)
    let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a/nms/nms.json"))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b/nms/nms.json"))
    #expect(a == b)
    #expect(try CLIRunner.run(["conform", "export", dir + "/a"]).status == 2, "not empty without --force")
    #expect(try CLIRunner.run(["conform", "export", dir + "/a", "--force"]).status == 0)
    let run = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--vectors", dir + "/a", "--stages", "setcards"])
    #expect(run.status == 0, "\(run.stdout.suffix(300) + run.stderr)")
  }

  @Test func badVectorFilesAreRefusedBeforeAnyCase() throws {
    let dir = try CLIRunner.scratch("conform-badvec")
    #expect(try CLIRunner.run(["conform", "export", dir + "/v"]).status == 0)
    let file = dir + "/v/setcards/setcards.json"
    let good = try String(contentsOfFile: file, encoding: .utf8)
    let bad: [(String, String)] = [
      ("not json", "{"),
      ("NaN", good.replacingOccurrences(of: "\"cards\": [", with: "\"cards\": NaN, \"x\": [")),
      ("no id", good.replacingOccurrences(of: "\"id\": \"setcards.0\",", with: "")),
      ("string number", try String(contentsOfFile: dir + "/v/nms/nms.json", encoding: .utf8)
        .replacingOccurrences(of: "\"iou_threshold\": 0.5", with: "\"iou_threshold\": \"0.5\"")),
    ]
    for (name, text) in bad {
      let target = name == "string number" ? dir + "/v/nms/nms.json" : file
      let original = try String(contentsOfFile: target, encoding: .utf8)
      try text.write(toFile: target, atomically: true, encoding: .utf8)
      let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--vectors", dir + "/v"])
      #expect(r.status == 2, "\(name)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(name): one line: \(r.stderr)")
      #expect(r.stderr.contains(target.split(separator: "/").last!), "\(name) names the file: \(r.stderr)")
      try original.write(toFile: target, atomically: true, encoding: .utf8)
    }
  }

  @Test func unknownDeclaredValueIsAUsageError() throws {
    let script = "echo '{\"ready\":true,\"name\":\"x\",\"stages\":[\"score\"],\"semantics\":{\"boundary\":\"fuzzy\"}}'; cat >/dev/null"
    let r = try CLIRunner.run(["conform", "run", "--testee", script])
    #expect(r.status == 2)
    #expect(r.stderr.contains("inclusive, floor, strict, line-cutter"), "\(r.stderr)")
  }

  @Test func aTesteeThatCannotStartIsExit2NamingItsStderr() throws {
    let r = try CLIRunner.run(["conform", "run", "--testee", "echo 'no such model file' >&2; exit 3"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("no such model file"), "\(r.stderr)")
  }
}

/// `fuzz scoring --testee`: findings only where the testee disagrees with what it declares, shrunk and replayable.
struct DiffFuzzTests {
  var bin: String { "'\(CLIRunner.binary.path)'" }

  @Test func aTruthfulTesteeHasNoFindings() throws {
    let r = try CLIRunner.run(["fuzz", "scoring", "--testee", "\(bin) conform testee --semantics boundary=floor", "--cases", "20000", "--seed", "5"])
    #expect(r.status == 0, "\(r.stdout.suffix(400))")
    #expect(r.stdout.contains("20000 checks"))
  }

  @Test func aWrongDeclarationGivesShrunkReplayableFindings() throws {
    let dir = try CLIRunner.scratch("diff-fuzz")
    let t = "\(bin) conform testee --semantics boundary=floor --declare boundary=inclusive"
    let a = try CLIRunner.run(["fuzz", "scoring", "--testee", t, "--cases", "20000", "--seed", "5", "--face", "10_zone", "--out", dir + "/a"])
    #expect(a.status == 1, "\(a.stderr)")
    let b = try CLIRunner.run(["fuzz", "scoring", "--testee", t, "--cases", "20000", "--seed", "5", "--face", "10_zone", "--out", dir + "/b"])
    let findings = { (s: String) in s.split(separator: "\n").filter { $0.hasPrefix("finding") } }
    #expect(!findings(a.stdout).isEmpty)
    #expect(findings(a.stdout) == findings(b.stdout), "same seed and --cases, same findings")
    let replay = try CLIRunner.run(["conform", "run", "--testee", t, "--vectors", dir + "/a"])
    #expect(replay.status == 1)
    #expect(replay.stdout.hasSuffix("0 passed, \(findings(a.stdout).count) failed, 0 skipped, 0 errored\n"), "\(replay.stdout.suffix(300))")
  }
}
