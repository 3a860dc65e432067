import CKernels
import Foundation
import Testing

@testable import Inference

/// Reference models from Training/inference/gen_reference_models.py, compared
/// with onnxruntime outputs: |Δ| ≤ 1e-4 · max|reference|.
struct ModelTests {
  static let names = ["yolo_like", "yolo_like_opset12", "yolo11_like", "mobilenet_like", "yolo11_like_dynamic"]

  static func load(_ name: String, fuse: Bool = true) throws -> (InferenceModel, Tensor, Tensor) {
    let m = try InferenceModel(
      bytes: try Fixtures.bytes("models/\(name).onnx"), memoryLimit: InferenceModel.defaultMemoryLimit, fuse: fuse)
    let x = try NPY.read(Fixtures.url("models/\(name).input.npy").path)
    let y = try NPY.read(Fixtures.url("models/\(name).output.npy").path)
    return (m, x, y)
  }

  @Test("Matches onnxruntime", arguments: names)
  func matchesOnnxRuntime(_ name: String) throws {
    let (m, x, y) = try Self.load(name)
    let out = try m.run(["images": x], threads: 1)
    let actual = try #require(out["output0"])
    #expect(actual.shape == y.shape)
    let mismatch = compare(actual.scalars, y.scalars, Tolerance.golden)
    #expect(mismatch == nil, "\(name): \(mismatch?.description ?? "") tolerance \(Tolerance.golden)")
  }

  @Test("Bit-identical across 1, 2 and 4 threads and repeated runs", arguments: names)
  func threadDeterminism(_ name: String) throws {
    let (m, x, _) = try Self.load(name)
    let one = try m.run(["images": x], threads: 1)["output0"]?.scalars ?? []
    for t in [2, 4, 1] {
      let other = try m.run(["images": x], threads: t)["output0"]?.scalars ?? []
      #expect(compare(other, one, .exact) == nil, "\(name) threads \(t)")
    }
  }

  @Test("Fusing Conv + activation does not change any bit", arguments: names)
  func fusionIsExact(_ name: String) throws {
    let (fused, x, _) = try Self.load(name, fuse: true)
    let (plain, _, _) = try Self.load(name, fuse: false)
    #expect(fused.graph.nodes.count < plain.graph.nodes.count)
    let a = try fused.run(["images": x])["output0"]?.scalars ?? []
    let b = try plain.run(["images": x])["output0"]?.scalars ?? []
    #expect(compare(a, b, .exact) == nil, "\(name)")
  }

  @Test("Every dispatch path the CPU supports gives the same bits", arguments: names)
  func dispatchDeterminism(_ name: String) throws {
    let (m, x, _) = try Self.load(name)
    let input = ["images": Value(shape: x.shape, floats: x.scalars)]
    let best = try m.run(values: input, threads: 2, isa: KernelISA.best)["output0"]?.f ?? []
    for isa in Int32(0)...KernelISA.best {
      let other = try m.run(values: input, threads: 2, isa: isa)["output0"]?.f ?? []
      #expect(compare(other, best, .exact) == nil, "\(name) isa \(isa)")
    }
  }

  @Test func summaryOfYoloLike() throws {
    let s = try InferenceModel.summary(contentsOf: Fixtures.url("models/yolo11_like.onnx").path)
    #expect(s.inputs.first?.shape == ["1", "3", "64", "64"])
    #expect(s.opCounts["MatMul"] == 2)
    #expect((s.macs ?? 0) > 0)
    #expect(s.parameterCount > 10_000)
  }

  @Test("The summary names the channel-blocked walk where AVX-512 takes it, and only there")
  func summaryNamesBlockedWalk() throws {
    // 32 -> 32 channels, 3x3 onto 40x40 (padded copy, two blocks of 16 on AVX-512), then 1x1 (never blocked).
    var g = TestGraph()
    g.inputs = [("x", [1, 32, 40, 40])]
    g.initializers = [
      ("w1", [32, 32, 3, 3], (0..<(32 * 32 * 9)).map { Float($0 % 7) * 0.01 }),
      ("w2", [32, 32, 1, 1], (0..<(32 * 32)).map { Float($0 % 5) * 0.01 }),
    ]
    g.nodes = [
      .init(op: "Conv", name: "c3", inputs: ["x", "w1"], outputs: ["a"], ints: ["pads": [1, 1, 1, 1]]),
      .init(op: "Conv", name: "c1", inputs: ["a", "w2"], outputs: ["y"]),
    ]
    g.outputs = ["y"]
    let s = try InferenceModel.summary(bytes: g.serialized())
    let avx512 = KernelISA.current >= Int32(BK_ISA_AVX512)
    #expect(s.prepared.contains { $0.hasPrefix("c3:") && $0.contains("walked in blocks of 16 input channels") } == avx512)
    #expect(!s.prepared.contains { $0.hasPrefix("c1:") && $0.contains("walked in blocks") })
  }

  @Test("The summary lists what loading prepared: every Conv's kernel, batch-1 weights packed in column blocks")
  func summaryListsPreparedLayouts() throws {
    let s = try InferenceModel.summary(contentsOf: Fixtures.url("models/mobilenet_like.onnx").path)
    let convs = s.opCounts["Conv"] ?? 0
    #expect(convs > 0)
    #expect(s.prepared.filter { $0.contains("/Conv") || $0.contains("Conv:") }.count == convs)
    #expect(s.prepared.contains { $0.contains("packed in column blocks") })
    #expect(s.prepared.contains { $0.contains("depthwise") })
  }
}

/// NPY reading and writing.
struct NPYTests {
  @Test func roundTrip() throws {
    let t = try Tensor(shape: [2, 3], scalars: [1, -2, 3.5, 0, .infinity, -0.25])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bullseye-npy-\(getpid()).npy").path
    try NPY.write(t, to: path)
    #expect(try NPY.read(path) == t)
    let bytes = NPY.encode(t)
    #expect((bytes.count - 24) % 64 == 0)
  }

  @Test func rejectsOtherDtypesAndFortranOrder() throws {
    var b = NPY.encode(try Tensor(shape: [1], scalars: [1]))
    let header = String(decoding: b, as: UTF8.self)
    #expect(header.contains("'<f4'"))
    if let r = b.firstRange(of: Array("<f4".utf8)) { b.replaceSubrange(r, with: Array("<f8".utf8)) }
    #expect(throws: InferenceError.self) { _ = try NPY.decode(b) }
    var f = NPY.encode(try Tensor(shape: [1], scalars: [1]))
    if let r = f.firstRange(of: Array("False".utf8)) { f.replaceSubrange(r, with: Array("True ".utf8)) }
    #expect(throws: InferenceError.self) { _ = try NPY.decode(f) }
    #expect(throws: InferenceError.self) { _ = try NPY.decode(Array(NPY.encode(try Tensor(shape: [4], scalars: [1, 2, 3, 4])).dropLast())) }
  }
}

