import ArgumentParser
import Core
import Foundation
import Persistence
import Pipelines
import Scoring

/// `bullseye resume`: what the app shows after a restart, and what rescoring
/// the stored Float coordinates would change.
struct ResumeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a round from its database and rescore stored coordinates.", discussion: "Example: bullseye resume --db round.sqlite --round 1 --semantics seed-002 --json")
  @Option(help: "Round database (SQLite).") var db: String
  @Option(parsing: .unconditional, help: "Round id.") var round: Int64
  @Option(help: "Resume semantics.") var semantics: ResumeSemantics = .seed002
  @Option(help: "Rule used to rescore.") var rule: BoundaryRule = .inclusive
  @Flag(help: "Print JSON.") var json = false

  func run() throws {
    guard FileManager.default.fileExists(atPath: db) else { throw CLIError(message: "--db '\(db)' does not exist: expected a round database") }
    let s = semantics, r = rule
    do {
      let store = try RoundStore(path: db, existing: true)
      let state = try ResumeStage.resume(store, round: round, semantics: s, rule: r, checkScores: true)
      if json {
        print(try state.json.canonicalText(), terminator: "")
      } else {
        let at = state.finished ? "finished" : "end \(state.currentEnd), arrow \(state.currentArrowNumber)"
        print("round \(round): \(at); restored \(state.arrows.count) arrows; \(state.rescoreChanges.count) of \(state.rescored) change when rescored")
      }
    } catch let e as PersistenceError { throw CLIError(e) }
  }
}

/// `bullseye simulate-round`: saves a scripted round arrow by arrow, printing
/// each commit — the subject of crash tests. `--crash-after` kills the process
/// (SIGKILL, no clean-up) at one exact point of the save, so every state the
/// save mode can leave behind is reachable on purpose, not only by chance.
struct SimulateRoundCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "simulate-round", abstract: "Write a scripted round into a database, one transaction per arrow.", discussion: "Example: bullseye simulate-round --db round.sqlite --ends 2 --arrows-per-end 6 --save atomic --crash-after 9")
  @Option var db: String
  @Option(parsing: .unconditional) var ends: Int = 6
  @Option(name: .customLong("arrows-per-end"), parsing: .unconditional) var arrowsPerEnd: Int = 6
  @Option(parsing: .unconditional, transform: seedArgument) var seed: UInt64 = 0
  @Option(name: .customLong("pause-ms"), parsing: .unconditional) var pauseMS: Int = 0
  @Option(help: "Face id or alias.") var face: FaceName = .tenZone
  @Option(help: "atomic (one transaction per arrow) or seed-002-steps (seed 002's three committed statements).") var save: SaveMode = .atomic
  @Option(name: .customLong("crash-after"), help: "END:ARROW:STEP (STEP = end, arrow or total) or END:complete (before completeEnd): kill -9 there.")
  var crashAfter: String?

  func validate() throws {
    guard !db.isEmpty else { throw ValidationError("--db is empty: expected a round database file path") }
    guard (1...100).contains(ends) else { throw ValidationError("--ends \(ends) is out of range: expected 1...100") }
    guard (1...24).contains(arrowsPerEnd) else { throw ValidationError("--arrows-per-end \(arrowsPerEnd) is out of range: expected 1...24") }
    guard (0...10_000).contains(pauseMS) else { throw ValidationError("--pause-ms \(pauseMS) is out of range: expected 0...10000") }
  }

  func run() throws {
    let mode = save
    let crash = try crashAfter.map(parseCrash)
    let f: Face
    f = face.face
    var g = SeededGenerator(seed: seed)
    do {
      let store = try RoundStore(path: db)
      let round = try store.createRound(name: "simulated", face: f.id, arrowsPerEnd: arrowsPerEnd, ends: ends, createdAt: "1970-01-01T00:00:00Z")
      emit("round \(round)")
      for e in 1...ends {
        for a in 1...arrowsPerEnd {
          let x = g.uniform(-0.8...0.8), y = g.uniform(-0.8...0.8)
          let s = try Scorer.score(ScoreRequest(face: f, x: x, y: y))
          try store.saveArrowScore(round: round, end: e, arrow: a, score: s.score, isX: s.isX, x: x, y: y, mode: mode,
                                   completesFullEnds: mode == .atomic) { step in
            if let c = crash, c.end == e, c.arrow == a, c.step == step { die("killed after step \(step.rawValue) of \(e) \(a)") }
          }
          emit("committed \(e) \(a) \(s.score)")
          if pauseMS > 0 { usleep(UInt32(pauseMS * 1000)) }
        }
        if let c = crash, c.end == e, c.arrow == nil { die("killed before completing \(e)") }
        try store.completeEnd(round: round, end: e)
        emit("completed \(e)")
      }
    } catch let e as PersistenceError { throw CLIError(e) } catch let e as ScoringError { throw CLIError(e) }
  }

  /// One line, flushed at once, so a killed process has reported exactly its commits.
  func emit(_ line: String) { writeLine(line) }

  /// Reports the crash point, then kills the process as `kill -9` would.
  func die(_ line: String) -> Never {
    emit(line)
    kill(getpid(), SIGKILL)
    fatalError("SIGKILL did not stop the process")
  }

  /// `END:ARROW:STEP` or `END:complete`.
  func parseCrash(_ text: String) throws -> (end: Int, arrow: Int?, step: SaveStep?) {
    let p = text.split(separator: ":").map(String.init)
    let bad = CLIError(message: "--crash-after '\(text)' is not END:ARROW:STEP (STEP: end, arrow or total) or END:complete")
    guard let e = p.first.flatMap({ Int($0) }), (1...ends).contains(e) else { throw bad }
    if p.count == 2, p[1] == "complete" { return (e, nil, nil) }
    guard p.count == 3, let a = Int(p[1]), (1...arrowsPerEnd).contains(a), let s = SaveStep(rawValue: p[2]) else { throw bad }
    return (e, a, s)
  }
}
