import ArgumentParser
import Core
import Scoring
import Synth

/// `bullseye bench`: measured speeds (never run as tests).
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench", abstract: "Measure rendering and scoring speed.", discussion: "Example: bullseye bench pipeline --size 1280x960",
    subcommands: [SynthBench.self, ScoringBench.self, PipelineBench.self, ConformBench.self, PhotoBench.self, PeakBench.self])
}

/// Median of a list of durations in milliseconds.
func medianMS(_ samples: [Duration]) -> Double {
  let ms = samples.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
  return ms.count % 2 == 1 ? ms[ms.count / 2] : (ms[ms.count / 2 - 1] + ms[ms.count / 2]) / 2
}

struct SynthBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "synth", abstract: "Render time of one scene with shafted arrows.", discussion: "Example: bullseye bench synth --size 1280x960 --arrows 6 --repeat 5")
  @Option(help: "Image size WIDTHxHEIGHT.", transform: ImageSize.argument) var size = ImageSize(width: 1280, height: 960)
  @Option var arrows: Int = 6
  @Option(name: .customLong("repeat")) var repeat_: Int = 5
  @Flag var json = false

  func validate() throws {
    guard (1...1000).contains(repeat_) else { throw ValidationError( "--repeat \(repeat_) is out of range: expected 1...1000") }
  }

  func run() throws {
    let s = size
    var spec = SceneSpec(face: "10_zone", seed: 7, size: s)
    spec.arrows = (0..<arrows).map { i in ArrowSpec(x: 0.1 * Double(i % 5) - 0.2, y: 0.05 * Double(i), style: .shaft, shaftMM: 5.5) }
    let clock = ContinuousClock()
    _ = try Synthesizer.render(spec)  // warm-up
    var samples: [Duration] = []
    for _ in 0..<repeat_ { samples.append(try clock.measure { _ = try Synthesizer.render(spec) }) }
    let m = medianMS(samples)
    if json {
      print(try JSONValue.object(["median_ms": .double(m), "size": .string(s.description), "arrows": .int(arrows), "repeat": .int(repeat_)]).canonicalText(), terminator: "")
    } else {
      print("synth \(s) with \(arrows) shafted arrows: median \(String(format: "%.1f", m)) ms over \(repeat_) runs")
    }
  }
}

struct ScoringBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "scoring", abstract: "Scoring throughput in points per second.", discussion: "Example: bullseye bench scoring --points 5000000")
  @Option var points: Int = 2_000_000
  @Flag var json = false

  func validate() throws {
    guard (1...1_000_000_000).contains(points) else { throw ValidationError( "--points \(points) is out of range: expected 1...1000000000") }
  }

  func run() throws {
    var g = SeededGenerator(seed: 1)
    let faces = FaceCatalog.all
    var requests: [ScoreRequest] = []
    for i in 0..<4096 {
      requests.append(ScoreRequest(face: faces[i % faces.count], x: g.uniform(-1.1...1.1), y: g.uniform(-1.1...1.1),
                                   rule: BoundaryRule.allCases[i % 4], precision: Precision.allCases[(i / 4) % 3]))
    }
    var checksum = 0
    let clock = ContinuousClock()
    let d = clock.measure {
      for i in 0..<points { checksum &+= Scorer.scoreUnchecked(requests[i & 4095]).score }
    }
    let secs = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    let rate = Double(points) / secs
    if json {
      print(try JSONValue.object(["points": .int(points), "seconds": .double(secs), "points_per_second": .double(rate), "checksum": .int(checksum)]).canonicalText(), terminator: "")
    } else {
      print("scoring: \(points) points in \(String(format: "%.3f", secs)) s = \(String(format: "%.2f", rate / 1e6)) M points/s (all faces, rules, precisions)")
    }
  }
}
