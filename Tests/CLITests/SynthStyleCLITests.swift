import Foundation
import Testing

/// `synth --style`: the realistic looks of a Set table and of a target scene,
/// each refused where it means nothing.
struct SynthStyleCLITests {
  @Test func realismTableWritesItsStyleAndDistractorsIntoTheTruth() throws {
    let dir = try CLIRunner.scratch("synth-style")
    let r = try CLIRunner.run(["synth", "--kind", "setcards", "--style", "realism", "--seed", "2", "--size", "480x360",
                               "--out", dir + "/t.png", "--truth", dir + "/t.json"])
    #expect(r.status == 0, "\(r.stderr)")
    let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/t.json"))) as? [String: Any])
    #expect(truth["style"] as? String == "realism")
    #expect(truth["distractors"] is [Any])
    #expect((truth["cards"] as? [Any])?.isEmpty == false)
  }

  @Test func realisticTargetWritesItsStyleIntoTheTruth() throws {
    let dir = try CLIRunner.scratch("synth-style-target")
    let r = try CLIRunner.run(["synth", "--style", "realistic", "--seed", "4", "--size", "480x360",
                               "--out", dir + "/t.png", "--truth", dir + "/t.json"])
    #expect(r.status == 0, "\(r.stderr)")
    let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/t.json"))) as? [String: Any])
    #expect(truth["style"] as? String == "realistic")
    let look = try #require(truth["realistic"] as? [String: Any])
    for k in ["printed", "mount", "backdrop", "grass", "contrast", "saturation"] { #expect(look[k] != nil, "\(k)") }
  }

  @Test(arguments: [["--kind", "target", "--style", "realism"], ["--kind", "setcards", "--style", "photoreal"],
                    ["--kind", "setcards", "--style", "realistic"]])
  func misplacedOrUnknownStyleExitsTwoAndWritesNothing(args: [String]) throws {
    let dir = try CLIRunner.scratch("synth-style-bad")
    let r = try CLIRunner.run(["synth"] + args + ["--out", dir + "/t.png"])
    #expect(r.status == 2)
    #expect(r.stderr.contains(args[3]) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/t.png"))
  }
}
