import ArgumentParser
import Core
import Foundation
import Harness
import Imaging
import Overlays
import Pipelines
import Scoring

/// `bullseye bench photo`: a user's photo through the whole `run archery`
/// path, stage by stage — what a phone's 12-megapixel JPEG costs.
struct PhotoBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photo", abstract: "Time a photo through run archery: read + decode, orientation, detect → score (shipped detector), overlay.",
    discussion: "Example: bullseye bench photo --image IMG_0412.JPG --threads 2 --profile best")
  @Option(help: "The photo (PNG, JPEG or HEIC).") var image: String
  @Option(help: "Platform profile (best adds the shipped refiner).") var profile: ProfileName = .ios
  @Option(parsing: .unconditional, help: "Threads the models run on.") var threads: Int = 2
  @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Timed runs per stage (the median is reported).") var repeat_: Int = 5
  @Flag(help: "One JSON object: {image, profile, threads, stages_ms}.") var json = false

  func validate() throws {
    guard (1...256).contains(threads) else { throw ValidationError("--threads \(threads) is out of range: expected 1...256") }
    guard (1...100).contains(repeat_) else { throw ValidationError("--repeat \(repeat_) is out of range: expected 1...100") }
  }

  func run() throws {
    let clock = ContinuousClock()
    var stages: [(String, Double)] = []
    func time<T>(_ name: String, _ body: () throws -> T) throws -> T {
      var out = try body()  // warm-up run, kept as the stage's result
      var samples: [Duration] = []
      for _ in 0..<repeat_ { samples.append(try clock.measure { out = try body() }) }
      stages.append((name, medianMS(samples)))
      return out
    }
    let photo = try time("read + decode") { try readPhoto(image, flag: "--image") }
    let upright = try time("orientation (tag \(photo.orientation.rawValue))") { photo.upright(threads: threads) }
    let prof = profile.profile
    let model = try loadDetector(try ProductPaths.require("arrow-detector.onnx"), flag: "the shipped detector")
    var req = RunRequest(image: upright, profile: prof, face: try FaceCatalog.face(named: "10_zone"), detector: .loaded(model, name: "arrow-detector"),
                         expectedArrows: 6)
    req.threads = threads
    req.gestures = [.confirm]
    if prof.refine {
      do { req.refiner = try ArrowRefiner(contentsOf: try ProductPaths.require("arrow-refiner.onnx")) } catch let e as CLIError { throw e } catch {
        throw CLIError(message: "the shipped refiner: \(error)")
      }
    }
    // Each run records its own stages; the medians are taken per stage over the timed runs.
    var perStage: [String: [Duration]] = [:], order: [String] = []
    var first = true
    let result = try time("pipeline: detect → NMS → locate → score → confirm") { () throws -> RunResult in
      var timed = req
      timed.stageTimes = StageTimes()
      let out = try ArcheryPipeline.run(timed)
      defer { first = false }
      if !first {  // the warm-up run is not counted, as for every stage
        for (stage, t) in timed.stageTimes?.stages ?? [] {
          if perStage[stage] == nil { order.append(stage) }
          perStage[stage, default: []].append(t)
        }
      }
      return out
    }
    let inner = order.map { ($0, medianMS(perStage[$0] ?? [])) }
    _ = try time("overlay: draw + PNG encode") {
      try PNG.encode(try ArcheryOverlay.draw(result, profile: prof.name, truth: nil, image: upright, id: "bench"))
    }
    let total = stages.reduce(0) { $0 + $1.1 }
    let size = "\(upright.width)x\(upright.height)"
    if json {
      var s = Dictionary(uniqueKeysWithValues: stages.map { ($0.0, JSONValue.double($0.1)) })
      s["total"] = .double(total)
      let p = Dictionary(uniqueKeysWithValues: inner.map { ($0.0, JSONValue.double($0.1)) })
      print(try JSONValue.object(["image": .string(size), "path": .string(image), "profile": .string(prof.name), "threads": .int(threads),
                                  "stages_ms": .object(s), "pipeline_stages_ms": .object(p)])
        .canonicalText(), terminator: "")
    } else {
      print("\(image): \(size) \(photo.format.rawValue), profile \(prof.name), \(threads) thread(s), median of \(repeat_)")
      for (name, ms) in stages {
        print("  \(name): \(String(format: "%.1f", ms)) ms")
        if name.hasPrefix("pipeline") {
          for (stage, ms) in inner { print("    \(stage): \(String(format: "%.1f", ms)) ms") }
        }
      }
      print("  total: \(String(format: "%.1f", total)) ms")
    }
  }
}
