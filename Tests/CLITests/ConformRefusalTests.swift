import Foundation
import Testing

/// Conformance inputs that used to be taken quietly (a folder replaced, a flag
/// ignored, a skipped check counted as a pass) and are now refused: exit 2, one
/// line naming the value, nothing run or written.
struct ConformRefusalTests {
  var bin: String { "'\(CLIRunner.binary.path)'" }

  /// A testee that leaves `started` in `dir` when it is run, then is Bullseye's own.
  func markingTestee(_ dir: String) -> String { "touch '\(dir)/started'; exec \(bin) conform testee" }

  /// A Python testee in `dir/file` that answers start with the `ready` object (a Python
  /// dict literal) and a request whose `cmd` is `command` with `answer` (Python lines run
  /// with the request in `m`); any other request ends it. Returns the command line (`args` appended).
  func pythonTestee(_ dir: String, file: String, ready: String, command: String = "run", answer: String, args: String = "") throws -> String {
    let body = answer.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
    let script = """
      import sys, json
      most = 0
      for line in sys.stdin:
          m = json.loads(line)
          if m["cmd"] == "start":
              print(json.dumps(\(ready)), flush=True)
          elif m["cmd"] == "\(command)":
      \(body)
          else:
              break
      """
    let path = dir + "/" + file
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    return "python3 '\(path)'" + (args.isEmpty ? "" : " " + args)
  }

  /// A Python testee of the echo stage named `name` that answers the `wrong` ids with a wrong value.
  func echoTestee(_ dir: String, name: String, wrong: [String] = []) throws -> String {
    try pythonTestee(dir, file: "echo-\(name).py", ready: "{\"ready\": True, \"name\": \(String(reflecting: name)), \"stages\": [\"echo\"]}", answer: """
      out = {"value": 12345.5} if m["id"] in \(wrong) else m["input"]
      print(json.dumps({"seq": m["seq"], "output": out}), flush=True)
      """)
  }

  @Test func reportFilesMayNotLandOnAnotherInputOrOutput() throws {
    let dir = try CLIRunner.scratch("conf-refuse-report-paths")
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir + "/r", withIntermediateDirectories: true)
    try "echo.zero # mine\n".write(toFile: dir + "/r/junit.xml", atomically: true, encoding: .utf8)
    let cases: [(args: [String], flags: [String])] = [
      (["--report", dir + "/r", "--expectations", dir + "/r/junit.xml"], ["--report", "--expectations"]),
      (["--report", dir + "/r", "--expectations", dir + "/r/junit.xml", "--fix"], ["--report", "--expectations"]),
      (["--report", dir + "/n", "--junit", dir + "/n/junit.xml"], ["--report", "--junit"]),
      (["--report", "/etc/passwd", "--junit", dir + "/j.xml", "--markdown", dir + "/m.md"], ["--report"]),
    ]
    for c in cases {
      let r = try CLIRunner.run(["conform", "run", "--testee", markingTestee(dir), "--stages", "echo"] + c.args, env: ["CI": "false"])
      #expect(r.status == 2, "\(c.args): \(r.stdout) \(r.stderr)")
      #expect(c.flags.allSatisfy(r.stderr.contains) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(!fm.fileExists(atPath: dir + "/started"), "\(c.args): refused before the testee ran")
    }
    #expect(try String(contentsOfFile: dir + "/r/junit.xml", encoding: .utf8) == "echo.zero # mine\n")
    #expect(!fm.fileExists(atPath: dir + "/j.xml") && !fm.fileExists(atPath: dir + "/m.md"), "nothing half-written")
  }

  @Test func aReadyLineThatWouldSkipEverythingIsRefused() throws {
    let lines = [#"{"ready":true,"name":"x"}"#, #"{"ready":true,"name":"x","stages":["scoore"]}"#,
                 #"{"ready":true,"name":"x","stages":["score"],"semantics":"double"}"#]
    for line in lines {
      let r = try CLIRunner.run(["conform", "run", "--testee", "read l; echo '\(line)'; cat >/dev/null", "--stages", "score", "--timeout-ms", "2000"])
      #expect(r.status == 2, "\(line): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains(line) && r.stderr.split(separator: "\n").count == 1, "quotes the line: \(r.stderr)")
    }
  }

  @Test func aRunThatSkippedEveryCaseChecksNothing() throws {
    let dir = try CLIRunner.scratch("conf-refuse-all-skipped")
    let r = try CLIRunner.run(["conform", "run", "--testee", try echoTestee(dir, name: "e"), "--stages", "score,nms", "--junit", dir + "/j.xml"])
    #expect(r.status == 2, "\(r.stdout.suffix(200)) \(r.stderr)")
    #expect(r.stderr.contains("nothing was checked") && r.stderr.contains("lists stages echo") && r.stderr.contains("score, nms"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/j.xml"), "nothing written")
  }

  @Test func exportedVectorsKeepTheSignOfZero() throws {
    let dir = try CLIRunner.scratch("conf-neg-zero")
    let r = try CLIRunner.run(["conform", "export", dir + "/v"])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: dir + "/v/echo/echo.json", encoding: .utf8)
    // Keys are sorted: the case's input follows its id.
    let parts = text.components(separatedBy: "\"id\": \"echo.neg-zero\"")
    #expect(parts.count == 2 && parts[1].prefix(60).contains("\"input\": {\n        \"value\": -0.0\n"), "\(parts.last?.prefix(60) ?? "")")
  }

  @Test func expectationsReadCRLFAndRefuseTwoIdsOrOneTwice() throws {
    let dir = try CLIRunner.scratch("conf-refuse-expectations")
    let t = try echoTestee(dir, name: "e", wrong: ["echo.zero"])
    let run = { (text: String) throws -> CLIRunner.Result in
      try text.write(toFile: dir + "/known.txt", atomically: true, encoding: .utf8)
      return try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "echo", "--expectations", dir + "/known.txt"])
    }
    let crlf = try run("# known\r\necho.zero # wrong\r\n")
    #expect(crlf.status == 0, "\(crlf.stdout.suffix(300)) \(crlf.stderr)")
    for (text, line) in [("# known\necho.zero echo.min-subnormal # two\n", 2), ("echo.zero\n\necho.zero # again\n", 3)] {
      let r = try run(text)
      #expect(r.status == 2, "\(text): \(r.stdout.suffix(200)) \(r.stderr)")
      #expect(r.stderr.contains("known.txt' line \(line):") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
  }

  /// A one-stage vector directory at `dir`: `manifest` (default: the echo stage's one file) and
  /// echo/e.json holding `ids`, each an echo case of 1.5.
  func vectorDir(_ dir: String, ids: [String] = ["echo.one"], manifest: String? = nil) throws {
    let fm = FileManager.default
    try? fm.removeItem(atPath: dir)
    try fm.createDirectory(atPath: dir + "/echo", withIntermediateDirectories: true)
    let tests = ids.map { id in
      let quoted = String(data: try! JSONSerialization.data(withJSONObject: [id], options: []), encoding: .utf8)!.dropFirst().dropLast()
      return #"{"id":\#(quoted),"input":{"value":1.5},"expected":{"value":1.5}}"#
    }
    try #"{"stage":"echo","group":"e","tests":[\#(tests.joined(separator: ","))]}"#.write(toFile: dir + "/echo/e.json", atomically: true, encoding: .utf8)
    let m = manifest ?? #"{"suite_version":"1.0.0","protocol_version":1,"stages":{"echo":{"files":[{"file":"echo/e.json","cases":\#(ids.count)}],"cases":\#(ids.count)}}}"#
    try m.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
  }

  @Test func vectorIdsThatCannotBeAnExpectationsLineAreRefused() throws {
    let dir = try CLIRunner.scratch("conf-refuse-vector-ids")
    try vectorDir(dir + "/ok")
    let ok = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--vectors", dir + "/ok"])
    #expect(ok.status == 0, "\(ok.stdout) \(ok.stderr)")
    for id in ["echo.a b", "echo.a\nb", "echo.a#b"] {
      try vectorDir(dir + "/v", ids: [id])
      let r = try CLIRunner.run(["conform", "run", "--testee", markingTestee(dir), "--vectors", dir + "/v"])
      #expect(r.status == 2, "\(id): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains("echo/e.json") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/started"), "refused before the testee ran")
    }
  }

  @Test func aManifestThatMisstatesItsDirectoryIsRefused() throws {
    let dir = try CLIRunner.scratch("conf-refuse-manifest")
    let files = #""files":[{"file":"echo/e.json","cases":1}],"cases":1"#
    func manifest(version: String? = "1", files f: String = files, extra: String = "") -> String {
      #"{"suite_version":"1.0.0",\#(version.map { "\"protocol_version\":\($0)," } ?? "")"stages":{"echo":{\#(f)}}\#(extra)}"#
    }
    let bad: [(manifest: String, key: String)] = [
      (manifest(version: "2"), "protocol_version"), (manifest(version: #""1""#), "protocol_version"), (manifest(version: nil), "protocol_version"),
      (manifest(files: #""files":[{"file":"echo/e.json","cases":99}]"#), "cases"),
      (manifest(files: #""files":[{"file":"echo/e.json","cases":-1}]"#), "cases"),
      (manifest(files: #""files":[{"file":"echo/e.json","cases":"1"}]"#), "cases"),
      (manifest(files: #""files":["echo/e.json"],"cases":3"#), "cases"),
      (manifest(extra: #","tolerances":"exact""#), "tolerances"), (manifest(extra: #","tolerances":{"echo":"loose"}"#), "tolerances"),
      (manifest(extra: #","tolerances":{"echo":"close"}"#), "tolerances"), (manifest(extra: #","axes":5"#), "axes"),
      (manifest(extra: #","axes":{"boundary":{"values":["inclusive"]}}"#), "axes"),
    ]
    try vectorDir(dir + "/v", manifest: manifest(extra: #","tolerances":{"echo":"exact"}"#))
    let ok = try CLIRunner.run(["conform", "run", "--testee", "\(bin) conform testee", "--vectors", dir + "/v"])
    #expect(ok.status == 0, "\(ok.stdout) \(ok.stderr)")
    for b in bad {
      try vectorDir(dir + "/v", manifest: b.manifest)
      let r = try CLIRunner.run(["conform", "run", "--testee", markingTestee(dir), "--vectors", dir + "/v"])
      #expect(r.status == 2, "\(b.manifest): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains("manifest.json") && r.stderr.contains(b.key) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
    // A vector file that is a link to a file outside the directory.
    try vectorDir(dir + "/outside")
    try vectorDir(dir + "/v")
    try FileManager.default.removeItem(atPath: dir + "/v/echo/e.json")
    try FileManager.default.createSymbolicLink(atPath: dir + "/v/echo/e.json", withDestinationPath: dir + "/outside/echo/e.json")
    let link = try CLIRunner.run(["conform", "run", "--testee", markingTestee(dir), "--vectors", dir + "/v"])
    #expect(link.status == 2 && link.stderr.contains("outside the vector directory"), "\(link.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/started"), "refused before the testee ran")
  }

  @Test func anUnterminatedStderrLineIsReported() throws {
    let early = try CLIRunner.run(["conform", "run", "--testee", "printf 'no model file at /m.onnx' >&2; exit 3", "--stages", "echo"])
    #expect(early.status == 2 && early.stderr.contains("its stderr ends: no model file at /m.onnx"), "\(early.stderr)")
    let ready = #"{"ready":true,"name":"x","stages":["echo"]}"#
    let late = try CLIRunner.run(["conform", "run", "--testee", "read l; echo '\(ready)'; read l; printf 'died on a case' >&2; exit 1",
                                  "--stages", "echo"])
    #expect(late.status == 2 && late.stderr.contains("its stderr ends: died on a case"), "\(late.stderr)")
    #expect(late.stderr.split(separator: "\n").count == 1, "\(late.stderr)")
  }

  @Test func anEmptySelectionSaysWhatSelectedNothing() throws {
    let dir = try CLIRunner.scratch("conf-refuse-empty-selection")
    try vectorDir(dir + "/none", ids: [])
    try vectorDir(dir + "/echo")
    let cases: [(args: [String], says: String)] = [
      (["--stages", "echo", "--shard", "7000/7000"], "--shard 7000/7000 selects none of the 218 cases of --stages echo"),
      (["--vectors", dir + "/none"], "--vectors '\(dir)/none' holds no case"),
      (["--vectors", dir + "/echo", "--stages", "score"], "--stages score matches no case of --vectors"),
    ]
    for c in cases {
      let r = try CLIRunner.run(["conform", "run", "--testee", markingTestee(dir)] + c.args)
      #expect(r.status == 2, "\(c.args): \(r.stdout) \(r.stderr)")
      #expect(r.stderr.contains(c.says) && !r.stderr.contains("--stages  "), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/started"), "refused before the testee ran")
  }

  @Test func anUnknownFaceListsTheFaces() throws {
    for args in [["fuzz", "scoring", "--face", "nope"], ["score", "--face", "nope", "--x", "0", "--y", "0"], ["synth", "--face", "nope"]] {
      let r = try CLIRunner.run(args)
      #expect(r.status == 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("following: 10_zone, ") && r.stderr.contains("Worcester_2_ring"), "\(args): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
  }

  @Test func flagsThatWouldDoNothingAreRefused() throws {
    let dir = try CLIRunner.scratch("conf-refuse-idle-flags")
    let t = markingTestee(dir)
    let cases: [(args: [String], says: String)] = [
      (["fuzz", "scoring", "--timeout-ms", "5", "--iterations", "10"], "--timeout-ms applies only with --testee"),
      (["fuzz", "scoring", "--testee", t, "--iterations", "10"], "--iterations does not apply with --testee"),
      (["conform", "run", "--testee", t, "--stages", "echo", "--markdown-title", "T"], "--markdown-title needs --markdown"),
      (["conform", "run", "--testee", t, "--repro", "echo.zero", "--shard", "1/2"], "--shard does not apply"),
      (["conform", "run", "--testee", t, "--repro", "echo.zero", "--stages", "score"], "--stages does not apply"),
    ]
    for c in cases {
      let r = try CLIRunner.run(c.args)
      #expect(r.status == 2, "\(c.args): \(r.stdout.suffix(200)) \(r.stderr)")
      #expect(r.stderr.contains(c.says) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/started"), "refused before the testee ran")
  }

  @Test func aTesteesStringsCannotDriveTheTerminalOrTheMarkdown() throws {
    let dir = try CLIRunner.scratch("conf-escape")
    let testee = try pythonTestee(dir, file: "t.py", ready: #"{"ready": True, "name": "a\u0000\u001b[31mb\nc<script>", "stages": ["echo"]}"#, answer: #"""
      if m["id"] == "echo.zero":
          print(json.dumps({"seq": m["seq"], "error": "bad\u001b[2J\nFAIL forged"}), flush=True)
      elif m["id"] == "echo.strings":
          print(json.dumps({"seq": m["seq"], "output": {"text": "<script>alert(1)</script>\u0000\u009b`"}}), flush=True)
      else:
          print(json.dumps({"seq": m["seq"], "output": m["input"]}), flush=True)
      """#)
    let r = try CLIRunner.run(["conform", "run", "--testee", testee, "--stages", "echo", "--markdown", dir + "/s.md"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control characters: \(r.stdout.debugDescription)")
    #expect(r.stdout.contains("testee: a\\u0000\\u001b[31mb\\u000ac<script> (stages echo)"), "\(r.stdout.prefix(200))")
    #expect(r.stdout.contains("ERROR echo.zero testee error: bad\\u001b[2J\\u000aFAIL forged"), "\(r.stdout)")
    #expect(!r.stdout.split(separator: "\n").contains { $0.hasPrefix("FAIL forged") })
    let md = try String(contentsOfFile: dir + "/s.md", encoding: .utf8)
    #expect(!md.contains("<script>") && !md.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(md)")
    #expect(md.contains("got <code>{&#34;text&#34;:&#34;&#60;script&#62;alert(1)&#60;/script&#62;&#92;u0000&#92;u009b&#96;&#34;}</code>"), "\(md)")
    #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x9b }, "no C1 control either")
  }
}
