import Foundation
import Testing

/// The Contract section, exercised from outside exactly as written.
struct ContractTests {
  func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func scoreJSONHasTheContractKeys() throws {
    let r = try CLIRunner.run(["score", "--face", "10_zone", "--diameter-cm", "122", "--rule", "inclusive",
                               "--x", "0", "--y", "0.05", "--json"])
    #expect(r.status == 0)
    let o = try object(r.stdout)
    #expect(o["score"] as? Int == 10)
    #expect(o["x_ring"] as? Bool == true)
    #expect(o["ring"] as? Int == 0)
    #expect(o["distance"] as? Double == 0.05)
  }

  @Test func scoreOptionalFlagsChangeTheVerdict() throws {
    let f32 = try object(CLIRunner.run(["score", "--face", "10_zone", "--diameter-cm", "122", "--rule", "inclusive",
                                        "--x", "0", "--y", "0.05", "--precision", "float32", "--json"]).stdout)
    #expect(f32["x_ring"] as? Bool == false)
    let cutter = try object(CLIRunner.run(["score", "--face", "10_zone", "--diameter-cm", "122", "--rule", "line-cutter",
                                           "--x", "0", "--y", "0.104", "--arrow-mm", "5.5", "--json"]).stdout)
    #expect(cutter["score"] as? Int == 10)
  }

  @Test func synthRandomSceneWritesImageAndTruth() throws {
    let dir = try CLIRunner.scratch("synth")
    let r = try CLIRunner.run(["synth", "--face", "10_zone", "--seed", "7", "--arrows", "6", "--size", "320x240",
                               "--out", dir + "/a.png", "--truth", dir + "/a.json"])
    #expect(r.status == 0, "\(r.stderr)")
    let truth = try object(String(contentsOfFile: dir + "/a.json", encoding: .utf8))
    let arrows = try #require(truth["arrows"] as? [[String: Any]])
    #expect(arrows.count == 6)
    for a in arrows {
      for key in ["pixel_x", "pixel_y", "normalized_x", "normalized_y", "score", "is_x"] { #expect(a[key] != nil) }
    }
    let target = try #require(truth["target"] as? [String: Any])
    #expect(target["center_x"] is Double && target["center_y"] is Double)
    let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // Same command again: byte-identical files.
    _ = try CLIRunner.run(["synth", "--face", "10_zone", "--seed", "7", "--arrows", "6", "--size", "320x240",
                           "--out", dir + "/b.png", "--truth", dir + "/b.json"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/b.png")) == png)
  }

  @Test func synthFromScenarioFile() throws {
    let dir = try CLIRunner.scratch("scenario")
    try "face: 5_zone\nseed: 2\nsize: 200x150\narrows:\n  - {x: 0, y: 0.1}\n".write(toFile: dir + "/s.yaml", atomically: true, encoding: .utf8)
    let r = try CLIRunner.run(["synth", "--scenario", dir + "/s.yaml", "--out", dir + "/s.png", "--truth", dir + "/s.json"])
    #expect(r.status == 0, "\(r.stderr)")
    let arrows = try #require(object(String(contentsOfFile: dir + "/s.json", encoding: .utf8))["arrows"] as? [[String: Any]])
    #expect(arrows.count == 1 && arrows[0]["score"] as? Int == 9)
  }
}
