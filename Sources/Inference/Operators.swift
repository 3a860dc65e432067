/// The operator registry: op type → lowering. The loader rejects any other
/// op type with "Node <name> (<Op>): unsupported operator".
enum Operators {
  typealias Lower = @Sendable (NodeContext) throws -> Lowering

  static let registry: [String: Lower] = [
    "Relu": { try activation($0, code: 1) },
    "Sigmoid": { try activation($0, code: 2) },
    "HardSigmoid": {
      try activation($0, code: 4, alpha: try $0.float("alpha", 0.2), beta: try $0.float("beta", 0.5))
    },
    "HardSwish": { try activation($0, code: 5, alpha: 1 / 6, beta: 0.5) },
    "Add": { try binary($0, .add) },
    "Sub": { try binary($0, .sub) },
    "Mul": { try binary($0, .mul) },
    "Div": { try binary($0, .div) },
    "Pow": { try binary($0, .pow) },
    "Equal": { try binary($0, .equal) },
    "Where": where_,
    "Identity": { .alias(try $0.input(0).shape) },
    "Reshape": reshape,
    "Flatten": flatten,
    "Squeeze": squeeze,
    "Unsqueeze": unsqueeze,
    "Shape": shape,
    "Constant": constant,
    "Cast": cast,
    "Range": range,
    "Concat": concat,
    "Split": split,
    "Slice": slice,
    "Transpose": transpose,
    "Expand": expand,
    "Gather": gather,
    "Softmax": softmax,
    "ReduceMean": reduceMean,
    "GlobalAveragePool": globalAveragePool,
    "MaxPool": maxPool,
    "Resize": resize,
    "Conv": conv,
    "Gemm": gemm,
    "MatMul": matmul,
  ]
}
