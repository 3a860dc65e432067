import Foundation
import Testing

/// Every bad input: one line on stderr naming the value, exit status 2,
/// nothing written.
struct ErrorPathTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let args: [String]
    let mentions: String
    var testDescription: String { args.joined(separator: " ") }
  }

  static let score = ["score", "--x", "0", "--y", "0"]
  static let cases: [Case] = [
    Case(args: ["score", "--face", "dartboard", "--x", "0", "--y", "0"], mentions: "dartboard"),
    Case(args: score + ["--rule", "nearest"], mentions: "nearest"),
    Case(args: score + ["--precision", "half"], mentions: "half"),
    Case(args: ["score", "--x", "nan", "--y", "0"], mentions: "nan"),
    Case(args: ["score", "--x", "0", "--y", "inf"], mentions: "inf"),
    Case(args: score + ["--diameter-cm", "-122"], mentions: "-122"),
    Case(args: score + ["--diameter-cm", "0"], mentions: "0"),
    Case(args: score + ["--arrow-mm", "-1"], mentions: "-1"),
    Case(args: ["score", "--x", "abc", "--y", "0"], mentions: "abc"),
    Case(args: ["synth", "--size", "0x960", "--out", "OUT/a.png"], mentions: "0"),
    Case(args: ["synth", "--touching-share", "0.9", "--out", "OUT/a.png"], mentions: "0.9"),
    Case(args: ["synth", "--size", "-5x960", "--out", "OUT/a.png"], mentions: "-5"),
    Case(args: ["synth", "--size", "20000x960", "--out", "OUT/a.png"], mentions: "20000"),
    Case(args: ["synth", "--size", "bigxsmall", "--out", "OUT/a.png"], mentions: "bigxsmall"),
    Case(args: ["synth", "--face", "dartboard", "--out", "OUT/a.png"], mentions: "dartboard"),
    Case(args: ["synth", "--arrows", "-3", "--size", "64x64", "--out", "OUT/a.png"], mentions: "-3"),
    Case(args: ["synth", "--diameter-cm", "nan", "--size", "64x64", "--out", "OUT/a.png"], mentions: "nan"),
    Case(args: ["synth", "--size", "64x64", "--out", "OUT/missing/a.png", "--truth", "OUT/a.json"], mentions: "missing"),
    Case(args: ["synth", "--size", "64x64", "--out", "OUT/a.png", "--truth", "OUT/nowhere/a.json"], mentions: "nowhere"),
    Case(args: ["synth", "--scenario", "OUT/none.yaml", "--out", "OUT/a.png"], mentions: "none.yaml"),
    Case(args: ["synth", "--dataset", "OUT/d", "--count", "1", "--size", "64x64", "--impact-box", "huge"], mentions: "huge"),
    Case(args: ["synth", "--dataset", "OUT/d", "--count", "1", "--size", "64x64", "--faces", "10_zone,dartboard"], mentions: "dartboard"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--impact-box", "tiny"], mentions: "tiny"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--merge-px", "-2"], mentions: "-2"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--trust-px", "100"], mentions: "100"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--double-px", "nan"], mentions: "--double-px nan is out of range"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--double-px", "3"], mentions: "--double-px needs a refiner"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--shaft-check", "on"], mentions: "--shaft-check on needs a refiner"),
    Case(args: ["eval", "archery", "--images", "1", "--profile", "best", "--shaft-check", "on", "--shaft-keep", "1.5"],
         mentions: "--shaft-keep 1.5 is out of range"),
    Case(args: ["eval", "archery", "--images", "1", "--profile", "best", "--shaft-keep", "0.3"], mentions: "--shaft-keep needs the shaft check"),
    Case(args: ["eval", "archery", "--images", "1", "--profile", "best", "--shaft-check", "maybe"], mentions: "maybe"),
    Case(args: ["run", "archery", "--image", "x.png", "--shaft-check", "on"], mentions: "--shaft-check on needs a refiner"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--views", "3"], mentions: "--views was removed: use --refiner-views N"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--refiner-views", "9"], mentions: "--refiner-views 9 is out of range: expected 1...8"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--face", "nope"], mentions: "nope"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--line-mm", "-1"], mentions: "-1"),
    Case(args: ["run", "archery", "--image", "OUT/none.png", "--line-mm", "50", "--out", "OUT/r.json"], mentions: "50"),
    Case(args: ["run", "archery", "--image", "OUT/none.png", "--refiner-views", "0", "--out", "OUT/r.json"], mentions: "--refiner-views 0 is out of range"),
    Case(args: ["run", "archery", "--image", "OUT/none.png", "--pair-verifier", "p.onnx", "--out", "OUT/r.json"], mentions: "--pair-verifier was removed: the shipped refiner's own partner channel"),
    Case(args: ["eval", "archery", "--images", "1", "--detector", "truth", "--pair-verifier-accept", "0.5"], mentions: "--pair-verifier-accept was removed"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--diameter-cm", "-3", "--out", "OUT/r.json"], mentions: "--diameter-cm -3.0 is out of range"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--diameter-cm", "nan", "--out", "OUT/r.json"], mentions: "--diameter-cm nan"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--clock", "yesterday", "--out", "OUT/r.json"], mentions: "--clock 'yesterday' is not an ISO 8601 time"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--end", "3", "--out", "OUT/r.json"], mentions: "--end needs --db"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--coordinates", "seed", "--out", "OUT/r.json"], mentions: "--coordinates needs --db"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--refiner-views", "2", "--out", "OUT/r.json"], mentions: "--refiner-views needs a refiner"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--detections", "d.yaml", "--model", "m.onnx", "--out", "OUT/r.json"], mentions: "--detections and --model exclude each other"),
    Case(args: ["synth", "--seed", "1", "--cards", "5", "--out", "OUT/p.png"], mentions: "--cards needs --kind setcards"),
    Case(args: ["eval", "archery", "--images", "1", "--accept", "0.5"], mentions: "--accept needs a refiner"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--threads", "inf"], mentions: "'--threads <threads>': expected a whole number"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--diameter-cm", "wide"], mentions: "'--diameter-cm <diameter-cm>': expected a number"),
    Case(args: ["run", "archery", "--image", "OUT/p.png", "--clock", "2026-13-01T09:00:00Z", "--out", "OUT/r.json"], mentions: "--clock '2026-13-01T09:00:00Z'"),
  ]

  /// Boxes that cannot be boxes are refused where the file says so, and nothing is written.
  @Test(arguments: ["{cx: 100, cy: 100, w: -5, h: 10, confidence: 0.9}", "{cx: 100, cy: 100, w: 5, h: 10, confidence: 1.5}",
                    "{cx: .nan, cy: 100, w: 5, h: 10, confidence: 0.5}"])
  func impossibleBoxesAreRefused(box: String) throws {
    let input = try CLIRunner.scratch("boxes-in-\(abs(box.hashValue))"), out = try CLIRunner.scratch("boxes-out-\(abs(box.hashValue))")
    #expect(try CLIRunner.run(["synth", "--size", "320x240", "--out", input + "/p.png"]).status == 0)
    try "- \(box)\n".write(toFile: input + "/b.yaml", atomically: true, encoding: .utf8)
    let r = try CLIRunner.run(["run", "archery", "--image", input + "/p.png", "--detections", input + "/b.yaml", "--out", out + "/r.json"])
    #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("b.yaml:1:"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "something was written")
  }

  @Test(arguments: cases)
  func failsCleanly(c: Case) throws {
    let dir = try CLIRunner.scratch("err-\(abs(c.testDescription.hashValue))")
    let r = try CLIRunner.run(c.args.map { $0.replacingOccurrences(of: "OUT", with: dir) })
    #expect(r.status == 2)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "stderr: \(r.stderr)")
    #expect(r.stderr.contains(c.mentions), "stderr: \(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "something was written")
  }

  @Test func malformedScenarioNamesFileLineAndColumn() throws {
    let dir = try CLIRunner.scratch("badyaml")
    try "face: 10_zone\nscene:\n  noize: 3\n".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
    let r = try CLIRunner.run(["synth", "--scenario", dir + "/bad.yaml", "--out", dir + "/a.png"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("bad.yaml:3:3: unknown key 'scene.noize'"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/a.png"))
  }

  @Test func helpExitsZero() throws {
    let r = try CLIRunner.run(["--help"])
    #expect(r.status == 0 && r.stdout.contains("synth") && r.stdout.contains("score"))
  }
}
