import Foundation
import Testing

@testable import Inference

/// One-node graphs with seeded random attributes, shapes and constant inputs:
/// every one loads and runs or throws an `InferenceError`, never crashes.
struct AttributeFuzzTests {
  static let ops = [
    "Conv", "MaxPool", "Transpose", "Slice", "Split", "Concat", "Softmax", "Flatten", "Squeeze",
    "Unsqueeze", "Gather", "Reshape", "Expand", "Resize", "ReduceMean", "MatMul", "Gemm",
    "GlobalAveragePool", "Add", "Where", "Range", "Cast", "HardSigmoid",
  ]

  static func graph(_ op: String, _ rng: inout SplitMix64) -> TestGraph {
    func r(_ n: Int) -> Int64 {
      switch rng.next() % 16 {
      case 0: return [Int64.max, Int64.min, 1 << 40, -(1 << 40), Int64(Int32.max) + 1][Int(rng.next() % 5)]
      default: return Int64(rng.next() % UInt64(n)) - Int64(n / 3)
      }
    }
    func small() -> Int64 { Int64(rng.next() % 4) }
    let rank = Int(rng.next() % 5)
    let shape = (0..<rank).map { _ in Int64(rng.next() % 4) + (rng.next() % 5 == 0 ? 0 : 1) }
    var g = TestGraph()
    g.opset = [9, 11, 12, 13, 17, 18][Int(rng.next() % 6)]
    g.inputs = [("x", shape)]
    var node = TestGraph.Node(op: op, name: "n", inputs: ["x"], outputs: ["y"])
    let ints = (0..<Int(rng.next() % 5)).map { _ in r(9) }
    let keys = ["axis", "axes", "perm", "pads", "strides", "kernel_shape", "dilations", "group", "split", "keepdims", "to", "transB", "ceil_mode"]
    for _ in 0..<Int(rng.next() % 4) {
      let k = keys[Int(rng.next() % UInt64(keys.count))]
      if rng.next() % 2 == 0 { node.ints[k] = ints } else { node.int[k] = r(7) }
    }
    // Constant second inputs of random shape and content.
    if rng.next() % 2 == 0 {
      let n = Int(rng.next() % 5)
      g.intInitializers = [("c", [Int64(n)], (0..<n).map { _ in r(8) })]
      node.inputs.append("c")
    } else if rng.next() % 2 == 0 {
      let dims = (0..<Int(rng.next() % 5)).map { _ in small() }
      let count = Int(dims.reduce(1, *))
      g.initializers = [("w", dims, (0..<count).map { Float($0) * 0.5 })]
      node.inputs.append("w")
    }
    if rng.next() % 3 == 0 { node.inputs.append(rng.next() % 2 == 0 ? "c" : "") }
    if rng.next() % 4 == 0 { node.inputs.append(rng.next() % 2 == 0 ? "c" : "w") }
    if node.inputs.contains("w"), g.initializers.isEmpty { g.initializers = [("w", [2], [0.5, 2])] }
    if node.inputs.contains("c"), g.intInitializers.isEmpty { g.intInitializers = [("c", [2], [1, -1])] }
    g.nodes = [node]
    g.outputs = ["y"]
    return g
  }

  @Test func randomAttributesNeverCrash() throws {
    let count = UInt64(ProcessInfo.processInfo.environment["BULLSEYE_MUTANTS"] ?? "") ?? 3000
    var ran = 0
    for seed in UInt64(0)..<count {
      var rng = SplitMix64(seed: seed)
      let op = Self.ops[Int(seed % UInt64(Self.ops.count))]
      let g = Self.graph(op, &rng)
      if ProcessInfo.processInfo.environment["FUZZ_TRACE"] != nil { FileHandle.standardError.write(Data("seed \(seed) \(op)\n".utf8)) }
      do {
        let m = try InferenceModel(bytes: g.serialized(), memoryLimit: 16 << 20)
        let shape = g.inputs[0].1.map { Int($0) }
        _ = try m.run(["x": try Tensor(zeros: shape)], threads: 1 + Int(seed % 2))
        ran += 1
      } catch is InferenceError {
        continue
      } catch {
        Issue.record("seed \(seed) (\(op)): unexpected error \(error)")
      }
    }
    #expect(ran > 100, "only \(ran) graphs ran")
  }
}
