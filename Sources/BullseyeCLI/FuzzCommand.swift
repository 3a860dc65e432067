import ArgumentParser
import Core
import Foundation
import Fuzz
import Scoring

/// `bullseye fuzz`: boundary-seeking campaigns.
struct FuzzCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "fuzz", abstract: "Fuzz the scoring boundaries.", discussion: "Example: bullseye fuzz scoring --face 10_zone --iterations 200000 --seed 7",
                                                  subcommands: [FuzzScoring.self])
}

struct FuzzScoring: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scoring",
    abstract: "Points at, inside and outside every ring and X radius (and their Float32 neighbours), checked against scoring properties.", discussion: "Example: bullseye fuzz scoring --testee 'bash Testees/python-archeryutils/run.sh' --seconds 30")
  @Option(help: "Faces to fuzz (repeatable; default all).") var face: [FaceName] = []
  @Option(help: "Rules to compare (repeatable; default all).") var rule: [String] = []
  @Option(parsing: .unconditional, help: "Points to check with Bullseye's own scorer (default 100000; not with --testee).") var iterations: Int?
  @Option(parsing: .unconditional, transform: seedArgument) var seed: UInt64 = 1
  @Option(help: "Write one scenario per finding and summary.md here (with --testee: a vector directory).") var out: String?
  @Flag var json = false
  @Option(help: "Fuzz this testee's score stage through the conformance protocol instead of Bullseye's scorer.") var testee: String?
  @Option(help: "With --testee: how many points to check (default 100000).") var cases: Int?
  @Option(help: "With --testee: check points for this many seconds instead.") var seconds: Double?
  @Option(name: .customLong("timeout-ms"), help: "With --testee: per-case answer timeout (default 5000).") var timeoutMs: Int?

  func validate() throws {
    if let iterations, !(1...100_000_000).contains(iterations) {
      throw ValidationError("--iterations \(iterations) is out of range: expected 1...100000000")
    }
    // Flags of the other mode would be taken and ignored.
    if testee != nil, iterations != nil { throw ValidationError("--iterations does not apply with --testee: expected --cases or --seconds") }
    if testee == nil, timeoutMs != nil { throw ValidationError("--timeout-ms applies only with --testee: Bullseye's own scorer has no answers to wait for") }
  }

  func run() throws {
    if let testee { return try runDifferential(testee) }
    guard cases == nil, seconds == nil else { throw CLIError(message: "--cases and --seconds need --testee") }
    var o = CampaignOptions()
    o.iterations = iterations ?? 100_000
    o.seed = seed
    if !face.isEmpty { o.faces = face.map(\.face) }
    if !rule.isEmpty {
      o.rules = try rule.map { r in
        guard let v = BoundaryRule(rawValue: r) else { throw CLIError(ScoringError.unknownRule(r)) }
        return v
      }
    }
    if let out { try OutputPaths.makeDirectory(out) }
    let clock = ContinuousClock(), t0 = clock.now
    let result = ScoringCampaign.run(o) {
      let d = clock.now - t0
      return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    if let out {
      for (i, f) in (result.violations + result.discrepancies).enumerated() {
        try AtomicFile.write(FindingReport.scenario(f, index: i + 1), to: out + String(format: "/finding-%03d.yaml", i + 1))
      }
      try AtomicFile.write(FindingReport.summary(result), to: out + "/summary.md")
    }
    if json {
      print(try FindingReport.json(result).canonicalText(), terminator: "")
    } else {
      print(FindingReport.summary(result), terminator: "")
      print("\(result.checks) checks in \(String(format: "%.2f", result.seconds)) s (\(Int(result.checksPerSecond * 60)) per minute): \(result.violations.count) violations, \(result.discrepancies.count) discrepancies")
    }
    if !result.violations.isEmpty { Foundation.exit(1) }
  }
}
