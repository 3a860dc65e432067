import Testing

@testable import Inference

/// A model's declared input element type is held against what a caller hands it.
struct InputTypeTests {
  static func identity(declaring type: Int64) -> TestGraph {
    var g = TestGraph()
    g.inputs = [("x", [1, 4])]
    g.inputTypes = ["x": type]
    g.nodes = [TestGraph.Node(op: "Identity", name: "id", inputs: ["x"], outputs: ["y"])]
    g.outputs = ["y"]
    return g
  }

  /// Floats fed to an int64 input would be read as other numbers: refused, naming both types.
  @Test func floatsForAnIntegerInputAreRefused() throws {
    let model = try InferenceModel(bytes: Self.identity(declaring: 7).serialized())
    let x = try Tensor(shape: [1, 4], scalars: [1, 2, 3, 4])
    #expect {
      _ = try model.run(["x": x])
    } throws: { error in
      let text = "\(error)"
      return text.contains("'x'") && text.contains("float") && text.contains("int64")
    }
  }

  /// The same graph declaring float runs.
  @Test func floatsForAFloatInputRun() throws {
    let model = try InferenceModel(bytes: Self.identity(declaring: 1).serialized())
    let out = try model.run(["x": try Tensor(shape: [1, 4], scalars: [1, 2, 3, 4])])
    #expect(out["y"]?.scalars == [1, 2, 3, 4])
  }
}
