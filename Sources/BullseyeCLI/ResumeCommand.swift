import ArgumentParser
import Core
import Foundation
import Persistence
import Pipeline
import Scoring

/// `bullseye resume`: what the app shows after a restart, and what rescoring
/// the stored Float coordinates would change.
struct ResumeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a round from its database and rescore stored coordinates.")
  @Option(help: "Round database (SQLite).") var db: String
  @Option(parsing: .unconditional, help: "Round id.") var round: Int64
  @Option(help: "Resume semantics: seed-002 or android-docs.") var semantics: String = "seed-002"
  @Option(help: "Rule used to rescore.") var rule: String = "inclusive"
  @Flag(help: "Print JSON.") var json = false

  func run() throws {
    guard FileManager.default.fileExists(atPath: db) else { throw CLIError(message: "--db '\(db)' does not exist: expected a round database") }
    guard let s = ResumeSemantics(rawValue: semantics) else { throw CLIError(message: "--semantics '\(semantics)' is unknown: expected seed-002 or android-docs") }
    guard let r = BoundaryRule(rawValue: rule) else { throw CLIError(ScoringError.unknownRule(rule)) }
    do {
      let store = try RoundStore(path: db)
      let state = try ResumeStage.resume(store, round: round, semantics: s, rule: r)
      if json {
        print(try state.json.canonicalText(), terminator: "")
      } else {
        print("round \(round): end \(state.currentEnd), arrow \(state.currentArrowNumber); restored \(state.arrows.count) arrows; \(state.rescoreChanges.count) of \(state.rescored) change when rescored")
      }
    } catch let e as PersistenceError { throw CLIError(e) }
  }
}

/// `bullseye simulate-round`: saves a scripted round arrow by arrow (one
/// transaction each), printing each commit — the subject of crash tests.
struct SimulateRoundCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "simulate-round", abstract: "Write a scripted round into a database, one transaction per arrow.")
  @Option var db: String
  @Option(parsing: .unconditional) var ends: Int = 6
  @Option(name: .customLong("arrows-per-end"), parsing: .unconditional) var arrowsPerEnd: Int = 6
  @Option var seed: UInt64 = 0
  @Option(name: .customLong("pause-ms"), parsing: .unconditional) var pauseMS: Int = 0
  @Option var face: String = "10_zone"

  func run() throws {
    guard (1...100).contains(ends), (1...24).contains(arrowsPerEnd), (0...10_000).contains(pauseMS) else {
      throw CLIError(message: "--ends 1...100, --arrows-per-end 1...24 and --pause-ms 0...10000 expected")
    }
    let f: Face
    do { f = try FaceCatalog.face(named: face) } catch { throw CLIError(error) }
    var g = SeededGenerator(seed: seed)
    do {
      let store = try RoundStore(path: db)
      let round = try store.createRound(name: "simulated", face: f.id, arrowsPerEnd: arrowsPerEnd, ends: ends, createdAt: "1970-01-01T00:00:00Z")
      emit("round \(round)")
      for e in 1...ends {
        for a in 1...arrowsPerEnd {
          let x = g.uniform(-0.8...0.8), y = g.uniform(-0.8...0.8)
          let s = try Scorer.score(ScoreRequest(face: f, x: x, y: y))
          try store.saveArrowScore(round: round, end: e, arrow: a, score: s.score, isX: s.isX, x: x, y: y)
          emit("committed \(e) \(a) \(s.score)")
          if pauseMS > 0 { usleep(UInt32(pauseMS * 1000)) }
        }
        try store.completeEnd(round: round, end: e)
        emit("completed \(e)")
      }
    } catch let e as PersistenceError { throw CLIError(e) } catch let e as ScoringError { throw CLIError(e) }
  }

  /// One line, flushed at once, so a killed process has reported exactly its commits.
  func emit(_ line: String) { writeLine(line) }
}
