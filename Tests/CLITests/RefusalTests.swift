import Foundation
import Testing

/// Inputs that used to be taken quietly (or crash) and are now refused with one
/// line naming the value, exit 2, nothing written.
struct RefusalTests {
  /// A testee shell line that answers the start request with `ready`, then hangs.
  func readyThenHang(_ ready: String, pidFile: String) -> String {
    "echo $$ > '\(pidFile)'; read l; echo '\(ready)'; exec sleep 300"
  }

  @Test func aReadyLineWithStagesAsAStringIsRefused() throws {
    let dir = try CLIRunner.scratch("refuse-stages")
    let cmd = readyThenHang(#"{"ready":true,"name":"x","stages":"score"}"#, pidFile: dir + "/pid")
    let r = try CLIRunner.run(["conform", "run", "--testee", cmd, "--timeout-ms", "2000"])
    #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
    #expect(r.stderr.contains("stages is a string"), "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
  }

  @Test func aKilledHarnessTakesItsTesteeWithIt() throws {
    let dir = try CLIRunner.scratch("refuse-orphan")
    let cmd = readyThenHang(#"{"ready":true,"name":"x","stages":["score"]}"#, pidFile: dir + "/pid")
    // Spawned with SIGTERM at its default and unblocked: a test runner's threads may block
    // or ignore it, and an ignored signal stays ignored in the harness (as under nohup).
    let args = [CLIRunner.binary.path, "conform", "run", "--testee", cmd, "--stages", "score", "--timeout-ms", "60000"]
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var defaults = sigset_t()
    sigemptyset(&defaults); sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attr, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attr, &mask)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = args.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var harness: pid_t = 0
    #expect(posix_spawn(&harness, args[0], &actions, &attr, argv, environ) == 0)
    var pid: Int32 = 0
    for _ in 0..<400 where pid == 0 {
      usleep(25_000)
      pid = Int32((try? String(contentsOfFile: dir + "/pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }
    #expect(pid > 0, "the testee started")
    usleep(300_000)  // the harness is now waiting for an answer that never comes
    kill(harness, SIGTERM)
    var status: Int32 = 0
    waitpid(harness, &status, 0)
    #expect(status & 0x7f == SIGTERM, "it dies of the signal it was sent (wait status \(status))")
    var gone = false
    for _ in 0..<200 where !gone {
      gone = !Self.alive(pid)
      if !gone { usleep(25_000) }
    }
    #expect(gone, "testee \(pid) outlived the harness")
    if !gone { kill(pid, SIGKILL) }
  }

  /// Running (not gone and not a zombie waiting for a parent that died).
  static func alive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }

  @Test func aConformReportWithoutCasesIsNotMerged() throws {
    let dir = try CLIRunner.scratch("refuse-merge")
    for (name, text) in [("a", #"{"report":"conform","conformant":true,"cases":"none"}"#),
                         ("b", #"{"report":"conform","conformant":true,"cases":[{"id":"score.1","stage":"nope","verdict":"passed"}]}"#)] {
      try FileManager.default.createDirectory(atPath: dir + "/" + name, withIntermediateDirectories: true)
      try text.write(toFile: dir + "/\(name)/report.json", atomically: true, encoding: .utf8)
      let r = try CLIRunner.run(["report", "merge", dir + "/" + name, "--out", dir + "/out-" + name])
      #expect(r.status == 2, "\(name): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains("\(name)/report.json"), "names the file: \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/out-\(name)/report.json"), "nothing written")
    }
  }

  @Test func anEmptyDatabasePathIsRefused() throws {
    let dir = try CLIRunner.scratch("refuse-db")
    let r = try CLIRunner.run(["simulate-round", "--db", "", "--ends", "1", "--arrows-per-end", "1"], cwd: dir)
    #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
    #expect(r.stderr.contains("--db is empty"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing written")
  }

  @Test func renderRefusesAnEmptySelectionAndDuplicateIds() throws {
    let dir = try CLIRunner.scratch("refuse-render")
    try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
    let empty = try CLIRunner.run(["render", dir + "/empty", "--out", dir + "/out"])
    #expect(empty.status == 2, "\(empty.stdout) \(empty.stderr)")
    #expect(empty.stderr.contains("no scenario files"), "\(empty.stderr)")
    let scenario = try String(contentsOfFile: KernelISATests.root + "/Scenarios/archery/face-10-zone.yaml", encoding: .utf8)
    for name in ["one", "two"] { try scenario.write(toFile: dir + "/\(name).yaml", atomically: true, encoding: .utf8) }
    let twice = try CLIRunner.run(["render", dir + "/one.yaml", dir + "/two.yaml", "--out", dir + "/out"])
    #expect(twice.status == 2, "\(twice.stdout) \(twice.stderr)")
    #expect(twice.stderr.contains("duplicate scenario id 'face-10-zone'"), "\(twice.stderr)")
    #expect(twice.stderr.split(separator: "\n").count == 1, "one line: \(twice.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "nothing written")
    try "id: broken\nkind: archery\nface: [\n".write(toFile: dir + "/broken.yaml", atomically: true, encoding: .utf8)
    let broken = try CLIRunner.run(["render", dir + "/broken.yaml", "--out", dir + "/out"])
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("broken.yaml"), "names the file: \(broken.stderr)")
  }

  @Test func aFaceOfLessThanACentimetreIsRefused() throws {
    let r = try CLIRunner.run(["score", "--x", "0", "--y", "0", "--diameter-cm", "5e-324"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--diameter-cm") && r.stderr.contains("1...1000"), "\(r.stderr)")
  }

  @Test func fuzzingATesteeAnswersInJSON() throws {
    let testee = "'\(CLIRunner.binary.path)' conform testee"
    let r = try CLIRunner.run(["fuzz", "scoring", "--testee", testee, "--cases", "300", "--seed", "3", "--json", "--face", "10_zone"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(o["checks"] as? Int == 300, "\(r.stdout.prefix(300))")
    #expect((o["findings"] as? [Any])?.isEmpty == true)
    #expect((o["graded"] as? [String: String])?["boundary"] != nil)
  }

  @Test func fuzzOutMustBeNewOrAnEarlierExport() throws {
    let dir = try CLIRunner.scratch("refuse-fuzz-out")
    try "mine".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
    let testee = "'\(CLIRunner.binary.path)' conform testee"
    let r = try CLIRunner.run(["fuzz", "scoring", "--testee", testee, "--cases", "10", "--out", dir])
    #expect(r.status == 2)
    #expect(r.stderr.contains("no earlier fuzz export") && !r.stderr.contains("--force"), "\(r.stderr)")
    #expect(try String(contentsOfFile: dir + "/notes.txt", encoding: .utf8) == "mine")
  }

  @Test func evalNamesAModelFileThatIsNotOne() throws {
    let dir = try CLIRunner.scratch("refuse-eval-model")
    try Data("not a model".utf8).write(to: URL(fileURLWithPath: dir + "/fake.onnx"))
    for args in [["eval", "setcards", "--detector", dir + "/fake.onnx", "--boards", "1"],
                 ["eval", "setcards", "--classifier", dir + "/fake.onnx", "--boards", "1"],
                 ["eval", "archery", "--model", dir + "/fake.onnx", "--images", "1"],
                 ["eval", "archery", "--refiner", dir + "/fake.onnx", "--images", "1"]] {
      let r = try CLIRunner.run(args)
      #expect(r.status == 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("\(args[2]) '\(dir)/fake.onnx'"), "names the flag and file: \(r.stderr)")
    }
  }

  /// As an unprivileged user (root may replace anything): a file its owner made read-only
  /// is not renamed over, though the folder would allow it.
  @Test func aReadOnlyOutputIsKept() throws {
    let dir = try CLIRunner.scratch("refuse-read-only")
    chmod(dir, 0o777)
    let kept = dir + "/kept.png"
    try "mine".write(toFile: kept, atomically: false, encoding: .utf8)
    chmod(kept, 0o444)
    let args = ["synth", "--size", "64x48", "--out", kept]
    let r: CLIRunner.Result
    if getuid() == 0 {
      r = try CLIRunner.run(["--reuid", "65534", "--regid", "65534", "--clear-groups", CLIRunner.binary.path] + args, executable: "/usr/bin/setpriv")
    } else {
      r = try CLIRunner.run(args)
    }
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("read-only"), "\(r.stderr)")
    #expect(try String(contentsOfFile: kept, encoding: .utf8) == "mine")
  }

  /// A dataset is replaced whole (no images of an earlier, larger one left to train on),
  /// a folder of other files is refused, and flags that do nothing without --dataset are refused.
  @Test func datasetsReplaceEarlierOnesAndNothingElse() throws {
    let dir = try CLIRunner.scratch("refuse-dataset")
    let ds = dir + "/ds"
    #expect(try CLIRunner.run(["synth", "--dataset", ds, "--count", "6", "--size", "64x48"]).status == 0)
    let again = try CLIRunner.run(["synth", "--dataset", ds, "--count", "2", "--size", "64x48"])
    #expect(again.status == 0, "\(again.stderr)")
    let train = try FileManager.default.contentsOfDirectory(atPath: ds + "/images/train").sorted()
    #expect(train == ["000000.png", "000001.png"], "\(train)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["ds"], "no staging left")
    let other = dir + "/other"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    try "mine".write(toFile: other + "/notes.txt", atomically: true, encoding: .utf8)
    let refused = try CLIRunner.run(["synth", "--dataset", other, "--count", "2", "--size", "64x48"])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("no data.yaml"), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["notes.txt"])
    let idle = try CLIRunner.run(["synth", "--count", "3", "--out", dir + "/one.png"])
    #expect(idle.status == 2 && idle.stderr.contains("--count needs --dataset"), "\(idle.stderr)")
  }

  /// Broken models are named, not believed: NaN or absurd outputs are errors, never "no arrows" or
  /// "0 cards" with exit 0; a FIFO given as a model or image is refused without waiting on it.
  @Test func aFIFOIsRefusedAtOnce() throws {
    let dir = try CLIRunner.scratch("refuse-fifo")
    #expect(mkfifo(dir + "/pipe.onnx", 0o600) == 0)
    let t0 = Date()
    let inspect = try CLIRunner.run(["model", "inspect", dir + "/pipe.onnx"])
    #expect(inspect.status == 2 && inspect.stderr.contains("not a regular file"), "\(inspect.stderr)")
    let photo = try CLIRunner.run(["run", "archery", "--image", dir + "/pipe.onnx", "--out", dir + "/r.json"])
    #expect(photo.status == 2 && photo.stderr.contains("not a regular file"), "\(photo.stderr)")
    #expect(Date().timeIntervalSince(t0) < 30)
  }
}
