import Testing

@testable import Inference

/// Exporters (PyTorch's `x[:, 1:]`) write INT64_MAX / INT64_MIN as Slice
/// bounds meaning "to the end"; the spec clamps bounds to the dimension, so
/// these must load and slice like the dimension itself.
struct SliceBoundsTests {
  func sliced(starts: [Int64], ends: [Int64], steps: [Int64]) throws -> Tensor {
    var g = TestGraph()
    g.inputs = [("x", [1, 5])]
    g.intInitializers = [("s", [1], starts), ("e", [1], ends), ("a", [1], [1]), ("k", [1], steps)]
    g.nodes = [TestGraph.Node(op: "Slice", name: "slice", inputs: ["x", "s", "e", "a", "k"], outputs: ["y"])]
    g.outputs = ["y"]
    let m = try InferenceModel(bytes: g.serialized(), memoryLimit: 16 << 20)
    let x = try Tensor(shape: [1, 5], scalars: [10, 11, 12, 13, 14])
    return try #require(try m.run(["x": x], threads: 1)["y"])
  }

  @Test func int64ExtremesMeanToTheEnd() throws {
    #expect(try sliced(starts: [1], ends: [.max], steps: [1]).scalars == [11, 12, 13, 14])
    #expect(try sliced(starts: [.min], ends: [3], steps: [1]).scalars == [10, 11, 12])
    // backwards from the end to the start
    #expect(try sliced(starts: [.max], ends: [.min], steps: [-2]).scalars == [14, 12, 10])
  }
}
