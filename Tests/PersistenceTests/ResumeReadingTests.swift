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
}
