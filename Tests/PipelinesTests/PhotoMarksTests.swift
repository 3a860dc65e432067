import Foundation
import Testing
@testable import Harness

/// A team's own photo pinned in CI: the run is checked against the arrows a
/// person marked, with the truth gate's rules.
struct PhotoMarksTests {
  static let scenarios: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast(3)  // Tests/PipelinesTests/PhotoMarksTests.swift
    return parts.joined(separator: "/") + "/Scenarios"
  }()

  /// Runs the shipped vegas photo scenario with its text changed by `edit`.
  static func run(_ edit: (String) -> String) throws -> KindOutput {
    let file = scenarios + "/archery/own-photo-vegas-jpeg.yaml"
    let text = edit(try String(contentsOfFile: file, encoding: .utf8))
    let header = try ScenarioHeader(file: file, text: text)
    return try ArcheryKind().run(header, root: scenarios, work: NSTemporaryDirectory(), threads: 2)
  }

  static func withoutDeclarations(_ text: String) -> String {
    String(text[..<text.range(of: "expect_wrong:")!.lowerBound])
  }

  @Test func theShippedScenarioPassesWithItsDeclarations() throws {
    let out = try Self.run { $0 }
    #expect(out.truthFailures.isEmpty, "\(out.truthFailures)")
    #expect(out.truthDeclared.contains { $0.contains("mark 1 at (386.0, 657.0): expected M, got 6") })
    #expect(!out.artifacts.contains { $0.name == "input.png" }, "a photo file pins itself")
  }

  @Test func undeclaredDifferencesFromTheMarksFail() throws {
    let out = try Self.run(Self.withoutDeclarations)
    #expect(out.truthFailures.contains("ios: mark 1 at (386.0, 657.0): expected M, got 6"), "\(out.truthFailures)")
    #expect(out.truthFailures.contains("ios: end total: expected 20, got 26"))
  }

  @Test func aMarkFartherThanTheToleranceIsMissedAndItsDetectionExtra() throws {
    let out = try Self.run { Self.withoutDeclarations($0).replacingOccurrences(of: "{x: 386, y: 657, score: 0}", with: "{x: 366, y: 657}") }
    #expect(out.truthFailures.contains("ios: 1 arrows missed (marks 3 arrows, 3 detections)"), "\(out.truthFailures)")
    #expect(out.truthFailures.contains("ios: 1 extra detections (marks 3 arrows, 3 detections)"))
    // A mark without a score checks position only, so no total can be known.
    #expect(!out.truthFailures.contains { $0.contains("end total") })
  }

  /// A mark off the picture is bad input, named with the picture's size, not an arrow missed.
  @Test func aMarkOutsideThePictureIsRefused() throws {
    #expect {
      _ = try Self.run { $0.replacingOccurrences(of: "{x: 386, y: 657, score: 0}", with: "{x: 5000, y: 657, score: 0}") }
    } throws: { "\($0)".contains("mark 1 at (5000.0, 657.0) lies outside the") }
  }

  /// An X mark on a face whose X scores otherwise, and an index past the marks, name what was expected.
  @Test func marksAndDeclarationsAreCheckedAgainstTheFace() throws {
    #expect {
      _ = try Self.run { $0.replacingOccurrences(of: "{x: 866, y: 662, score: 10, is_x: true}", with: "{x: 866, y: 662, score: 9, is_x: true}") }
    } throws: { "\($0)".contains("mark 0 has is_x: true with score 9: an X on face wa_vegas_3_spot scores 10") }
    #expect {
      _ = try Self.run { $0.replacingOccurrences(of: "{arrow: 1,", with: "{arrow: 7,") }
    } throws: { "\($0)".contains("names arrow 7: expected a mark's index, 0...2 (3 marks)") }
  }

  @Test(arguments: [
    ("marks: {arrows: []}", "marks need image: FILE"),
    ("image: photos/vegas-jpeg.jpg\nphoto: {format: png}", "photo cannot go with image"),
    ("image: photos/vegas-jpeg.jpg\ndetector: {source: truth}", "detector source 'truth' needs a rendered scene"),
    ("image: photos/vegas-jpeg.jpg\nmarks: {arrows: [{x: 1, y: 2, score: 30}]}", "mark score 30 is out of range: expected 0...20"),
    ("image: photos/vegas-jpeg.jpg\nmarks: {tolerance_px: 0}", "marks tolerance_px 0.0 is out of range"),
    ("image: photos/vegas-jpeg.jpg\nmarks: {arrows: [{x: 1, y: 2, score: 11}]}",
     "mark 0 has score 11, which face 10_zone does not give: expected one of 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0"),
    ("image: photos/vegas-jpeg.jpg\nexpect_wrong: {ios: [{arrow: -1, reason: r}]}\nprofile: ios", "expect_wrong arrow -1 is negative"),
    ("seed: abc", "'seed' has the wrong type, found 'abc': expected a whole number, 0 or more"),
    ("expected_arrows: [1]", "'expected_arrows' has the wrong type, found a list: expected a single value"),
    ("profile: []", "profile is an empty list"),
    ("expected_arrows: -1", "expected_arrows -1 is out of range: expected 0...1000"),
    ("clock: yesterday", "clock 'yesterday' is not an ISO 8601 date-time"),
    ("expect: {confirmed_scores: [42]}", "expect confirmed_scores holds 42, which face 10_zone does not give"),
    ("expect: {end_total: -5}", "expect end_total -5 is negative"),
    ("image: photos/vegas-jpeg.jpg\nprofile: ios\nmarks: {arrows: [{x: 1, y: 2}]}\nexpect_wrong: {ios: [{arrow: 3, reason: r}]}",
     "expect_wrong (ios) names arrow 3: expected a mark's index, 0...0 (1 marks)"),
  ])
  func badPhotoScenariosAreRefusedNamingTheValue(keys: String, message: String) {
    #expect {
      _ = try ArcheryScenario.decode("id: p\nface: 10_zone\n" + keys + "\n", path: "p.yaml")
    } throws: { "\($0)".contains(message) }
  }
}
