import Foundation
import Testing

/// Outputs never destroy inputs or each other, devices stay devices, and a
/// model given for the wrong job is refused by name before anything runs.
struct OutputSafetyTests {
  let fm = FileManager.default
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
  static let photo = root + "/Tests/CanvasTests/Fixtures/quadrants.png"

  /// One line on stderr, exit 2, and `text` in it.
  static func refused(_ r: CLIRunner.Result, saying text: String) -> Bool {
    r.status == 2 && r.stderr.contains(text) && r.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1
  }

  @Test func anOutputThatIsAnInputOrAnotherOutputIsRefused() throws {
    let dir = try CLIRunner.scratch("same-path")
    try fm.copyItem(atPath: Self.photo, toPath: dir + "/in.png")
    let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.png"))
    let over = try CLIRunner.run(["run", "archery", "--image", dir + "/in.png", "--out", dir + "/in.png"], cwd: dir)
    #expect(Self.refused(over, saying: "the same file as --image"), "\(over.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/in.png")) == before, "the photo is untouched")
    // The same file through another spelling of its path.
    let both = try CLIRunner.run(["run", "archery", "--image", "in.png", "--out", "r.json", "--overlay", "./r.json"], cwd: dir)
    #expect(Self.refused(both, saying: "the same file as --out"), "\(both.stderr)")
    let cards = try CLIRunner.run(["run", "setcards", "--image", "in.png", "--out", "in.png"], cwd: dir)
    #expect(Self.refused(cards, saying: "the same file as --image"), "\(cards.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["in.png"])
  }

  @Test(arguments: ["0", "-1", "99999999999999999"])
  func roundIdsOutOfRangeAreRefused(round: String) throws {
    let dir = try CLIRunner.scratch("round-\(round)")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.photo, "--out", dir + "/r.json", "--db", dir + "/d.sqlite", "--round", round])
    #expect(r.status == 2 && r.stderr.contains("--round"), "\(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir).isEmpty)
  }

  /// No target in the picture: exit 0 with the result; a database that did not exist is not made.
  @Test func aPhotoWithoutATargetAndANewDatabase() throws {
    let dir = try CLIRunner.scratch("notarget-db")
    let drawing = Self.root + "/Tests/CanvasTests/Fixtures/lines-and-circle.png"
    let r = try CLIRunner.run(["run", "archery", "--image", drawing, "--out", dir + "/r.json", "--db", dir + "/d.sqlite"])
    #expect(r.status == 0 && r.stderr.contains("warning:"), "\(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["r.json"])
  }

  /// `/dev/full` refuses every write: the command fails, and the device is still a device.
  @Test(arguments: [["synth", "--kind", "setcards", "--seed", "1", "--out", "/dev/full"],
                    ["model", "run", root + "/Models/setcards-classifier.onnx", "--image", photo, "--output", "/dev/full"]])
  func aFullDeviceIsAnErrorAndStaysADevice(args: [String]) throws {
    guard (try? fm.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType) == .typeCharacterSpecial else { return }
    let r = try CLIRunner.run(args)
    #expect(r.status == 2 && r.stderr.contains("/dev/full"), "\(r.stderr)")
    #expect(try fm.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType == .typeCharacterSpecial)
  }

  /// Each model flag checks the model's declared interface and names the file.
  @Test(arguments: [
    (["run", "archery", "--model", "setcards-detector.onnx"], "[1, 6, anchors]"),
    (["run", "archery", "--refiner", "arrow-detector.onnx"], "[1, 3, 96, 96]"),
    (["run", "setcards", "--model", "setcards-classifier.onnx"], "[1, 3, 640, 640]"),
    (["run", "setcards", "--classifier", "arrow-refiner.onnx"], "[1, 3, 224, 224]"),
  ])
  func aModelForAnotherJobIsRefusedByName(args: [String], expected: String) throws {
    let dir = try CLIRunner.scratch("wrongmodel-\(args[1])-\(args[2])")
    let model = Self.root + "/Models/" + args[3]
    let r = try CLIRunner.run(Array(args[0...2]) + [model, "--image", Self.photo, "--out", dir + "/r.json"])
    #expect(Self.refused(r, saying: model) && r.stderr.contains(expected), "\(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir).isEmpty)
  }

  @Test func aCutModelIsNamedByEveryCommand() throws {
    let dir = try CLIRunner.scratch("cutmodel")
    let cut = dir + "/cut.onnx"
    try Data(try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Models/setcards-classifier.onnx")).prefix(100)).write(to: URL(fileURLWithPath: cut))
    for args in [["run", "setcards", "--image", Self.photo, "--classifier", cut, "--out", dir + "/r.json"],
                 ["model", "run", cut, "--image", Self.photo, "--output", dir + "/o.npy"],
                 ["model", "inspect", cut]] {
      let r = try CLIRunner.run(args)
      #expect(Self.refused(r, saying: cut), "\(args): \(r.stderr)")
    }
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["cut.onnx"])
  }

  /// A HEIC whose container turns it: `apply` reads it turned, `ignore` as coded.
  @Test func heicUnderIgnoreIsTheCodedImage() throws {
    let dir = try CLIRunner.scratch("heic-ignore")
    let heic = Self.root + "/Tests/CanvasTests/Fixtures/quadrants-rot.heic"
    var sizes: [String: [Int]] = [:]
    for o in ["apply", "ignore"] {
      let r = try CLIRunner.run(["run", "archery", "--image", heic, "--orientation", o, "--out", dir + "/\(o).json"])
      #expect(r.status == 0, "\(r.stderr)")
      sizes[o] = try OwnPhotoTests.size(dir + "/\(o).json")
    }
    #expect(sizes["apply"] == sizes["ignore"].map { [$0[1], $0[0]] }, "\(sizes)")
  }

  /// `bench photo` reports the pipeline's own stages, the refiner's under `best`.
  @Test func benchPhotoBreaksThePipelineIntoStages() throws {
    let r = try CLIRunner.run(["bench", "photo", "--image", Self.root + "/Tests/CanvasTests/Fixtures/quadrants.jpg", "--repeat", "1",
                               "--threads", "1", "--profile", "best", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let stages = (o?["pipeline_stages_ms"] as? [String: Any]).map { Set($0.keys) }
    #expect(stages?.isSuperset(of: ["detect", "refine", "locate"]) == true, "\(r.stdout)")
  }

  /// Without `--out` the result is standard output's, and the overlay alone is a file.
  @Test func withoutOutTheResultGoesToStandardOutput() throws {
    let dir = try CLIRunner.scratch("stdout")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.photo, "--overlay", "o.png"], cwd: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    #expect(o?["image"] != nil, "\(r.stdout.prefix(200))")
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["o.png"])
  }

  /// An end with more confirmed arrows than its round's arrows per end could never
  /// be resumed: refused, and the database stays as it was (here: not made).
  @Test func anEndLargerThanItsRoundIsRefused() throws {
    let dir = try CLIRunner.scratch("end-size")
    let synth = try CLIRunner.run(["synth", "--seed", "7", "--arrows", "7", "--out", "p.png"], cwd: dir)
    #expect(synth.status == 0, "\(synth.stderr)")
    let r = try CLIRunner.run(["run", "archery", "--image", "p.png", "--expected-arrows", "2", "--db", "d.sqlite", "--out", "r.json"], cwd: dir)
    #expect(Self.refused(r, saying: "more than round 1's 2 per end"), "\(r.stderr)")
    #expect(r.stderr.contains("'d.sqlite'"), "the user's database is named, not its staged copy: \(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["p.png"])
  }

  /// synth and model run refuse outputs that are their inputs, as run does; a hard
  /// link to an input is the same file.
  @Test func everyCommandRefusesToWriteOverItsInputs() throws {
    let dir = try CLIRunner.scratch("same-inputs")
    try fm.copyItem(atPath: Self.root + "/Scenarios/archery/drag-delta.yaml", toPath: dir + "/sc.yaml")
    try fm.copyItem(atPath: Self.root + "/Models/setcards-classifier.onnx", toPath: dir + "/m.onnx")
    try fm.copyItem(atPath: Self.photo, toPath: dir + "/in.png")
    try fm.linkItem(atPath: dir + "/in.png", toPath: dir + "/hard.png")
    for (args, text) in [
      (["synth", "--scenario", "sc.yaml", "--out", "sc.yaml", "--truth", "t.json"], "the same file as --scenario"),
      (["synth", "--seed", "1", "--out", "p.png", "--truth", "p.png"], "the same file as --out"),
      (["model", "run", "m.onnx", "--image", "in.png", "--output", "m.onnx"], "the same file as the model"),
      (["run", "archery", "--image", "in.png", "--overlay", "hard.png"], "the same file as --image"),
    ] {
      let r = try CLIRunner.run(args, cwd: dir)
      #expect(Self.refused(r, saying: text), "\(args): \(r.stderr)")
    }
    #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == ["hard.png", "in.png", "m.onnx", "sc.yaml"])
  }

  /// A detector that loads but cannot serve: no anchors, sides of 0, or outputs
  /// that are not numbers. Exit 2 naming it, nothing written.
  @Test(arguments: [("no-anchor-detector.onnx", "with at least one anchor"), ("zero-side-detector.onnx", "with sides of 1 or more"),
                    ("non-finite-detector.onnx", "failed: output holds 2 non-finite values")])
  func aDetectorThatCannotServeIsRefused(name: String, text: String) throws {
    let dir = try CLIRunner.scratch("detector-\(name)")
    let r = try CLIRunner.run(["run", "archery", "--image", Self.photo, "--model", Self.root + "/Tests/ModelFixtures/" + name,
                               "--out", dir + "/r.json", "--overlay", dir + "/o.png"])
    #expect(Self.refused(r, saying: text) && r.stderr.contains(name), "\(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir).isEmpty)
  }

  /// A round scored on one face takes no end scored on another.
  @Test func anEndOnAnotherFaceIsRefused() throws {
    let dir = try CLIRunner.scratch("other-face")
    let sim = try CLIRunner.run(["simulate-round", "--db", "n.sqlite", "--ends", "2", "--arrows-per-end", "6", "--face", "nfaa_5_spot"], cwd: dir)
    #expect(sim.status == 0, "\(sim.stderr)")
    #expect(try CLIRunner.run(["synth", "--seed", "7", "--out", "p.png"], cwd: dir).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/n.sqlite"))
    let r = try CLIRunner.run(["run", "archery", "--image", "p.png", "--db", "n.sqlite", "--round", "1", "--out", "r.json"], cwd: dir)
    #expect(Self.refused(r, saying: "round 1 is scored on face nfaa_5_spot, this run on 10_zone"), "\(r.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/n.sqlite")) == before)
  }

  /// verify's folders: a report inside the goldens or the scenario tree, a golden
  /// "folder" that is a file and a scenario root that is not there are usage errors.
  @Test func verifyChecksItsFolders() throws {
    let dir = try CLIRunner.scratch("verify-folders")
    FileManager.default.createFile(atPath: dir + "/afile", contents: Data())
    let scenario = Self.root + "/Scenarios/archery/drag-delta.yaml"
    for (args, text) in [
      (["verify", scenario, "--golden", Self.root + "/Golden", "--report", Self.root + "/Golden/drag-delta"], "lies inside --golden"),
      (["verify", scenario, "--golden", dir + "/afile"], "is a file: expected a folder of goldens"),
      (["verify", scenario, "--scenario-root", dir + "/none"], "is not a folder: expected the scenario tree"),
    ] {
      let r = try CLIRunner.run(args, cwd: dir)
      #expect(Self.refused(r, saying: text), "\(args): \(r.stderr)")
    }
    #expect(!fm.fileExists(atPath: Self.root + "/Golden/drag-delta/report.html"))
  }

  /// A tensor of the wrong shape is named by its flag, with the model's declared shape.
  @Test func aTensorOfTheWrongShapeNamesItsFile() throws {
    let dir = try CLIRunner.scratch("npy-shape")
    // A float32 .npy of shape [1, 3, 4, 4] (version 1.0 header, padded to 64 bytes).
    var header = Array("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 4, 4), }".utf8)
    while (10 + header.count + 1) % 64 != 0 { header.append(0x20) }
    header.append(0x0A)
    let bytes = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.count & 0xFF), UInt8(header.count >> 8)] + header
      + [UInt8](repeating: 0, count: 48 * 4)
    FileManager.default.createFile(atPath: dir + "/w.npy", contents: Data(bytes))
    let r = try CLIRunner.run(["model", "run", Self.root + "/Models/setcards-classifier.onnx", "--input", "w.npy", "--output", "o.npy"], cwd: dir)
    #expect(Self.refused(r, saying: "--input 'w.npy' has shape [1, 3, 4, 4]: expected [1, 3, 224, 224]"), "\(r.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: dir) == ["w.npy"])
  }

  /// Output that never reaches stdout, a device given as a model, and exports
  /// that would replace the folder a user is in: exit 2, one line, no crash.
  @Test func stdoutDevicesAndTheCurrentFolder() throws {
    let dir = try CLIRunner.scratch("stdout-devices")
    for (args, text) in [
      (["model", "inspect", "/dev/zero"], "'/dev/zero' is not a regular file"),
      (["conform", "export", "."], "is the current folder or holds it"),
      (["conform", "export", ""], "the export directory is empty"),
    ] {
      let r = try CLIRunner.run(args, cwd: dir)
      #expect(Self.refused(r, saying: text), "\(args): \(r.stderr)")
    }
    // `faces > /dev/full`: the listing cannot be written, which exit 0 would hide.
    let p = Process(), err = Pipe()
    p.executableURL = CLIRunner.binary
    p.arguments = ["faces"]
    p.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    p.standardError = err
    try p.run()
    let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 2 && e.contains("standard output cannot be written"), "\(e)")
    #expect(try fm.contentsOfDirectory(atPath: dir).isEmpty)
  }
}
