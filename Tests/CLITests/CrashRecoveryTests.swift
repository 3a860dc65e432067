import Core
import Foundation
@testable import Persistence
import Testing

/// kill -9 at random moments while a scripted 6-end round is being saved.
struct CrashRecoveryTests {
  @Test func killedRoundsResumeToExactlyTheCommittedArrows() throws {
    var g = SeededGenerator(seed: 2026)
    let dir = try CLIRunner.scratch("crash")
    // Keep going until 50 runs were killed mid-round (started, not finished).
    var interrupted = 0
    for trial in 0..<150 where interrupted < 50 {
      let db = dir + "/round-\(trial).sqlite"
      let p = Process()
      p.executableURL = CLIRunner.binary
      p.arguments = ["simulate-round", "--db", db, "--ends", "6", "--arrows-per-end", "6", "--seed", String(trial), "--pause-ms", "6"]
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      usleep(UInt32(g.int(20_000...320_000)))
      kill(p.processIdentifier, SIGKILL)
      p.waitUntilExit()
      let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
      guard lines.first?.hasPrefix("round") == true else { continue }  // killed before the round existed
      if p.terminationReason == .uncaughtSignal, !lines.contains("completed 6") { interrupted += 1 }
      let printed = lines.filter { $0.hasPrefix("committed") }.map { l -> (Int, Int) in
        let f = l.split(separator: " "); return (Int(f[1])!, Int(f[2])!)
      }
      let store = try RoundStore(path: db)
      #expect(try store.integrityCheck() == "ok", "trial \(trial)")
      let snap = try store.snapshot(round: 1)
      let stored = snap.ends.flatMap { e in e.arrows.map { (e.number, $0.arrowNumber) } }
      // Every reported commit is there; at most one more (committed, not yet printed).
      #expect(stored.count == printed.count || stored.count == printed.count + 1, "trial \(trial): \(stored.count) vs \(printed.count)")
      for (a, b) in zip(printed, stored) { #expect(a == b, "trial \(trial)") }
      for e in snap.ends { #expect(e.total == e.arrows.reduce(0) { $0 + $1.score }, "trial \(trial) end \(e.number)") }
      let resume = try ResumeStage.resume(store, round: 1)
      if let last = snap.ends.last, !last.isCompleted, !last.arrows.isEmpty {
        #expect(resume.currentEnd == last.number && resume.arrows.count == last.arrows.count)
        #expect(resume.currentArrowNumber == last.arrows.count + 1)
      }
    }
    #expect(interrupted == 50, "only \(interrupted) runs were killed mid-round")
  }
}
