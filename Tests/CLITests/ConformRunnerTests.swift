import Foundation
import XCTest

/// The runner's contract from outside: expectations, unexpected passes,
/// --fix under CI, shards, repro, exports, bad vectors and misbehaving testees.
final class ConformRunnerTests: XCTestCase {
  var bin: String { "'\(CLIRunner.binary.path)'" }

  func testExpectationsUnexpectedPassAndFixRefusedUnderCI() throws {
    let dir = try CLIRunner.scratch("conform-expect")
    let file = dir + "/known.txt"
    try "# none yet\n\nscore.10_zone.122.centre # pretend it fails\n".write(toFile: file, atomically: true, encoding: .utf8)
    let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "score", "--expectations", file])
    XCTAssertEqual(r.status, 1, "a listed case that passes is an unexpected pass")
    XCTAssertTrue(r.stdout.contains("UNEXPECTED PASS score.10_zone.122.centre"), r.stdout)
    setenv("CI", "true", 1)
    defer { unsetenv("CI") }
    let before = try String(contentsOfFile: file, encoding: .utf8)
    let fix = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--expectations", file, "--fix"])
    XCTAssertEqual(fix.status, 2, fix.stderr)
    XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), before, "the file is untouched")
  }

  func testShardsPartitionTheSelection() throws {
    var total = 0
    for k in 1...3 {
      let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "nms,decode", "--shard", "\(k)/3"])
      XCTAssertEqual(r.status, 0)
      let last = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
      total += Int(last.split(separator: " ")[0]) ?? 0
    }
    let all = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--stages", "nms,decode"])
    XCTAssertEqual("\(total) passed, 0 failed, 0 skipped, 0 errored", all.stdout.split(separator: "\n").last.map(String.init))
  }

  func testReproShowsTheExchange() throws {
    let r = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee --semantics boundary=strict --declare boundary=inclusive",
                               "--repro", "score.10_zone.122.ring1-10.at.px"])
    XCTAssertEqual(r.status, 1, "strict answers 9 on the 10 line")
    XCTAssertTrue(r.stdout.contains("request:  {\"cmd\":\"run\""), r.stdout)
    XCTAssertTrue(r.stdout.contains("\"points\":9"), r.stdout)
  }

  func testExportIsDeterministicRefusesNonEmptyAndRunsBack() throws {
    let dir = try CLIRunner.scratch("conform-export")
    XCTAssertEqual(try CLIRunner.run(["conform", "export", dir + "/a"]).status, 0)
    XCTAssertEqual(try CLIRunner.run(["conform", "export", dir + "/b"]).status, 0)
    let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a/nms/nms.json"))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b/nms/nms.json"))
    XCTAssertEqual(a, b)
    XCTAssertEqual(try CLIRunner.run(["conform", "export", dir + "/a"]).status, 2, "not empty without --force")
    XCTAssertEqual(try CLIRunner.run(["conform", "export", dir + "/a", "--force"]).status, 0)
    let run = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--vectors", dir + "/a", "--stages", "setcards"])
    XCTAssertEqual(run.status, 0, run.stdout.suffix(300) + run.stderr)
  }

  func testBadVectorFilesAreRefusedBeforeAnyCase() throws {
    let dir = try CLIRunner.scratch("conform-badvec")
    XCTAssertEqual(try CLIRunner.run(["conform", "export", dir + "/v"]).status, 0)
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
      XCTAssertEqual(r.status, 2, name)
      XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(name): one line: \(r.stderr)")
      XCTAssertTrue(r.stderr.contains(target.split(separator: "/").last!), "\(name) names the file: \(r.stderr)")
      try original.write(toFile: target, atomically: true, encoding: .utf8)
    }
  }

  func testUnknownDeclaredValueIsAUsageError() throws {
    let script = "echo '{\"ready\":true,\"name\":\"x\",\"stages\":[\"score\"],\"semantics\":{\"boundary\":\"fuzzy\"}}'; cat >/dev/null"
    let r = try CLIRunner.run(["conform", "run", "--testee", script])
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("inclusive, floor, strict, line-cutter"), r.stderr)
  }

  func testATesteeThatCannotStartIsExit2NamingItsStderr() throws {
    let r = try CLIRunner.run(["conform", "run", "--testee", "echo 'no such model file' >&2; exit 3"])
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("no such model file"), r.stderr)
  }
}
