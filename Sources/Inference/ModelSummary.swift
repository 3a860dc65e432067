/// What `bullseye model inspect` prints: the interface and the cost of a model.
public struct ModelSummary: Sendable, Codable, Equatable {
  /// A named tensor and its declared shape ("batch" for symbolic dims).
  public struct Port: Sendable, Codable, Equatable {
    public let name: String
    public let shape: [String]
  }
  /// Graph inputs.
  public let inputs: [Port]
  /// Graph outputs.
  public let outputs: [Port]
  /// Node count per operator type, before fusion.
  public let opCounts: [String: Int]
  /// Total node count.
  public let nodeCount: Int
  /// Scalar count of all float initializers.
  public let parameterCount: Int
  /// Multiply-adds of Conv, MatMul and Gemm for the declared input shapes
  /// (symbolic dimensions taken as 1); nil when they cannot be resolved.
  public let macs: Int?
  /// The ai.onnx opset version.
  public let opset: Int
  /// Producer name and version.
  public let producer: String
  /// What loading did once for the declared input shapes, per node: the
  /// kernel and the layout its weights were packed into (`node: note`).
  public let prepared: [String]
}

extension InferenceModel {
  /// Summarises a model file without running it.
  public static func summary(contentsOf path: String) throws -> ModelSummary {
    try InferenceModel(contentsOf: path).summary
  }

  /// Summarises serialized ONNX bytes.
  static func summary(bytes: [UInt8]) throws -> ModelSummary {
    try InferenceModel(bytes: bytes).summary
  }

  /// Interface, operator counts, parameters and MACs of this model. MACs use
  /// the declared input shapes with symbolic dimensions taken as 1.
  public var summary: ModelSummary {
    let params = graph.initializers.values.filter { $0.dtype == .float }.reduce(0) { $0 + $1.count }
    var shapes: [String: [Int]] = [:]
    for i in graph.inputs {
      shapes[i.name] = (i.dims ?? []).map { if case .value(let v) = $0 { return v } else { return 1 } }
    }
    func port(_ d: TensorDescriptor) -> ModelSummary.Port {
      ModelSummary.Port(name: d.name, shape: (d.shape ?? []).map(\.description))
    }
    let plan = try? cache.plan(graph, shapes, isa: KernelISA.current)
    return ModelSummary(
      inputs: inputs.map(port), outputs: outputs.map(port), opCounts: graph.opCounts,
      nodeCount: graph.fileNodeCount, parameterCount: params, macs: plan?.macs,
      opset: Int(graph.opset), producer: graph.producer,
      prepared: (plan?.prepared ?? []).map { "\($0.node): \($0.note)" })
  }
}
