import Foundation
@testable import Persistence
import Testing

/// Kills `simulate-round` at every step of a save and before completeEnd, in
/// both save modes, and checks what the database holds and what resume shows.
struct CrashPointTests {
  struct Point: Sendable, CustomStringConvertible {
    let mode: String
    let crash: String
    var description: String { "\(mode) \(crash)" }
  }

  static let points: [Point] = ["atomic", "seed-002-steps"].flatMap { m in
    ["2:1:end", "2:1:arrow", "2:1:total", "2:2:end", "2:2:arrow", "2:2:total", "2:3:total", "1:complete", "2:complete"].map { Point(mode: m, crash: $0) }
  }

  @Test(arguments: points) func stateAfterTheKill(_ p: Point) throws {
    let dir = try CLIRunner.scratch("crashpoint-\(p.mode)-\(p.crash.replacingOccurrences(of: ":", with: "-"))")
    let db = dir + "/r.sqlite"
    let r = try CLIRunner.run(["simulate-round", "--db", db, "--ends", "2", "--arrows-per-end", "3", "--seed", "4", "--save", p.mode, "--crash-after", p.crash])
    #expect(r.status == 9 || r.status == 137 || r.stdout.contains("killed"), "killed at \(p.crash): \(r.stdout)")
    let committed = r.stdout.split(separator: "\n").filter { $0.hasPrefix("committed") }.count
    let store = try RoundStore(path: db)
    #expect(try store.integrityCheck() == "ok")
    let snap = try store.snapshot(round: 1)
    let stored = snap.ends.reduce(0) { $0 + $1.arrows.count }
    let parts = p.crash.split(separator: ":")
    let step = parts.count == 3 ? SaveStep(rawValue: String(parts[2])) : nil
    if p.mode == "atomic" {
      // All of a save or none: the interrupted save left nothing, and every total is its arrows' sum.
      #expect(stored == committed)
      for e in snap.ends { #expect(e.total == e.arrows.reduce(0) { $0 + $1.score }, "end \(e.number)") }
      #expect(!snap.ends.contains { $0.arrows.isEmpty }, "no end row without arrows")
    } else {
      // The steps done before the kill stay.
      #expect(stored == committed + (step == .arrow || step == .total ? 1 : 0))
      let last = snap.ends.last!
      let sum = last.arrows.reduce(0) { $0 + $1.score }
      if step == .end && parts[1] == "1" { #expect(last.arrows.isEmpty, "an end row without its arrow") }
      if step == .arrow { #expect(last.total != sum || last.arrows.last!.score == 0, "the arrow is there, the end's total is not updated") }
      if step == .total { #expect(last.total == sum) }
    }
    let resume = try ResumeStage.resume(store, round: 1, semantics: .seed002)
    if let open = snap.ends.first(where: { !$0.isCompleted }) {
      #expect(resume.currentEnd == open.number)
      #expect(resume.arrows.count == open.arrows.count)
      #expect(resume.currentArrowNumber == open.arrows.count + 1, "seed 002: count + 1, even past the end's size")
    } else {
      #expect(resume.arrows.isEmpty)
    }
  }
}
