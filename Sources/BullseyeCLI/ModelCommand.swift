import ArgumentParser
import Canvas
import Core
import Foundation
import Inference

/// `bullseye model`: inspect and run ONNX models on the CPU backend.
struct ModelCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "model", abstract: "Inspect and run ONNX models with Bullseye's CPU backend.", discussion: "Example: bullseye model inspect Models/arrow-detector.onnx --json",
                                                  subcommands: [ModelInspect.self, ModelRun.self, ModelList.self])
}

/// Turns any runtime error into the one-line CLI error.
func inferenceCall<T>(file: String? = nil, _ body: () throws -> T) throws -> T {
  do { return try body() } catch let e as CLIError { throw e } catch {
    throw CLIError(message: file.map { "model '\($0)': \(firstLine(error))" } ?? firstLine(error))
  }
}

struct ModelInspect: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "inspect", abstract: "Inputs, outputs, op counts, parameter count, MACs.", discussion: "Example: bullseye model inspect Models/arrow-detector.onnx --json")
  @Argument var model: String
  @Flag var json = false

  func run() throws {
    let s = try inferenceCall(file: model) { try InferenceModel.summary(contentsOf: model) }
    if json {
      let ports = { (p: [ModelSummary.Port]) -> JSONValue in
        .array(p.map { .object(["name": .string($0.name), "shape": .array($0.shape.map(JSONValue.string))]) })
      }
      print(try JSONValue.object([
        "inputs": ports(s.inputs), "outputs": ports(s.outputs),
        "op_counts": .object(s.opCounts.mapValues(JSONValue.int)), "nodes": .int(s.nodeCount),
        "parameters": .int(s.parameterCount), "macs": s.macs.map(JSONValue.int) ?? .null,
        "opset": .int(s.opset), "producer": .string(s.producer), "prepared": .array(s.prepared.map(JSONValue.string)),
      ]).canonicalText(), terminator: "")
    } else {
      print("inputs: " + s.inputs.map { "\($0.name) [\($0.shape.joined(separator: ", "))]" }.joined(separator: "; "))
      print("outputs: " + s.outputs.map { "\($0.name) [\($0.shape.joined(separator: ", "))]" }.joined(separator: "; "))
      print("nodes: \(s.nodeCount), parameters: \(s.parameterCount), MACs: \(s.macs.map(String.init) ?? "unknown"), opset \(s.opset)")
      for (op, n) in s.opCounts.sorted(by: { $0.key < $1.key }) { print("  \(op): \(n)") }
      if !s.prepared.isEmpty {
        print("prepared at load (kernel; weight layout):")
        for line in s.prepared { print("  " + line) }
      }
    }
  }
}

struct ModelRun: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a model on a .npy tensor or an image; write the first output as .npy.", discussion: "Example: bullseye model run Models/arrow-detector.onnx --image photo.jpg --output out.npy --threads 2 --repeat 20 --json")
  @Argument var model: String
  @Option(help: "Input tensor (float32 .npy).") var input: String?
  @Option(help: "Input image (PNG, JPEG or HEIC; turned upright by its orientation), preprocessed to the model's input size.") var image: String?
  @Flag(help: "Letterbox on gray 114 (Ultralytics; the default).") var letterbox = false
  @Flag(help: "Stretch to the input size (Vision .scaleFill).") var stretch = false
  @Option(help: "Output tensor path (.npy).") var output: String
  @Option(parsing: .unconditional) var threads: Int = 1
  @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Timed runs; the median is reported. With more than one, warm-up runs come first (at least 3 and 0.2 s).") var repeat_: Int = 1
  @Flag var json = false

  func validate() throws {
    guard (input == nil) != (image == nil) else { throw ValidationError("give exactly one of --input IN.npy or --image PHOTO.png") }
    guard !(letterbox && stretch) else { throw ValidationError("--letterbox and --stretch exclude each other") }
    if input != nil, letterbox || stretch {
      throw ValidationError("--\(letterbox ? "letterbox" : "stretch") needs --image: an --input tensor goes to the model as it is")
    }
    guard (1...64).contains(threads) else { throw ValidationError("--threads \(threads) is out of range: expected 1...64") }
    guard (1...10_000).contains(repeat_) else { throw ValidationError("--repeat \(repeat_) is out of range: expected 1...10000") }
  }

  func run() throws {
    try OutputPaths.checkWritable(output, flag: "--output")
    try OutputPaths.checkDistinct(inputs: [("the model", model), ("--input", input), ("--image", image)], outputs: [("--output", output)])
    let m = try inferenceCall(file: model) { try InferenceModel(contentsOf: model) }
    guard let inPort = m.inputs.first, let outPort = m.outputs.first else { throw CLIError(message: "model '\(model)' has no inputs or outputs") }
    let tensor: Tensor
    if let input {
      tensor = try inferenceCall { try NPY.read(input) }
    } else {
      let photo = try readPhoto(image!, flag: "--image").upright
      let size = inPort.shape?.last.flatMap { d -> Int? in if case .value(let v) = d { return v } else { return nil } } ?? 640
      do {
        let planes = stretch ? try ModelInput.stretch(photo, side: size) : try ModelInput.letterbox(photo, side: size).planes
        tensor = try Tensor(shape: [1, 3, size, size], scalars: planes)
      } catch { throw CLIError(message: "--image '\(image!)': \(error)") }
    }
    // The tensor against the model's declared input, named by the flag that gave it.
    if let input, let dims = inPort.shape {
      let fits = dims.count == tensor.shape.count && zip(dims, tensor.shape).allSatisfy { d, n in d.fixed.map { $0 == n } ?? true }
      if !fits {
        let declared = "[" + dims.map { $0.fixed.map(String.init) ?? "?" }.joined(separator: ", ") + "]"
        throw CLIError(message: "--input '\(input)' has shape \(tensor.shape): expected \(declared), the input '\(inPort.name)' of model '\(model)'")
      }
    }
    let clock = ContinuousClock()
    var result: [String: Tensor] = try inferenceCall { try m.run([inPort.name: tensor], threads: threads) }  // warm-up
    if repeat_ > 1 {
      // A fresh process's pool worker can share the caller's core for its
      // first tens of milliseconds, until the scheduler moves it (seen here:
      // MobileNetV3-small on 2 threads at its 1-thread speed for ~45 ms).
      // Timed runs measure the settled state, as onnxruntime's warm session does.
      let start = clock.now
      var runs = 1
      while runs < 3 || clock.now - start < .milliseconds(200) {
        result = try inferenceCall { try m.run([inPort.name: tensor], threads: threads) }
        runs += 1
      }
    }
    var samples: [Duration] = []
    for _ in 0..<repeat_ {
      samples.append(try clock.measure { result = try inferenceCall { try m.run([inPort.name: tensor], threads: threads) } })
    }
    guard let out = result[outPort.name] else { throw CLIError(message: "model produced no '\(outPort.name)'") }
    // Atomic like every output; a device (`/dev/null`) is written into, not replaced.
    do { try AtomicFile.write(NPY.encode(out), to: output) } catch { throw CLIError(message: "--output '\(output)': \(error)") }
    if json {
      // GFLOP/s counts a multiply-add as two operations (the model's MACs × 2).
      let macs = m.summary.macs  // the loaded model's own plan, not the file read again
      let ms = medianMS(samples)
      print(try JSONValue.object(["median_ms": .double(ms), "threads": .int(threads), "repeat": .int(repeat_),
                                  "output_shape": .array(out.shape.map(JSONValue.int)), "isa": .string(PeakFMA.currentISA),
                                  "macs": macs.map(JSONValue.int) ?? .null,
                                  "gflops": macs.map { .double(2 * Double($0) / (ms * 1e6)) } ?? .null]).canonicalText(), terminator: "")
    } else {
      print("\(outPort.name) \(out.shape): median \(String(format: "%.2f", medianMS(samples))) ms over \(repeat_) run(s) on \(threads) thread(s)")
    }
  }
}
