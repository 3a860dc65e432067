import Foundation
import Testing

@testable import Inference

/// The models shipped under Models/ (see Models/README.md) run in the Swift
/// backend and match onnxruntime on a fixed input:
/// max |Δ| ≤ 1e-4 · max |reference| (fixtures in Models/fixtures/; an image
/// input is stored as its 8-bit levels, `<name>.input-u8.npy`, and is those / 255).
struct ShippedModelTests {
  /// Repository root, found from this file's path (Tests/InferenceTests/…).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every shipped model with its fixture stem and expected output shapes, in
  /// output order (the first output's reference is `<name>.output.npy`, a later
  /// one's `<name>.output-<output name>.npy`).
  static let models: [(name: String, shapes: [[Int]])] = [
    ("arrow-detector", [[1, 6, 8400]]),
    ("setcards-detector", [[1, 5, 8400]]),
    ("setcards-classifier", [[1, 12]]),
    ("arrow-refiner", [[1, 6, 96, 96], [1, 3]]),
  ]

  /// Every model listed above, whether or not its file is there: a missing
  /// model fails `everyShippedModelIsPresent` and its own case, never drops out.
  static var shipped: [String] { models.map(\.name) }

  @Test("Every listed shipped model is in Models/")
  func everyShippedModelIsPresent() {
    #expect(!Self.shipped.isEmpty, "no shipped models listed: matchesOnnxRuntime would run zero cases")
    for name in Self.shipped {
      let path = Self.root.appendingPathComponent("Models/\(name).onnx").path
      #expect(FileManager.default.fileExists(atPath: path), "shipped model missing: \(path)")
    }
  }

  @Test("Shipped model matches onnxruntime", arguments: shipped)
  func matchesOnnxRuntime(_ name: String) throws {
    let dir = Self.root.appendingPathComponent("Models")
    let model = try InferenceModel(contentsOf: dir.appendingPathComponent("\(name).onnx").path)
    let input = try Self.input(name)
    let inputName = try #require(model.inputs.first?.name)
    let out = try model.run([inputName: input], threads: 1)
    let shapes = try #require(Self.models.first { $0.name == name }?.shapes)
    #expect(model.outputs.count == shapes.count)
    for (k, (output, shape)) in zip(model.outputs, shapes).enumerated() {
      let file = k == 0 ? "\(name).output.npy" : "\(name).output-\(output.name).npy"
      let reference = try NPY.read(dir.appendingPathComponent("fixtures/\(file)").path)
      let actual = try #require(out[output.name])
      #expect(reference.shape == shape, "\(file)")
      #expect(actual.shape == reference.shape, "\(file)")
      #expect(actual.scalars.count == reference.scalars.count)
      let scale = reference.scalars.reduce(Float(0)) { max($0, abs($1)) }
      var worst: Float = 0
      var worstIndex = 0
      for (i, (a, r)) in zip(actual.scalars, reference.scalars).enumerated() where abs(a - r) > worst || a.isNaN {
        worst = a.isNaN ? .infinity : abs(a - r)
        worstIndex = i
      }
      #expect(worst <= 1e-4 * scale, "\(file): max |Δ| \(worst) at \(worstIndex), limit \(1e-4 * scale)")
    }
  }

  /// The fixture input: float32 as stored, or 8-bit levels / 255 (exactly what
  /// `levels.astype(float32) / 255` gave onnxruntime).
  static func input(_ name: String) throws -> Tensor {
    let dir = root.appendingPathComponent("Models/fixtures")
    let levels = dir.appendingPathComponent("\(name).input-u8.npy").path
    guard FileManager.default.fileExists(atPath: levels) else {
      return try NPY.read(dir.appendingPathComponent("\(name).input.npy").path)
    }
    let t = try NPY.read(levels)
    return try Tensor(shape: t.shape, scalars: t.scalars.map { $0 / 255 })
  }

  @Test("Every shipped model has its fixtures")
  func fixturesPresent() {
    let dir = Self.root.appendingPathComponent("Models/fixtures")
    for name in Self.shipped {
      let inputs = ["\(name).input.npy", "\(name).input-u8.npy"].filter {
        FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path)
      }
      #expect(inputs.count == 1, "\(name): expected exactly one input fixture, found \(inputs)")
      let output = dir.appendingPathComponent("\(name).output.npy").path
      #expect(FileManager.default.fileExists(atPath: output), "missing \(output)")
    }
  }
}
