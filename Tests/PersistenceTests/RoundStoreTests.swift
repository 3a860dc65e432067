import Foundation
import Scoring
import Testing
@testable import Persistence

struct RoundStoreTests {
  func tempDB(_ name: String) -> String {
    let p = NSTemporaryDirectory() + "bullseye-\(name)-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + suffix) }
    return p
  }

  @Test func upsertKeepsTotalsAndRowsRight() throws {
    for mode in UpsertSemantics.allCases {
      let store = try RoundStore(path: tempDB("upsert-\(mode.rawValue)"), upsert: mode)
      let r = try store.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 2, createdAt: "2026-01-01T00:00:00Z")
      try store.saveArrowScore(round: r, end: 1, arrow: 1, score: 9, isX: false, x: 0.15, y: 0)
      try store.saveArrowScore(round: r, end: 1, arrow: 2, score: 7, isX: false, x: 0.35, y: 0)
      let firstID = try store.snapshot(round: r).ends[0].arrows[1].rowID
      try store.saveArrowScore(round: r, end: 1, arrow: 2, score: 10, isX: true, x: 0.01, y: 0)  // re-scored
      let snap = try store.snapshot(round: r)
      #expect(snap.ends[0].arrows.count == 2 && snap.ends[0].total == 19 && snap.ends[0].xCount == 1, "\(mode)")
      let id = snap.ends[0].arrows[1].rowID
      #expect(mode == .update ? id == firstID : id != firstID, "\(mode): row id \(firstID) → \(id)")
    }
  }

  @Test func coordinatesAreStoredAsFloat32() throws {
    let store = try RoundStore(path: tempDB("float"))
    let r = try store.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 1, createdAt: "x")
    try store.saveArrowScore(round: r, end: 1, arrow: 1, score: 10, isX: true, x: 0, y: 0.05)
    try store.saveArrowScore(round: r, end: 1, arrow: 2, score: 9, isX: false, x: nil, y: nil)
    let a = try store.snapshot(round: r).ends[0].arrows
    #expect(a[0].y == Float(0.05) && a[0].inputMethod == "COORDINATE_CLICK")
    #expect(a[1].x == nil && a[1].inputMethod == "MANUAL")
  }

  @Test func migration36to37AddsCameraSettings() throws {
    let path = tempDB("migrate")
    let old = try RoundStore(path: path, baselineOnly: true)
    let before = try old.settings()
    #expect(before.userVersion == 36 && before.cameraScoreEnabled == nil)
    try old.migrate()
    let after = try old.settings()
    #expect(after.userVersion == 37 && after.cameraScoreEnabled == true && after.saveArrowImages == false && after.arrowImageStorageURI == nil)
    #expect(try old.integrityCheck() == "ok")
  }

  @Test func resumeAfterZeroOneAndTwoArrows() throws {
    for saved in 0...2 {
      let store = try RoundStore(path: tempDB("resume-\(saved)"))
      let r = try store.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 3, createdAt: "x")
      for a in 1...3 { try store.saveArrowScore(round: r, end: 1, arrow: a, score: 8, isX: false, x: 0.25, y: 0) }
      try store.completeEnd(round: r, end: 1)
      // Saved out of order: resume sorts by arrow number.
      for a in stride(from: saved, through: 1, by: -1) { try store.saveArrowScore(round: r, end: 2, arrow: a, score: 9, isX: false, x: 0.15, y: 0) }
      let s = try ResumeStage.resume(store, round: r)
      #expect(s.currentEnd == 2 && s.currentArrowNumber == saved + 1 && s.arrows.map(\.arrowNumber) == Array(stride(from: 1, through: saved, by: 1)))
      let docs = try ResumeStage.resume(store, round: r, semantics: .androidDocs)
      #expect(docs.currentEnd == 2 && docs.currentArrowNumber == 1 && docs.arrows.isEmpty)
    }
  }

  @Test func rescoreFindsTheFloatXTrap() throws {
    let store = try RoundStore(path: tempDB("rescore"))
    let r = try store.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 1, createdAt: "x")
    // Confirmed in Double as an X at exactly 0.05; stored as Float 0.05 → 0.0500000007.
    try store.saveArrowScore(round: r, end: 1, arrow: 1, score: 10, isX: true, x: 0, y: 0.05)
    try store.saveArrowScore(round: r, end: 1, arrow: 2, score: 9, isX: false, x: 0.15, y: 0)
    let s = try ResumeStage.resume(store, round: r)
    #expect(s.rescored == 2 && s.rescoreChanges.count == 1)
    let c = try #require(s.rescoreChanges.first)
    #expect(c.arrowNumber == 1 && c.storedIsX && !c.rescoredIsX && c.rescoredScore == 10)
  }

  @Test func dumpIsDeterministic() throws {
    func make(_ name: String) throws -> String {
      let store = try RoundStore(path: tempDB(name))
      let r = try store.createRound(name: "t", face: "10_zone", arrowsPerEnd: 3, ends: 1, createdAt: "2026-01-01")
      try store.saveArrowScore(round: r, end: 1, arrow: 1, score: 10, isX: true, x: 0, y: 0.05)
      return try store.dump()
    }
    let a = try make("dumpA"), b = try make("dumpB")
    #expect(a == b && a.contains("y_coordinate=0.05000000074505806") && a.hasPrefix("user_version 37"))
  }

  @Test func missingRoundIsAnError() throws {
    let store = try RoundStore(path: tempDB("missing"))
    #expect(throws: PersistenceError.self) { try store.saveArrowScore(round: 99, end: 1, arrow: 1, score: 1, isX: false, x: nil, y: nil) }
    #expect(throws: PersistenceError.self) { try RoundStore(path: "/nonexistent-dir/x.sqlite") }
  }
}
