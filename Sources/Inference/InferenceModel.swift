import CKernels
import Foundation

/// The name and declared shape of a model input or output.
public struct TensorDescriptor: Sendable, Hashable {
  /// The graph value's name.
  public let name: String
  /// The declared shape; nil when the model declares none.
  public let shape: [Dimension]?
}

/// A loaded ONNX model, ready to run on the CPU.
///
/// Loading decodes and validates the whole graph (topological order, every
/// input produced, initializers present, supported operators). Shapes are
/// inferred and buffers laid out once per set of input shapes; steady-state
/// runs do not allocate per node.
///
/// Determinism: outputs are bit-identical across runs, thread counts and
/// machines. Reductions (GEMM's K, convolution taps, sums) always run in the
/// same order in one accumulator; threads and SIMD lanes only split
/// independent outputs; every dispatch path (AVX-512, AVX2, scalar) uses
/// fused multiply-adds, and transcendental functions use portable code.
public struct InferenceModel: Sendable {
  /// Graph inputs (initializers excluded), in declaration order.
  public let inputs: [TensorDescriptor]
  /// Graph outputs, in declaration order.
  public let outputs: [TensorDescriptor]

  let graph: Graph
  let cache: PlanCache

  /// The default memory limit, 2 GiB, for weights and activations.
  public static let defaultMemoryLimit = 2 << 30

  /// Loads a model from serialized ONNX bytes.
  public init(bytes: [UInt8], memoryLimit: Int = InferenceModel.defaultMemoryLimit) throws {
    try self.init(bytes: bytes, memoryLimit: memoryLimit, fuse: true)
  }

  /// Fails when `BULLSEYE_ISA` is set to a value other than scalar, avx2 or
  /// avx512, naming it and the accepted ones: a typo must not silently run the best ISA.
  public static func checkEnvironment() throws {
    try KernelISA.validateEnvironment()
  }

  /// Loads a model from an .onnx file (same as `init(contentsOf:)`).
  init(path: String, memoryLimit: Int = InferenceModel.defaultMemoryLimit) throws {
    try self.init(contentsOf: path, memoryLimit: memoryLimit)
  }

  /// Loads a model from an .onnx file.
  public init(contentsOf path: String, memoryLimit: Int = InferenceModel.defaultMemoryLimit) throws {
    try self.init(bytes: try readFile(path, limit: memoryLimit), memoryLimit: memoryLimit)
  }

  init(bytes: [UInt8], memoryLimit: Int, fuse: Bool, planEagerly: Bool = true) throws {
    try KernelISA.validateEnvironment()
    let model = try OnnxModel.decode(bytes)
    graph = try Graph(model: model, memoryLimit: memoryLimit, fuse: fuse)
    inputs = graph.inputs.map { TensorDescriptor(name: $0.name, shape: $0.dims) }
    outputs = graph.outputs.map { TensorDescriptor(name: $0.name, shape: $0.dims) }
    cache = PlanCache()
    // Plan up front when every input shape is fixed, so shape errors surface now.
    if planEagerly, let shapes = fixedShapes, graph.inputs.allSatisfy({ $0.elemType == 1 }) {
      _ = try cache.plan(graph, shapes, isa: KernelISA.current)
    }
  }

  /// The same model with plans of its own: a plan runs one input at a time in
  /// its buffers, so workers that run a model at once each take a replica.
  public func replica() -> InferenceModel {
    InferenceModel(inputs: inputs, outputs: outputs, graph: graph, cache: PlanCache())
  }

  private init(inputs: [TensorDescriptor], outputs: [TensorDescriptor], graph: Graph, cache: PlanCache) {
    self.inputs = inputs; self.outputs = outputs; self.graph = graph; self.cache = cache
  }

  /// Input shapes when every dimension is declared as a number.
  var fixedShapes: [String: [Int]]? {
    var r: [String: [Int]] = [:]
    for i in graph.inputs {
      guard let dims = i.dims else { return nil }
      var s: [Int] = []
      for d in dims {
        guard case .value(let v) = d else { return nil }
        s.append(v)
      }
      r[i.name] = s
    }
    return r
  }

  /// Runs the model. `inputs` must name every graph input with a shape that
  /// matches its declared fixed dimensions; `threads` ≥ 1 splits work
  /// without changing any output bit.
  public func run(_ inputs: [String: Tensor], threads: Int = 1) throws -> [String: Tensor] {
    let values = inputs.mapValues { Value(shape: $0.shape, floats: $0.scalars) }
    return try run(values: values, threads: threads, isa: KernelISA.current).mapValues(\.tensor)
  }

  /// Runs with internal values (any element type) and a chosen ISA.
  func run(
    values: [String: Value], threads: Int, isa: Int32, constants: Set<String> = []
  ) throws -> [String: Value] {
    guard threads >= 1 else {
      throw InferenceError.shape("Thread count is \(threads); expected 1 or more.")
    }
    for name in values.keys where !graph.inputs.contains(where: { $0.name == name }) {
      throw InferenceError.shape("Input '\(name)' is not a graph input; expected one of \(graph.inputs.map(\.name)).")
    }
    var shapes: [String: [Int]] = [:]
    var baked: [String: Value] = [:]
    var floats: [String: [Float]] = [:]
    for info in graph.inputs {
      guard let v = values[info.name] else {
        throw InferenceError.shape("Input '\(info.name)' is missing; expected a tensor for every graph input.")
      }
      if let dims = info.dims {
        let ok = dims.count == v.shape.count && zip(dims, v.shape).allSatisfy { d, s in
          if case .value(let x) = d { return x == s }
          return true
        }
        guard ok else {
          throw InferenceError.shape("Input '\(info.name)' has shape \(v.shape); expected \(dims.map(\.description)).")
        }
      }
      // A model that declares integers or booleans would read these floats' bits as something else.
      if info.elemType != 0, DType(onnx: info.elemType) != v.dtype {
        throw InferenceError.shape("Input '\(info.name)' is given as \(v.dtype.onnxName); the model declares \(DType.name(ofOnnx: info.elemType)).")
      }
      if v.dtype == .float && !constants.contains(info.name) {
        shapes[info.name] = v.shape
        floats[info.name] = v.f
      } else {
        baked[info.name] = v
      }
    }
    let plan: Plan
    if baked.isEmpty {
      plan = try cache.plan(graph, shapes, isa: isa)
    } else {
      plan = try Planner.build(graph, shapes: shapes, baked: baked, isa: isa)
    }
    let out = plan.run(floats, exec: Exec(threads: threads, isa: isa))
    return out
  }

  /// Multiply-adds of Conv, MatMul and Gemm for the given input shapes.
  func macs(shapes: [String: [Int]]) throws -> Int {
    try cache.plan(graph, shapes, isa: KernelISA.current).macs
  }
}

/// Plans by input shapes, built on first use.
final class PlanCache: @unchecked Sendable {
  private var plans: [[String: [Int]]: Plan] = [:]
  private let lock = NSLock()

  func plan(_ graph: Graph, _ shapes: [String: [Int]], isa: Int32) throws -> Plan {
    lock.lock()
    defer { lock.unlock() }
    // Plans bake the ISA into nothing but the run call, so one cache serves all.
    if let p = plans[shapes] { return p }
    let p = try Planner.build(graph, shapes: shapes, isa: isa)
    if plans.count > 8 { plans.removeAll() }
    plans[shapes] = p
    return p
  }
}

/// Instruction-set selection: the best the CPU has, or lower with
/// `BULLSEYE_ISA=scalar|avx2|avx512` (a level the CPU lacks is clamped to what
/// it has; results are bit-identical at every level). Any other value is refused.
enum KernelISA {
  static let best: Int32 = bk_best_isa()
  /// The accepted `BULLSEYE_ISA` values, lowest first, with their levels.
  static let names: [(String, Int32)] = [("scalar", 0), ("avx2", 1), ("avx512", 2)]

  /// The level `value` asks for (nil: unset or empty, the best), or the error naming it.
  static func requested(_ value: String?) -> Result<Int32?, InferenceError> {
    guard let value, !value.isEmpty else { return .success(nil) }
    guard let level = names.first(where: { $0.0 == value })?.1 else {
      return .failure(InferenceError(.unsupported, "BULLSEYE_ISA '\(value)' is unknown: expected one of \(names.map(\.0).joined(separator: ", "))"))
    }
    return .success(level)
  }

  /// Fails when `BULLSEYE_ISA` holds a value that is not one of `names`.
  static func validateEnvironment() throws(InferenceError) {
    if case .failure(let e) = requested(ProcessInfo.processInfo.environment["BULLSEYE_ISA"]) { throw e }
  }

  static let current: Int32 = {
    switch requested(ProcessInfo.processInfo.environment["BULLSEYE_ISA"]) {
    case .success(let level?): return min(best, level)
    default: return best  // unknown values are refused at load (validateEnvironment)
    }
  }()
}

/// Reads a whole file, refusing files larger than `limit` bytes.
func readFile(_ path: String, limit: Int) throws -> [UInt8] {
  // Checked before opening: opening a FIFO waits for a writer, forever.
  var before = stat()
  if stat(path, &before) == 0, (before.st_mode & S_IFMT) != S_IFREG, (before.st_mode & S_IFMT) != S_IFDIR {
    throw InferenceError(.io, "'\(path)' is not a regular file; expected an ONNX file.")
  }
  guard let h = FileHandle(forReadingAtPath: path) else {
    throw InferenceError(.io, "Cannot open '\(path)'; expected a readable file.")
  }
  defer { try? h.close() }
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
    throw InferenceError(.io, "'\(path)' is a directory; expected an ONNX file.")
  }
  // A device or pipe (/dev/zero) has no end to read to: only a regular file is a model.
  var info = stat()
  if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
    throw InferenceError(.io, "'\(path)' is not a regular file; expected an ONNX file.")
  }
  let size = (try? h.seekToEnd()).map { Int($0) } ?? 0
  guard size <= limit else {
    throw InferenceError.limit("File '\(path)' is \(size) bytes; expected at most \(limit) (the memory limit).")
  }
  try? h.seek(toOffset: 0)
  let data = (try? h.readToEnd()) ?? Data()
  return [UInt8](data)
}
