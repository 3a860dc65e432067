import Foundation
import Testing

/// A failure at any one output leaves none of the command's outputs behind
/// (`BULLSEYE_FAIL_WRITE=NAME` fails the output named NAME), and special
/// files are written into, never replaced.
struct NothingHalfWrittenTests {
  static let fm = FileManager.default
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test(arguments: ["s.png", "t.json", "o.png"])
  func synthLeavesNothingWhenAnyOutputFails(failing: String) throws {
    let dir = try CLIRunner.scratch("synth-fail-\(failing)")
    let r = try CLIRunner.run(["synth", "--seed", "3", "--size", "160x120", "--out", dir + "/s.png", "--truth", dir + "/t.json", "--overlay", dir + "/o.png"],
                              env: ["BULLSEYE_FAIL_WRITE": failing])
    #expect(r.status == 2 && r.stderr.contains("BULLSEYE_FAIL_WRITE"), "\(r.stderr)")
    let left = try Self.fm.contentsOfDirectory(atPath: dir)
    #expect(left.isEmpty, "left behind: \(left)")
  }

  @Test func synthWritesIntoSpecialFilesWithoutReplacingThem() throws {
    let dir = try CLIRunner.scratch("synth-devnull")
    let r = try CLIRunner.run(["synth", "--seed", "3", "--size", "160x120", "--out", dir + "/s.png", "--truth", "/dev/null"])
    #expect(r.status == 0, "\(r.stderr)")
    let kind = try Self.fm.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
    #expect(kind == .typeCharacterSpecial)
    #expect(Self.fm.fileExists(atPath: dir + "/s.png"))
  }

  @Test(arguments: ["o.png", "r.json"])
  func runLeavesNeitherOverlayNorResultWhenOneFails(failing: String) throws {
    let dir = try CLIRunner.scratch("run-fail-\(failing)")
    let photo = Self.root + "/Tests/CanvasTests/Fixtures/quadrants.png"
    let r = try CLIRunner.run(["run", "archery", "--image", photo, "--overlay", dir + "/o.png", "--out", dir + "/r.json"],
                              env: ["BULLSEYE_FAIL_WRITE": failing])
    #expect(r.status == 2, "\(r.stderr)")
    let left = try Self.fm.contentsOfDirectory(atPath: dir)
    #expect(left.isEmpty, "left behind: \(left)")
  }

  @Test func renderLeavesTheOutputFolderAsItWasWhenAnOutputFails() throws {
    let dir = try CLIRunner.scratch("render-fail")
    let scenario = Self.root + "/Scenarios/archery/x-edge-strict.yaml"
    // An earlier render's folder stays untouched; a new folder is not left behind.
    try Self.fm.createDirectory(atPath: dir + "/old/x-edge-strict", withIntermediateDirectories: true)
    try Data("earlier".utf8).write(to: URL(fileURLWithPath: dir + "/old/x-edge-strict/result.json"))
    for out in [dir + "/old", dir + "/new"] {
      let r = try CLIRunner.run(["render", scenario, "--out", out, "--scenario-root", Self.root + "/Scenarios"], env: ["BULLSEYE_FAIL_WRITE": "result.json"])
      #expect(r.status == 2, "\(r.stderr)")
    }
    #expect(try Self.fm.contentsOfDirectory(atPath: dir + "/old") == ["x-edge-strict"])
    #expect(try String(contentsOfFile: dir + "/old/x-edge-strict/result.json", encoding: .utf8) == "earlier")
    #expect(!Self.fm.fileExists(atPath: dir + "/new"))
    let ok = try CLIRunner.run(["render", scenario, "--out", dir + "/old", "--scenario-root", Self.root + "/Scenarios"])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try Self.fm.contentsOfDirectory(atPath: dir + "/old") == ["x-edge-strict"], "no staging folder left")
    #expect(try String(contentsOfFile: dir + "/old/x-edge-strict/result.json", encoding: .utf8) != "earlier")
  }
}

/// `verify --report DIR`: the report is staged and placed at the end; a failure
/// leaves DIR as the previous run left it (or absent, when this run made it).
struct VerifyReportAtomicityTests {
  static let root = NothingHalfWrittenTests.root

  static func verify(_ report: String, env: [String: String] = [:]) throws -> CLIRunner.Result {
    try CLIRunner.run(["verify", root + "/Scenarios/archery/x-edge-strict.yaml", "--report", report,
                       "--golden", root + "/Golden", "--scenario-root", root + "/Scenarios"], env: env)
  }

  @Test(arguments: ["report.html", "junit.xml", "report.json", ".manifest"])
  func aFailedReportLeavesTheFolderAsItWas(failing: String) throws {
    let dir = try CLIRunner.scratch("verify-fail-\(failing)")
    let fresh = dir + "/new"
    let r = try Self.verify(fresh, env: ["BULLSEYE_FAIL_WRITE": failing])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: fresh), "a report folder this run created is removed")
    let kept = dir + "/kept"
    let first = try Self.verify(kept)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try FileManager.default.subpathsOfDirectory(atPath: kept).sorted()
    let html = try String(contentsOfFile: kept + "/report.html", encoding: .utf8)
    let again = try Self.verify(kept, env: ["BULLSEYE_FAIL_WRITE": failing])
    #expect(again.status == 2)
    #expect(try FileManager.default.subpathsOfDirectory(atPath: kept).sorted() == before, "no staging folder or half report left")
    #expect(try String(contentsOfFile: kept + "/report.html", encoding: .utf8) == html)
  }
}

/// `run archery --db`: the end goes into a copy that replaces the database last,
/// so a failure at the result leaves the database exactly as it was.
struct RunDatabaseLastTests {
  @Test func aFailedResultLeavesTheDatabaseUntouched() throws {
    let dir = try CLIRunner.scratch("run-db-last")
    let photo = dir + "/p.png", db = dir + "/round.sqlite"
    let synth = try CLIRunner.run(["synth", "--seed", "3", "--size", "640x480", "--arrows", "3", "--out", photo])
    #expect(synth.status == 0, "\(synth.stderr)")
    let args = ["run", "archery", "--image", photo, "--db", db, "--out", dir + "/r.json"]
    let failed = try CLIRunner.run(args, env: ["BULLSEYE_FAIL_WRITE": "r.json"])
    #expect(failed.status == 2)
    #expect(!FileManager.default.fileExists(atPath: db), "a database this run would create is not left behind")
    let ok = try CLIRunner.run(args)
    #expect(ok.status == 0, "\(ok.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let again = try CLIRunner.run(args, env: ["BULLSEYE_FAIL_WRITE": "r.json"])
    #expect(again.status == 2)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the database is placed last, after the result")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(left == ["p.png", "r.json", "round.sqlite"], "no staged copy left: \(left)")
    let resume = try CLIRunner.run(["resume", "--db", db, "--round", "1", "--json"])
    #expect(resume.status == 0, "the placed database is a whole round database: \(resume.stderr)")
  }
}
