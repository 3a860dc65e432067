import ArgumentParser
import Conformance
import Core
import Foundation

/// `bullseye bench conform`: the built-in suite against `bullseye conform
/// testee`, end to end and through the pipe alone, with and without batches.
struct ConformBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "conform", abstract: "Cases per second through the conformance pipe.", discussion: "Example: bullseye bench conform --repeat 3")
  @Option(name: .customLong("repeat")) var repeat_: Int = 3

  func validate() throws {
    guard (1...100).contains(repeat_) else { throw ValidationError( "--repeat \(repeat_) is out of range: expected 1...100") }
  }

  func run() throws {
    let clock = ContinuousClock()
    var suite: VectorSuite?
    let build = try clock.measure { suite = try conformCall { () throws(ConformanceError) in try VectorSuite.builtIn() } }
    let vectors = suite!.vectors
    let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
      : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
    print("suite: \(vectors.count) cases built in \(String(format: "%.0f", ms(build))) ms")
    for batch in [true, false] {
      var samples: [Duration] = []
      for _ in 0..<repeat_ {
        var options = RunOptions(testee: "'\(me)' conform testee")
        options.allowBatch = batch
        var outcome: RunOutcome?
        samples.append(try clock.measure { outcome = try conformCall { () throws(ConformanceError) in try ConformRunner.run(vectors, options: options) } })
        guard outcome?.count(.passed) == vectors.count else { throw CLIError(message: "the self-run did not pass: \(outcome?.summary ?? "")") }
      }
      let m = medianMS(samples)
      print("\(batch ? "run_batch" : "one case a line"): median \(String(format: "%.0f", m)) ms for \(vectors.count) cases = \(Int(Double(vectors.count) / m * 1000)) cases/s (start, exchange, grading, classification; \(repeat_) runs)")
    }
  }

  func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
}
