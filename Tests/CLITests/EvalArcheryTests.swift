import Foundation
import Testing

/// `eval archery --json` and `--photos`: the extra-detection list and the kept photos.
struct EvalArcheryTests {
  static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Models")

  func json(_ r: CLIRunner.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  @Test func perfectDetectorHasNoExtrasAndKeepsEveryPhoto() throws {
    let dir = try CLIRunner.scratch("evalphotos")
    let r = try CLIRunner.run(["eval", "archery", "--images", "2", "--seed", "7000000", "--detector", "truth", "--size", "640x480",
                               "--json", "--photos", dir + "/p"])
    #expect(r.status == 0, "\(r.stderr)")
    let d = try json(r)
    #expect((d["extras"] as? [Any])?.isEmpty == true)
    for k in ["extra_near_arrows", "extra_on_holes", "extra_elsewhere"] { #expect(d[k] as? Int == 0, "\(k)") }
    var arrows = 0
    for i in 0..<2 {
      let png = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/p/eval-\(i).png"))
      #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      // Beside each photo its record: every true arrow, each detection with the arrow it matched.
      let record = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/p/eval-\(i).json")))
        as? [String: Any])
      #expect(record["image"] as? Int == i && record["width"] as? Int == 640 && record["height"] as? Int == 480)
      let truth = try #require(record["truth"] as? [[String: Any]]), found = try #require(record["detections"] as? [[String: Any]])
      let matched = found.compactMap { $0["truth"] as? Int }
      #expect(!found.isEmpty && matched.count == found.count, "a perfect detector's detections each match an arrow")
      #expect(Set(matched).count == matched.count && matched.allSatisfy(truth.indices.contains))
      #expect(truth.allSatisfy { $0["x"] is Double && $0["label"] is String } && found.allSatisfy { $0["confidence"] is Double })
      #expect((record["shafts"] as? [[Double]])?.allSatisfy { $0.count == 4 } == true)
      #expect(record["face"] is [String: Any], "the fitted face outline")
      arrows += truth.count
    }
    #expect(arrows == d["truth_arrows"] as? Int)
  }

  /// `--shaft-check on` only takes points away: every detection it keeps is one
  /// the refiner alone reports, at the same place and probability; here it drops some.
  @Test func shaftCheckKeepsASubsetOfTheRefinersPoints() throws {
    let dir = try CLIRunner.scratch("evalshafts")
    let base = ["eval", "archery", "--images", "3", "--seed", "7100000", "--style", "realistic", "--profile", "best", "--json"]
    let off = try CLIRunner.run(base + ["--photos", dir + "/off"]), on = try CLIRunner.run(base + ["--shaft-check", "on", "--photos", dir + "/on"])
    #expect(off.status == 0 && on.status == 0, "\(off.stderr)\(on.stderr)")
    var dropped = 0
    for i in 0..<3 {
      func points(_ d: String) throws -> [[Double]] {
        let record = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(d)/eval-\(i).json")))
          as? [String: Any])
        return try #require(record["detections"] as? [[String: Any]]).map { [$0["x"] as? Double ?? .nan, $0["y"] as? Double ?? .nan, $0["confidence"] as? Double ?? .nan] }
      }
      let all = try points("off"), kept = try points("on")
      #expect(kept.allSatisfy(all.contains), "photo \(i)")
      dropped += all.count - kept.count
    }
    #expect(dropped > 0)
    let extras = { (r: CLIRunner.Result) in try self.json(r)["extras"] as? [Any] }
    #expect(try (extras(on)?.count ?? 0) <= (extras(off)?.count ?? 0))
  }

  /// `--style realistic` evaluates realistic scenes; every run reports the
  /// impact error on the face in mm (a perfect detector: zero, all within 2 mm).
  @Test func realisticStyleAndMillimetres() throws {
    let base = ["eval", "archery", "--images", "2", "--seed", "7000000", "--size", "640x480", "--json"]
    let truth = try json(try CLIRunner.run(base + ["--detector", "truth", "--style", "realistic"]))
    #expect(truth["style"] as? String == "realistic")
    #expect((truth["mean_error_mm"] as? Double).map { $0 < 0.01 } == true && truth["within_2mm"] as? Double == 1)
    let classic = try json(try CLIRunner.run(base + ["--detector", "truth"]))
    #expect(classic["style"] as? String == "classic" && classic["within_2mm"] as? Double == 1)
    let bad = try CLIRunner.run(base + ["--style", "realism"])
    #expect(bad.status == 2 && bad.stderr.contains("realism"))
  }

  /// With the shipped detector and refiner every unmatched detection is listed,
  /// and the counts add up to detections − matched.
  @Test func extrasAccountForEveryUnmatchedDetection() throws {
    let r = try CLIRunner.run(["eval", "archery", "--images", "3", "--seed", "7100000", "--json",
                               "--model", Self.models.appendingPathComponent("arrow-detector.onnx").path,
                               "--refiner", Self.models.appendingPathComponent("arrow-refiner.onnx").path])
    #expect(r.status == 0, "\(r.stderr)")
    let d = try json(r)
    let extras = try #require(d["extras"] as? [[String: Any]])
    let detections = try #require(d["detections"] as? Int), matched = try #require(d["matched"] as? Int)
    #expect(extras.count == detections - matched)
    #expect(!extras.isEmpty, "these photos hold shaft crossings the refiner answers on")
    var counts: [String: Int] = [:]
    for e in extras {
      for k in ["image", "x", "y", "confidence", "arrow_px"] { #expect(e[k] != nil, "\(k)") }
      counts[e["kind"] as? String ?? "?", default: 0] += 1
    }
    #expect(counts["near_arrow", default: 0] == d["extra_near_arrows"] as? Int)
    #expect(counts["on_hole", default: 0] == d["extra_on_holes"] as? Int)
    #expect(counts["elsewhere", default: 0] == d["extra_elsewhere"] as? Int)
    #expect(Set(counts.keys).isSubset(of: ["near_arrow", "on_hole", "elsewhere"]))
    // What each lies on, across the kinds: a nock or fletching, a shaft, or neither.
    let on = extras.map { $0["on"] as? String }
    #expect(on.filter { $0 == "nock" }.count == d["extra_on_nocks"] as? Int)
    #expect(on.filter { $0 == "shaft" }.count == d["extra_on_shafts"] as? Int)
    #expect(on.allSatisfy { $0 == nil || ["nock", "shaft"].contains($0!) })
    // The text line ends with the same counts.
    let text = try CLIRunner.run(["eval", "archery", "--images", "3", "--seed", "7100000",
                                  "--model", Self.models.appendingPathComponent("arrow-detector.onnx").path,
                                  "--refiner", Self.models.appendingPathComponent("arrow-refiner.onnx").path])
    let nocks = d["extra_on_nocks"] as? Int ?? -1, shafts = d["extra_on_shafts"] as? Int ?? -1
    #expect(text.stdout.contains("; \(extras.count) extras (\(nocks) on nocks, \(shafts) on shafts)"), "\(text.stdout)")
  }
}
