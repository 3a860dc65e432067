import Foundation
import Testing

/// A user's own photos: JPEG and HEIC read by content, turned upright, drawn
/// as an overlay; models missing or broken are loud; defaults come from the
/// installed product, not the working directory.
struct OwnPhotoTests {
  static let fixtures: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast(2)  // CLITests/OwnPhotoTests.swift
    return parts.joined(separator: "/") + "/CanvasTests/Fixtures"
  }()

  /// `image.width`×`image.height` of a result file.
  static func size(_ path: String) throws -> [Int] {
    let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
    let image = o?["image"] as? [String: Any]
    return [image?["width"] as? Int ?? -1, image?["height"] as? Int ?? -1]
  }

  /// Stored 64×48; tag 6 shows them turned a quarter (48×64), HEIC's container already turned.
  @Test(arguments: [("quadrants-exif6.jpg", [48, 64]), ("quadrants.heic", [64, 48]), ("quadrants-exif6.png", [48, 64])])
  func photosInEveryFormatRunWithAnOverlay(name: String, upright: [Int]) throws {
    let dir = try CLIRunner.scratch("photo-\(name)")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/" + name, "--overlay", dir + "/o.png",
                               "--out", dir + "/r.json"], cwd: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.size(dir + "/r.json") == upright)
    #expect(FileManager.default.fileExists(atPath: dir + "/o.png"))
    let ignored = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/" + name, "--orientation", "ignore",
                                     "--out", dir + "/i.json"], cwd: dir)
    #expect(ignored.status == 0)
    #expect(try Self.size(dir + "/i.json") == [64, 48], "ignore: the stored pixels")
  }

  /// `--shaft-check on` is named in the result's profile (and absent without it).
  @Test func shaftCheckIsRecordedInTheProfile() throws {
    let dir = try CLIRunner.scratch("photo-shafts")
    _ = try CLIRunner.run(["synth", "--face", "10_zone", "--seed", "7", "--arrows", "6", "--size", "640x480", "--out", dir + "/p.png"])
    func profile(_ extra: [String]) throws -> [String: Any]? {
      let r = try CLIRunner.run(["run", "archery", "--image", dir + "/p.png", "--profile", "best", "--out", dir + "/r.json"] + extra)
      #expect(r.status == 0, "\(r.stderr)")
      let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
      return o?["profile"] as? [String: Any]
    }
    #expect((try profile(["--shaft-check", "on"])?["shaft_check"] as? [String: Any])?["keep_above"] as? Double == 0.3)
    #expect(try profile([])?["shaft_check"] == nil)
  }

  @Test(arguments: ["truncated.jpg", "truncated.heic", "notes.txt"])
  func badPhotosAreUsageErrorsNamingTheFile(name: String) throws {
    let dir = try CLIRunner.scratch("badphoto-\(name)")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/" + name, "--out", dir + "/r.json"])
    #expect(r.status == 2 && r.stderr.contains(name), "\(r.stderr)")
    #expect(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
  }

  @Test func brokenModelsAreUsageErrors() throws {
    let dir = try CLIRunner.scratch("badmodel")
    try Data([0x08, 0x07, 0x12]).write(to: URL(fileURLWithPath: dir + "/cut.onnx"))
    let photo = Self.fixtures + "/quadrants.png"
    for model in [dir + "/missing.onnx", dir + "/cut.onnx"] {
      let r = try CLIRunner.run(["run", "archery", "--image", photo, "--model", model, "--out", dir + "/r.json"])
      #expect(r.status == 2 && r.stderr.contains(model), "\(model): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
    }
  }

  /// Run from another folder, the shipped detector is still found (it is beside the executable).
  @Test func theShippedDetectorIsFoundFromAnyFolder() throws {
    let dir = try CLIRunner.scratch("elsewhere")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/quadrants.jpg", "--out", dir + "/r.json"], cwd: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
    #expect(o?["candidates"] as? Int == 8400, "the detector ran")
  }

  /// `model list` says where each default was found, from any folder; an empty
  /// `BULLSEYE_MODELS` folder makes every default missing: exit 2, naming it.
  @Test func modelListAndTheOverrideFolder() throws {
    let dir = try CLIRunner.scratch("modellist")
    let found = try CLIRunner.run(["model", "list"], cwd: dir)
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("arrow-detector.onnx: /") && found.stdout.contains("images [1, 3, 640, 640]"), "\(found.stdout)")
    let empty = try CLIRunner.run(["model", "list"], env: ["BULLSEYE_MODELS": dir])
    #expect(empty.status == 2 && empty.stdout.contains("NOT FOUND") && empty.stdout.contains("BULLSEYE_MODELS=\(dir)"), "\(empty.stdout)")
    let run = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/quadrants.png", "--out", dir + "/r.json"], env: ["BULLSEYE_MODELS": dir])
    #expect(run.status == 2 && run.stderr.contains("BULLSEYE_MODELS=\(dir)"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
    // The override points at a folder with the models: they are read from there.
    let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/Models"
    let there = try CLIRunner.run(["model", "list", "--json"], env: ["BULLSEYE_MODELS": models])
    #expect(there.status == 0 && there.stdout.contains("\"path\": \"\(models)/arrow-detector.onnx\""), "\(there.stdout)")
  }

  /// A picture with no face in it (a drawing of boxes and one circle) is an answer: exit 0,
  /// target null, no arrows, and a warning on stderr — never a confident wrong ellipse.
  @Test func aPictureWithoutATargetGivesTargetNull() throws {
    let dir = try CLIRunner.scratch("notarget")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.fixtures + "/lines-and-circle.png", "--out", dir + "/r.json"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("warning: no target face found") && r.stderr.contains("ring agreement"), "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
    #expect(o?["target"] is NSNull)
    #expect((o?["detections"] as? [Any])?.isEmpty == true)
  }

  /// A table of Set cards: the detector calls a squiggle a face and the ring
  /// edges fit a small ellipse round it, too small for its rings to be judged
  /// 12 px apart; read again at 4 px it shows none, so no target and no arrows.
  @Test func aCardTableGivesTargetNull() throws {
    let dir = try CLIRunner.scratch("cardtable")
    let synth = try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "3", "--out", dir + "/cards.png"])
    #expect(synth.status == 0, "\(synth.stderr)")
    let r = try CLIRunner.run(["run", "archery", "--image", dir + "/cards.png", "--threads", "1", "--out", dir + "/r.json"])
    #expect(r.status == 0 && r.stderr.contains("rings do not show at"), "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
    #expect(o?["target"] is NSNull)
    #expect((o?["detections"] as? [Any])?.isEmpty == true)
  }
}
