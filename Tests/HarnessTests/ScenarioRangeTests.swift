import Foundation
import Testing
@testable import Harness

/// Scenario values a run would take silently (or trap on) are refused for the
/// reason each corpus file was written for, in one line naming the value.
struct ScenarioRangeTests {
  static let cases: [(file: String, says: String)] = [
    ("prior-score-huge", "whole score 0...100"), ("prior-score-off-face", "expected one of 10_zone's scores"),
    ("prior-end-twice", "prior end 1 is given twice"), ("crash-after-negative", "crash_after -1 is out of range"),
    ("overrides-confidence", "confidence 2.0 is out of range"), ("overrides-iou", "iou -1.0 is out of range"),
    ("arrow-mm-negative", "arrow_mm -1.0 is out of range"), ("confidences-nan", "are not all in 0...1"),
    ("profile-twice", "profile 'ios' is listed twice"), ("clock-feb-30", "is not an ISO 8601 date-time"),
    ("description-list", "'description' has the wrong type"), ("tolerance-path", "tolerance path '[[[' is not a result path"),
    ("enum-value", "'scene.background' is 'purple'"), ("drag-negative", "drag -1 is not an arrow index"),
  ]

  @Test(arguments: cases.map(\.file))
  func refusedForItsReason(file: String) throws {
    let says = try #require(Self.cases.first { $0.file == file }).says
    let out = NSTemporaryDirectory() + "bullseye-range-\(getpid())-\(file)"
    let path = BadInputTests.root + "/yaml/" + file + ".yaml"
    let error = #expect(throws: (any Error).self) { try Verifier.render([path], root: BadInputTests.root + "/yaml", out: out) }
    let message = error.map { "\($0)" } ?? ""
    #expect(message.contains(says), "\(file): \(message)")
    #expect(message.contains(file + ".yaml"), "names the file: \(message)")
    #expect(!message.contains("\n"))
    #expect(!FileManager.default.fileExists(atPath: out + "/" + file), "nothing written")
  }

  /// A dated clock must be a calendar date: the formatter alone rolls 30 February into March.
  @Test func clocksAreCalendarDates() {
    for ok in ["2024-02-29T00:00:00Z", "2026-01-01T09:00:00Z", "2026-12-31T23:59:59.5Z", "2026-06-30T10:00:00+02:00"] {
      #expect(ArcheryScenario.isISO8601(ok), "\(ok)")
    }
    for bad in ["2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "yesterday"] {
      #expect(!ArcheryScenario.isISO8601(bad), "\(bad)")
    }
  }

  /// A generated scenario past the YAML size limit is refused before it is parsed.
  @Test func aHugeScenarioIsRefusedUnparsed() throws {
    let pairs = String(repeating: "[1, 1], ", count: 200_000)
    let text = "face: 10_zone\ngestures: [{drag: 0, translations: [\(pairs)[1, 1]]}]\n"
    #expect { try ArcheryScenario.decode(text, path: "huge.yaml") } throws: { "\($0)".contains("expected a YAML file of at most 1024 KiB") }
  }
}
