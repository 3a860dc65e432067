import Foundation
import Testing

@testable import Inference

/// Loader and validation errors: each is a thrown `InferenceError` with one
/// sentence naming actual and expected values.
struct ReaderTests {
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    var id: String
    var bytes: @Sendable () -> [UInt8]
    var kind: InferenceError.Kind
    var expected: String
    var testDescription: String { id }
  }

  static let cases: [ErrorCase] = [
    ErrorCase(id: "empty", bytes: { [] }, kind: .malformed, expected: "The model file is empty"),
    ErrorCase(id: "garbage", bytes: { Array("not an onnx file at all".utf8) }, kind: .malformed, expected: "ModelProto is malformed"),
    ErrorCase(id: "truncated", bytes: { Array(TestGraph.convSiLU.serialized().dropLast(7)) }, kind: .malformed, expected: "exceeds the"),
    ErrorCase(
      id: "unsupported op",
      bytes: {
        var g = TestGraph.convSiLU
        g.nodes[1].op = "Erf"
        return g.serialized()
      }, kind: .unsupported, expected: "Node sig (Erf): unsupported operator"),
    ErrorCase(
      id: "missing initializer",
      bytes: {
        var g = TestGraph.convSiLU
        g.initializers.removeFirst()
        return g.serialized()
      }, kind: .invalidGraph, expected: "Node conv (Conv) reads 'w', which is not a graph input, initializer or node output"),
    ErrorCase(
      id: "cycle",
      bytes: {
        var g = TestGraph.convSiLU
        g.nodes[0].inputs[0] = "y"
        g.inputs = []
        return g.serialized()
      }, kind: .invalidGraph, expected: "Graph has a cycle through node"),
    ErrorCase(
      id: "external data",
      bytes: {
        var g = TestGraph.convSiLU
        g.externalInitializer = true
        return g.serialized()
      }, kind: .unsupported, expected: "refers to external data"),
    ErrorCase(
      id: "bad attribute",
      bytes: {
        var g = TestGraph.convSiLU
        g.nodes[0].ints["strides"] = [1, 1, 1]
        return g.serialized()
      }, kind: .invalidGraph, expected: "Node conv (Conv), attribute 'strides': expected 2 ints, got 3."),
    ErrorCase(
      id: "huge dims",
      bytes: {
        var g = TestGraph.convSiLU
        g.initializers[1].1 = [Int64.max / 2, 4]
        return g.serialized()
      }, kind: .limitExceeded, expected: "overflows Int"),
    ErrorCase(
      id: "over memory cap",
      bytes: {
        var g = TestGraph.convSiLU
        g.inputs = [("x", [1, 2, 40000, 40000])]
        return g.serialized()
      }, kind: .limitExceeded, expected: "expected at most 2147483648 (the memory limit)"),
  ]

  @Test("Bad models throw one-sentence errors", arguments: cases)
  func errors(_ c: ErrorCase) {
    do {
      _ = try InferenceModel(bytes: c.bytes())
      Issue.record("\(c.id): loaded without error")
    } catch let e as InferenceError {
      #expect(e.kind == c.kind, "\(c.id): \(e)")
      #expect(e.message.contains(c.expected), "\(c.id): \(e.message)")
    } catch {
      Issue.record("\(c.id): unexpected error \(error)")
    }
  }

  @Test func inputShapeMismatchThrows() throws {
    let m = try InferenceModel(bytes: TestGraph.convSiLU.serialized())
    #expect(m.inputs.map(\.name) == ["x"])
    #expect(throws: InferenceError.self) {
      _ = try m.run(["x": try Tensor(zeros: [1, 2, 5, 4])])
    }
    do {
      _ = try m.run(["x": try Tensor(zeros: [1, 2, 5, 4])])
    } catch let e as InferenceError {
      #expect(e.message == "Input 'x' has shape [1, 2, 5, 4]; expected [\"1\", \"2\", \"4\", \"4\"].")
    }
    #expect(throws: InferenceError.self) { _ = try m.run([:]) }
  }

  @Test func varintEdgeCases() throws {
    var r = ProtoReader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], context: "T")
    #expect(try r.varint() == UInt64.max)
    var bad = ProtoReader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02], context: "T")
    #expect(throws: InferenceError.self) { _ = try bad.varint() }
    var short = ProtoReader([0x80], context: "T")
    #expect(throws: InferenceError.self) { _ = try short.varint() }
    var group = ProtoReader([0x0b], context: "T")
    #expect(throws: InferenceError.self) { _ = try group.nextField() }
  }

  @Test func summaryCountsOpsParametersAndMACs() throws {
    let s = try InferenceModel.summary(bytes: TestGraph.convSiLU.serialized())
    #expect(s.opCounts == ["Conv": 1, "Sigmoid": 1, "Mul": 1])
    #expect(s.parameterCount == 57)
    #expect(s.macs == 3 * 16 * 18)
    #expect(s.inputs.first?.shape == ["1", "2", "4", "4"])
  }
}

/// Seeded corruption of valid models: every mutant loads and runs or throws
/// an `InferenceError`; none crashes.
struct MutationTests {
  static func seeds() throws -> [[UInt8]] {
    var models = [TestGraph.convSiLU.serialized()]
    models.append(try Fixtures.bytes("models/yolo11_like_dynamic.onnx"))
    models.append(try Fixtures.bytes("models/mobilenet_like.onnx"))
    for name in ["test_Conv2d_depthwise_padded", "test_operator_chunk", "test_Linear"] {
      models.append(try Fixtures.bytes("pytorch/\(name)/model.onnx"))
    }
    for name in ["test_resize_upsample_scales_nearest", "test_slice_neg_steps", "test_gather_0", "test_reshape_negative_dim"] {
      models.append(try Fixtures.bytes("node/\(name)/model.onnx"))
    }
    return models
  }

  static func mutate(_ b: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
    var b = b
    guard !b.isEmpty else { return b }
    switch rng.next() % 6 {
    case 0: b = Array(b.prefix(Int(rng.next() % UInt64(b.count))))
    case 1:
      for _ in 0..<(1 + rng.next() % 4) {
        let i = Int(rng.next() % UInt64(b.count))
        b[i] ^= UInt8(1 << (rng.next() % 8))
      }
    case 2:
      let i = Int(rng.next() % UInt64(b.count))
      b[i] = UInt8(truncatingIfNeeded: rng.next())
    case 3:
      let i = Int(rng.next() % UInt64(b.count))
      b.insert(contentsOf: [0xff, 0xff, 0xff, 0xff, 0x0f].prefix(Int(1 + rng.next() % 5)), at: i)
    case 4:
      let i = Int(rng.next() % UInt64(b.count))
      b.removeSubrange(i..<min(b.count, i + Int(1 + rng.next() % 16)))
    default:
      let i = Int(rng.next() % UInt64(b.count)), j = Int(rng.next() % UInt64(b.count))
      b.swapAt(i, j)
    }
    return b
  }

  @Test func corruptedModelsNeverCrash() throws {
    let models = try Self.seeds()
    var loaded = 0, ran = 0
    // BULLSEYE_MUTANTS raises the count for local fuzzing runs.
    let count = UInt64(ProcessInfo.processInfo.environment["BULLSEYE_MUTANTS"] ?? "") ?? 3000
    for seed in UInt64(0)..<count {
      var rng = SplitMix64(seed: seed)
      let base = models[Int(seed % UInt64(models.count))]
      var bytes = Self.mutate(base, &rng)
      if rng.next() % 3 == 0 { bytes = Self.mutate(bytes, &rng) }
      do {
        let m = try InferenceModel(bytes: bytes, memoryLimit: 64 << 20, fuse: true, planEagerly: true)
        loaded += 1
        var inputs: [String: Tensor] = [:]
        for i in m.inputs {
          let shape = (i.shape ?? []).map { d -> Int in if case .value(let v) = d { return min(v, 64) } else { return 1 } }
          inputs[i.name] = try Tensor(zeros: shape)
        }
        _ = try m.run(inputs, threads: 1 + Int(seed % 2))
        ran += 1
      } catch is InferenceError {
        continue
      } catch {
        Issue.record("seed \(seed): unexpected error type \(error)")
      }
    }
    // Some mutants must survive loading, or the test exercises nothing.
    #expect(loaded > 100, "only \(loaded) of \(count) mutants loaded")
    #expect(ran > 50, "only \(ran) mutants ran")
  }
}
