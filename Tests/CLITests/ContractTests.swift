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

/// Issue 5's contract: `run` on a photo with injected detections into a fresh
/// database as round 1, then `resume`.
struct RunResumeContractTests {
  @Test func runThenResume() throws {
    let dir = try CLIRunner.scratch("runresume")
    #expect(try CLIRunner.run(["synth", "--seed", "3", "--arrows", "3", "--size", "640x480",
                               "--out", dir + "/p.png", "--truth", dir + "/p.json"]).status == 0)
    let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/p.json"))) as? [String: Any])
    let arrows = try #require(truth["arrows"] as? [[String: Any]])
    // iOS stretches 640x480 to 640x640: y scales by 4/3. Boxes in model-input pixels.
    var yaml = ""
    for a in arrows {
      let x = a["pixel_x"] as! Double, y = a["pixel_y"] as! Double
      yaml += "- {cx: \(x), cy: \(y * 4 / 3), w: 12, h: 16, confidence: 0.9}\n"
    }
    let box = (truth["target"] as! [String: Any])["box"] as! [Double]
    yaml += "- {cx: \((box[0] + box[2]) / 2), cy: \((box[1] + box[3]) / 2 * 4 / 3), w: \(box[2] - box[0]), h: \((box[3] - box[1]) * 4 / 3), confidence: 0.95, class: 1}\n"
    try yaml.write(toFile: dir + "/d.yaml", atomically: true, encoding: .utf8)
    let run = try CLIRunner.run(["run", "archery", "--image", dir + "/p.png", "--profile", "ios", "--face", "10_zone", "--rule", "inclusive",
                                 "--detections", dir + "/d.yaml", "--expected-arrows", "3", "--db", dir + "/r.sqlite",
                                 "--round", "1", "--end", "1", "--out", dir + "/result.json"])
    #expect(run.status == 0, "\(run.stderr)")
    let result = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/result.json"))) as? [String: Any])
    let target = try #require(result["target"] as? [String: Any])
    for k in ["center_x", "center_y", "radius_x", "radius_y"] { #expect(target[k] is Double, "\(k)") }
    let detections = try #require(result["detections"] as? [[String: Any]])
    #expect(detections.count == 3)
    for d in detections {
      for k in ["pixel_x", "pixel_y", "normalized_x", "normalized_y", "distance", "confidence", "score", "is_x"] { #expect(d[k] != nil, "\(k)") }
    }
    let confirmed = try #require(result["confirmed"] as? [[String: Any]])
    for c in confirmed {
      for k in ["normalized_x", "normalized_y", "score", "is_x", "was_adjusted"] { #expect(c[k] != nil, "\(k)") }
    }
    // Detected scores agree with the truth (inclusive rule).
    #expect(detections.map { $0["score"] as! Int }.sorted() == arrows.map { $0["score"] as! Int }.sorted())
    let resume = try CLIRunner.run(["resume", "--db", dir + "/r.sqlite", "--round", "1", "--json"])
    #expect(resume.status == 0)
    let state = try #require(JSONSerialization.jsonObject(with: Data(resume.stdout.utf8)) as? [String: Any])
    #expect(state["current_end"] as? Int == 1 && state["current_arrow_number"] as? Int == 4)
    let restored = try #require(state["arrows"] as? [[String: Any]])
    #expect(restored.count == 3 && restored.allSatisfy { $0["score"] != nil && $0["is_x"] != nil && $0["x"] != nil && $0["y"] != nil })
    #expect(state["rescore_changes"] is [Any])
  }
}

/// Issue 7's contract with the shipped card models.
struct SetCardsContractTests {
  static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test func synthThenRunWithShippedModels() throws {
    let dir = try CLIRunner.scratch("setcards")
    let s = try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "4", "--cards", "6", "--size", "640x480",
                               "--out", dir + "/t.png", "--truth", dir + "/t.json"])
    #expect(s.status == 0, "\(s.stderr)")
    let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/t.json"))) as? [String: Any])
    let cards = try #require(truth["cards"] as? [[String: Any]])
    #expect(cards.count == 6 && cards.allSatisfy { c in ["box", "number", "color", "shape", "fill", "label"].allSatisfy { c[$0] != nil } })
    #expect(truth["sets"] is [[Int]])
    let r = try CLIRunner.run(["run", "setcards", "--image", dir + "/t.png", "--out", dir + "/r.json",
                               "--model", Self.repo + "/Models/setcards-detector.onnx", "--classifier", Self.repo + "/Models/setcards-classifier.onnx"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any])
    let found = try #require(result["cards"] as? [[String: Any]])
    #expect(found.count == 6)
    #expect(found.allSatisfy { $0["detection_confidence"] != nil && $0["class_confidence"] != nil && $0["label"] != nil })
    #expect(Set(found.compactMap { $0["label"] as? String }) == Set(cards.compactMap { $0["label"] as? String }))
  }
}
