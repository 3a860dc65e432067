import ArgumentParser
import Core
import Inference

/// `bullseye bench peak`: one core's FMA throughput on the instruction set
/// the kernels use, the denominator of "share of peak" in bench-inference.
struct PeakBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "peak", abstract: "Measure one core's peak FMA GFLOP/s on the kernels' instruction set (BULLSEYE_ISA honoured).",
    discussion: "Example: BULLSEYE_ISA=avx2 bullseye bench peak --json")
  @Option(help: "Seconds per timed trial.") var seconds: Double = 0.2
  @Option(help: "Trials; the best is reported.") var trials: Int = 5
  @Flag(help: "One JSON object: {gflops, isa}.") var json = false

  func validate() throws {
    guard seconds.isFinite, (0.01...10).contains(seconds) else { throw ValidationError("--seconds \(seconds) is out of range: expected 0.01...10") }
    guard (1...100).contains(trials) else { throw ValidationError("--trials \(trials) is out of range: expected 1...100") }
  }

  func run() throws {
    let p = try inferenceCall { try PeakFMA.measure(seconds: seconds, trials: trials) }
    if json {
      print(try JSONValue.object(["gflops": .double(p.gflops), "isa": .string(p.isa)]).canonicalText(), terminator: "")
    } else {
      print("\(p.isa): \(String(format: "%.1f", p.gflops)) GFLOP/s on one core (best of \(trials) × \(seconds) s)")
    }
  }
}
