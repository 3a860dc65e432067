import Foundation
import Testing

/// Options with a fixed set of values are enums: a wrong value is refused at
/// parse time with the accepted values listed (exit 2), `--help` lists them, and
/// `run` is one subcommand per kind, the old `run --kind` spelling deprecated.
struct TypedOptionsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let args: [String]
    let listed: [String]
    var testDescription: String { args.joined(separator: " ") }
  }

  static let wrongValues: [Case] = [
    Case(args: ["score", "--x", "0", "--y", "0", "--rule", "nearest"], listed: ["inclusive", "floor", "strict", "line-cutter"]),
    Case(args: ["score", "--x", "0", "--y", "0", "--precision", "half"], listed: ["double", "float32", "float32-native"]),
    Case(args: ["run", "archery", "--image", "p.png", "--out", "r.json", "--profile", "windows"], listed: ["ios", "android"]),
    Case(args: ["run", "archery", "--image", "p.png", "--out", "r.json", "--coordinates", "all"], listed: ["keep-coordinates", "seed"]),
    Case(args: ["resume", "--db", "x.sqlite", "--round", "1", "--semantics", "ios"], listed: ["seed-002", "android-docs", "skip-empty-ends"]),
    Case(args: ["simulate-round", "--db", "x.sqlite", "--save", "fast"], listed: ["atomic", "seed-002-steps"]),
    Case(args: ["verify", "--mode", "record"], listed: ["verify", "record-missing", "update-failed", "update-all"]),
    Case(args: ["eval", "archery", "--impacts", "some"], listed: ["shafts", "all"]),
    Case(args: ["synth", "--kind", "dartboard", "--out", "x.png"], listed: ["target", "setcards"]),
    Case(args: ["run", "setcards", "--image", "p.png", "--out", "r.json", "--profile", "best"], listed: ["seed", "photos"]),
    Case(args: ["eval", "setcards", "--photos", "d", "--profile", "ios"], listed: ["seed", "photos"]),
  ]

  @Test(arguments: wrongValues)
  func wrongValueIsRefusedWithTheValuesListed(c: Case) throws {
    #expect(!Self.wrongValues.isEmpty)
    let r = try CLIRunner.run(c.args)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
    for v in c.listed { #expect(r.stderr.contains("'\(v)'"), "\(v) not listed in \(r.stderr)") }
  }

  @Test func helpListsTheValues() throws {
    let r = try CLIRunner.run(["run", "archery", "--help"])
    #expect(r.status == 0)
    // argument-parser wraps help at 80 columns; compare with the wrapping undone
    let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("values: ios, android") && text.contains("values: inclusive, floor, strict, line-cutter"), "\(text)")
    // Only what archery uses: the card and obstacle inputs live in their own subcommands.
    #expect(!r.stdout.contains("--classifier") && !r.stdout.contains("--scenario") && !r.stdout.contains("--kind"))
    let cards = try CLIRunner.run(["run", "setcards", "--help"])
    // Set cards' own --profile: the Set-card profiles, one sentence each, never the platform profiles.
    let cardsText = cards.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(cards.stdout.contains("--classifier") && cardsText.contains("(default: photos)"), "\(cardsText)")
    #expect(cardsText.contains("seed - Seed 004's rules") && cardsText.contains("photos - Bullseye's rules for your own photos"), "\(cardsText)")
    #expect(!cardsText.contains("android"))
  }

  @Test func oldRunSpellingStillWorksWithADeprecationLine() throws {
    let dir = try CLIRunner.scratch("legacy-run")
    #expect(try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "4", "--cards", "6", "--size", "640x480",
                               "--out", dir + "/t.png", "--truth", dir + "/t.json"]).status == 0)
    let old = try CLIRunner.run(["run", "--kind", "setcards", "--image", dir + "/t.png", "--truth", dir + "/t.json", "--out", dir + "/old.json"])
    let new = try CLIRunner.run(["run", "setcards", "--image", dir + "/t.png", "--truth", dir + "/t.json", "--out", dir + "/new.json"])
    #expect(old.status == 0 && new.status == 0, "\(old.stderr) \(new.stderr)")
    #expect(old.stderr.contains("warning: `bullseye run --kind setcards` is deprecated: use `bullseye run setcards`"))
    #expect(new.stderr.isEmpty, "\(new.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/old.json")) == Data(contentsOf: URL(fileURLWithPath: dir + "/new.json")))
    let unknown = try CLIRunner.run(["run", "--kind", "darts", "--image", dir + "/t.png", "--out", dir + "/x.json"])
    #expect(unknown.status == 2 && unknown.stderr.contains("--kind 'darts' is unknown: expected archery, setcards, obstacles"))
  }

  @Test func oldModelTruthSpellingStillWorks() throws {
    let old = try CLIRunner.run(["eval", "archery", "--images", "1", "--model", "truth", "--json"])
    let new = try CLIRunner.run(["eval", "archery", "--images", "1", "--detector", "truth", "--json"])
    #expect(old.status == 0 && new.status == 0, "\(old.stderr) \(new.stderr)")
    #expect(old.stderr.contains("`--model truth` is deprecated: use `--detector truth`") && new.stderr.isEmpty)
    #expect(old.stdout == new.stdout)
    let both = try CLIRunner.run(["eval", "archery", "--images", "1", "--detector", "truth", "--model", "m.onnx"])
    #expect(both.status == 2 && both.stderr.contains("--detector truth cannot go with --model m.onnx"), "\(both.stderr)")
  }

  @Test(arguments: [["run", "archery", "--image", "p.png", "--out", "r.json", "--threads", "0"],
                    ["run", "setcards", "--image", "p.png", "--out", "r.json", "--threads", "1000"],
                    ["verify", "--threads", "0"]])
  func threadsOutOfRangeIsRefused(args: [String]) throws {
    let r = try CLIRunner.run(args)
    #expect(r.status == 2 && r.stderr.contains("--threads") && r.stderr.contains("expected 1...256"), "\(r.stderr)")
  }

  /// Numbers out of range are refused while the command line is parsed: one line
  /// naming the value and the range, exit 2, and no output file created.
  @Test(arguments: [(["synth", "--kind", "setcards", "--cards", "50"], "--cards 50", "3...21"),
                    (["synth", "--arrows", "-1"], "--arrows -1", "0...200"),
                    (["synth", "--diameter-cm", "-3"], "--diameter-cm -3.0", "1.0...1000.0"),
                    (["synth", "--count", "0"], "--count 0", "1...1000000"),
                    (["score", "--x", "nan", "--y", "0"], "x nan", "finite"),
                    (["score", "--x", "0", "--y", "0", "--arrow-mm", "-1"], "arrow-mm -1.0", "[0, 50]"),
                    (["score", "--x", "0", "--y", "0", "--spot", "3"], "spot 3.0", "0..<1")])
  func numbersOutOfRangeAreRefusedAtParseTime(args: [String], value: String, range: String) throws {
    let dir = try CLIRunner.scratch("numbers")
    let r = try CLIRunner.run(args + (args[0] == "synth" ? ["--out", dir + "/x.png"] : []))
    #expect(r.status == 2 && r.stderr.contains(value) && r.stderr.contains(range), "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: dir + "/x.png"))
  }
}

/// `bullseye --version`: the version and the commit it was built from.
struct VersionTests {
  @Test func versionNamesTheCommit() throws {
    let r = try CLIRunner.run(["--version"])
    #expect(r.status == 0)
    let line = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    // 12 hex digits from the checkout's .git, or "unknown" for a build outside git.
    let commit = line.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
    #expect(line.hasPrefix("0.2.0 (commit ") && line.hasSuffix(")"), "\(line)")
    #expect(commit == "unknown" || (commit.count == 12 && commit.allSatisfy(\.isHexDigit)), "\(line)")
  }
}
