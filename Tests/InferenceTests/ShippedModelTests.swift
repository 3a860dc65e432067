import Foundation
import Testing

@testable import Inference

/// The models shipped under Models/ (see Models/README.md) run in the Swift
/// backend and match onnxruntime on a fixed input:
/// max |Δ| ≤ 1e-4 · max |reference| (fixtures in Models/fixtures/).
struct ShippedModelTests {
  /// Repository root, found from this file's path (Tests/InferenceTests/…).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every shipped model with its fixture stem and expected output shape.
  static let models: [(name: String, shape: [Int])] = [
    ("arrow-detector", [1, 6, 8400]),
    ("setcards-detector", [1, 5, 8400]),
    ("setcards-classifier", [1, 12]),
  ]

  static var shipped: [String] {
    models.map(\.name).filter {
      FileManager.default.fileExists(atPath: root.appendingPathComponent("Models/\($0).onnx").path)
    }
  }

  @Test("Shipped model matches onnxruntime", arguments: shipped)
  func matchesOnnxRuntime(_ name: String) throws {
    let dir = Self.root.appendingPathComponent("Models")
    let model = try InferenceModel(contentsOf: dir.appendingPathComponent("\(name).onnx").path)
    let input = try NPY.read(dir.appendingPathComponent("fixtures/\(name).input.npy").path)
    let reference = try NPY.read(dir.appendingPathComponent("fixtures/\(name).output.npy").path)
    let inputName = try #require(model.inputs.first?.name)
    let outputName = try #require(model.outputs.first?.name)
    let out = try model.run([inputName: input], threads: 1)
    let actual = try #require(out[outputName])
    let expectedShape = try #require(Self.models.first { $0.name == name }?.shape)
    #expect(reference.shape == expectedShape)
    #expect(actual.shape == reference.shape)
    #expect(actual.scalars.count == reference.scalars.count)
    let scale = reference.scalars.reduce(Float(0)) { max($0, abs($1)) }
    var worst: Float = 0
    var worstIndex = 0
    for (i, (a, r)) in zip(actual.scalars, reference.scalars).enumerated() where abs(a - r) > worst || a.isNaN {
      worst = a.isNaN ? .infinity : abs(a - r)
      worstIndex = i
    }
    #expect(worst <= 1e-4 * scale, "\(name): max |Δ| \(worst) at \(worstIndex), limit \(1e-4 * scale)")
  }

  @Test("Every shipped model has its fixtures")
  func fixturesPresent() {
    let dir = Self.root.appendingPathComponent("Models")
    for name in Self.shipped {
      for suffix in ["input", "output"] {
        let path = dir.appendingPathComponent("fixtures/\(name).\(suffix).npy").path
        #expect(FileManager.default.fileExists(atPath: path), "missing \(path)")
      }
    }
  }
}
