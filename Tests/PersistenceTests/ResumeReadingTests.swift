import Foundation
import GRDB
import Testing
@testable import Persistence

/// The resume readings on the states seed 002's separate save steps can leave,
/// and a database the app could not have written.
struct ResumeReadingTests {
  func store(_ name: String) throws -> (RoundStore, Int64) {
    let p = NSTemporaryDirectory() + "bullseye-resume-\(name)-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + suffix) }
    let s = try RoundStore(path: p)
    return (s, try s.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 4, createdAt: "2026-01-01T00:00:00Z"))
  }

  @Test func anEmptyFirstUnfinishedEndRestoresNothingUnderTheSeed() throws {
    let (s, r) = try store("empty-first")
    try s.openEnd(round: r, end: 1)
    for a in 1...3 { try s.saveArrowScore(round: r, end: 2, arrow: a, score: 8, isX: false, x: nil, y: nil, mode: .seed002Steps) }
    let seed = try ResumeStage.resume(s, round: r, semantics: .seed002)
    #expect(seed.arrows.isEmpty)
    #expect(seed.currentArrowNumber == 1)
    let skip = try ResumeStage.resume(s, round: r, semantics: .skipEmptyEnds)
    #expect(skip.currentEnd == 2 && skip.arrows.count == 3 && skip.currentArrowNumber == 4)
    let android = try ResumeStage.resume(s, round: r, semantics: .androidDocs)
    #expect(android.currentEnd == 1 && android.arrows.isEmpty)
  }

  @Test func aSaveStoppedAfterEachStepLeavesWhatTheModeSays() throws {
    struct Stop: Error {}
    for mode in SaveMode.allCases {
      for step in SaveStep.allCases {
        let (s, r) = try store("steps-\(mode.rawValue)-\(step.rawValue)")
        try s.saveArrowScore(round: r, end: 1, arrow: 1, score: 9, isX: false, x: nil, y: nil)
        try? s.saveArrowScore(round: r, end: 1, arrow: 2, score: 7, isX: false, x: nil, y: nil, mode: mode) { if $0 == step { throw Stop() } }
        let end = try s.snapshot(round: r).ends[0]
        if mode == .atomic {
          #expect(end.arrows.count == 1 && end.total == 9, "\(mode) \(step): nothing of the stopped save")
        } else {
          #expect(end.arrows.count == (step == .end ? 1 : 2), "\(mode) \(step)")
          #expect(end.total == (step == .total ? 16 : 9), "\(mode) \(step): the total is updated only by the last step")
        }
      }
    }
  }

  @Test func aDatabaseTheAppCouldNotHaveWrittenIsRefusedNamingTheRow() throws {
    let (s, r) = try store("bad-row")
    try s.saveArrowScore(round: r, end: 1, arrow: 3, score: 9, isX: false, x: nil, y: nil)
    let q = try DatabaseQueue(path: s.path)
    try q.write { try $0.execute(sql: "UPDATE arrow_scores SET arrow_number = 7") }
    #expect {
      try ResumeStage.resume(s, round: r)
    } throws: { error in
      "\(error)".contains("arrow number 7") && "\(error)".contains("row")
    }
  }

  /// Values of the wrong kind are errors naming table, row and column (GRDB's
  /// subscripts trapped on them); a score the face cannot give is refused.
  @Test(arguments: [
    ("UPDATE arrow_scores SET x_coordinate = 'abc'", "arrow_scores row 1, x_coordinate 'abc': expected a finite number"),
    ("UPDATE arrow_scores SET x_coordinate = 1e308", "x_coordinate 1e+308: expected a finite number within Float's range"),
    ("UPDATE arrow_scores SET score_value = 'ten'", "arrow_scores row 1, score_value 'ten': expected a whole number"),
    ("UPDATE rounds SET arrows_per_end = -3", "rounds row 1, arrows_per_end -3: expected a whole number in 1...1000000"),
    ("UPDATE end_scores SET end_number = 9223372036854775807", "end_number 9223372036854775807: expected a whole number in 1...1000000"),
    ("UPDATE arrow_scores SET score_value = 9.5", "arrow_scores row 1, score_value 9.5: expected a whole number"),
    ("UPDATE end_scores SET is_completed = 5", "is_completed 5: expected 0 or 1"),
    ("UPDATE arrow_scores SET score_value = 999", "has score 999: expected one of 10, 9, 8"),
    ("UPDATE arrow_scores SET score_value = 9, is_x = 1", "has score 9 with is_x: expected one of"),
  ])
  func tamperedValuesAreErrorsNotTraps(sql: String, message: String) throws {
    let (s, r) = try store("tampered-\(abs(sql.hashValue))")
    try s.saveArrowScore(round: r, end: 1, arrow: 1, score: 9, isX: false, x: 0.1, y: 0.2)
    let q = try DatabaseQueue(path: s.path)
    try q.write { try $0.execute(sql: sql) }
    #expect {
      try ResumeStage.resume(s, round: r, checkScores: true)
    } throws: { "\($0)".contains(message) }
  }

  /// Another program's database is refused before anything is written to it;
  /// resuming an empty file is refused too, and the file stays empty.
  @Test func aForeignOrEmptyDatabaseIsLeftAsItWas() throws {
    let p = NSTemporaryDirectory() + "bullseye-foreign-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + suffix) }
    try DatabaseQueue(path: p).write { try $0.execute(sql: "CREATE TABLE foo (a)") }
    let before = try Data(contentsOf: URL(fileURLWithPath: p))
    #expect { try RoundStore(path: p) } throws: { "\($0)".contains("is not a round database (it holds table foo)") }
    #expect(try Data(contentsOf: URL(fileURLWithPath: p)) == before)
    #expect { try RoundStore.checkExisting(path: p) } throws: { "\($0)".contains("table foo") }
    let empty = NSTemporaryDirectory() + "bullseye-empty-\(getpid()).sqlite"
    FileManager.default.createFile(atPath: empty, contents: Data())
    #expect { try RoundStore(path: empty, existing: true) } throws: { "\($0)".contains("holds no round database") }
    #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
  }
}
