/// What an operator's lowering sees: the node, its operands and the opset.
/// What lowering prepared once, at plan time, per node (weights packed or
/// transposed into a kernel's layout, the kernel a layer runs on): shown by
/// `bullseye model inspect`.
final class PlanNotes {
  var entries: [(node: String, note: String)] = []
}

struct NodeContext {
  let node: Graph.Node
  let inputs: [Operand?]
  let opset: Int64
  /// The memory limit in bytes.
  var limit: Int = InferenceModel.defaultMemoryLimit
  /// Where `note` records plan-time work (nil: not recorded).
  var notes: PlanNotes? = nil

  /// Records plan-time work done for this node.
  func note(_ text: String) { notes?.entries.append((node.label, text)) }

  /// Checks that a tensor of `shape` fits in Int and under the memory limit.
  func checkSize(_ shape: [Int]) throws {
    let n = try SizeMath.count(shape, what: "Node \(node.label) (\(node.opType)) output")
    // A zero dimension hides the others from the product; bound each one too.
    for d in shape where d > limit / 4 {
      throw InferenceError.limit("Node \(node.label) (\(node.opType)) output has dimension \(d); expected at most \(limit / 4) (the memory limit).")
    }
    try SizeMath.checkBytes(n, width: 8, limit: limit, what: "Node \(node.label) (\(node.opType)) output")
  }

  /// "Node <name> (<Op>): <message>."
  func error(_ message: String) -> InferenceError {
    .invalid("Node \(node.label) (\(node.opType)): \(message).")
  }

  /// "Node <name> (<Op>), attribute '<attr>': expected …."
  func attributeError(_ attr: String, _ expected: String) -> InferenceError {
    .invalid("Node \(node.label) (\(node.opType)), attribute '\(attr)': expected \(expected).")
  }

  /// Required input `k`.
  func input(_ k: Int) throws -> Operand {
    guard k < inputs.count, let op = inputs[k] else {
      throw error("input \(k) is missing; expected \(k + 1) or more inputs, got \(inputs.count)")
    }
    return op
  }

  /// Optional input `k` (absent or named "").
  func optional(_ k: Int) -> Operand? { k < inputs.count ? inputs[k] : nil }

  /// Required input `k`, whose value must be known at plan time.
  func constant(_ k: Int, _ what: String) throws -> Value {
    let op = try input(k)
    guard let v = op.constant else {
      throw error("input \(k) (\(what)) is computed at run time; expected a constant")
    }
    return v
  }

  /// Input `k` must be float.
  func floatInput(_ k: Int) throws -> Operand {
    let op = try input(k)
    guard op.dtype == .float else {
      throw error("input \(k) has type \(op.dtype.onnxName); expected float")
    }
    return op
  }

  var inputCount: Int { inputs.count }

  func has(_ name: String) -> Bool { node.attributes[name] != nil }

  func int(_ name: String, _ fallback: Int64? = nil) throws -> Int64 {
    guard let a = node.attributes[name] else {
      if let fallback { return fallback }
      throw attributeError(name, "an int, got nothing")
    }
    guard let i = a.i else { throw attributeError(name, "an int") }
    return i
  }

  func float(_ name: String, _ fallback: Float) throws -> Float {
    guard let a = node.attributes[name] else { return fallback }
    guard let f = a.f else { throw attributeError(name, "a float") }
    return f
  }

  func ints(_ name: String) throws -> [Int64]? {
    guard let a = node.attributes[name] else { return nil }
    if a.ints.isEmpty, a.i != nil || a.f != nil || a.s != nil || a.t != nil || !a.floats.isEmpty {
      throw attributeError(name, "a list of ints")
    }
    return a.ints
  }

  func ints(_ name: String, count: Int) throws -> [Int]? {
    guard let v = try ints(name) else { return nil }
    guard v.count == count else {
      throw attributeError(name, "\(count) ints, got \(v.count)")
    }
    return try v.map { x in
      guard x >= Int64(Int32.min), x <= Int64(Int32.max) else {
        throw attributeError(name, "values within Int32 range, got \(x)")
      }
      return Int(x)
    }
  }

  func floats(_ name: String) throws -> [Float]? {
    guard let a = node.attributes[name] else { return nil }
    if a.floats.isEmpty, a.i != nil || a.f != nil || a.s != nil || !a.ints.isEmpty {
      throw attributeError(name, "a list of floats")
    }
    return a.floats
  }

  func string(_ name: String, _ fallback: String) throws -> String {
    guard let a = node.attributes[name] else { return fallback }
    guard let s = a.s else { throw attributeError(name, "a string") }
    return String(decoding: s, as: UTF8.self)
  }

  func tensor(_ name: String) -> Value? { node.attributes[name]?.t }

  /// Normalises `axis` against `rank` (negative counts from the end).
  func axis(_ axis: Int64, rank: Int, attr: String = "axis") throws -> Int {
    let a = axis < 0 ? axis + Int64(rank) : axis
    guard a >= 0, a < Int64(rank) else {
      throw attributeError(attr, "a value in \(-rank)...\(rank - 1), got \(axis)")
    }
    return Int(a)
  }

  /// Integer values clamped into ±Int.max / 2, for Slice starts and ends:
  /// exporters write INT64_MAX / INT64_MIN for "to the end", which the spec
  /// clamps to the dimension anyway (halved so start + dim cannot overflow).
  func clampedInts(of v: Value) -> [Int] {
    v.asInts.map { Int(clamping: max(min($0, Int64(Int.max / 2)), Int64(Int.min / 2))) }
  }

  /// Converts integer values from a tensor to Int with a range check.
  func ints(of v: Value, _ what: String) throws -> [Int] {
    try v.asInts.map { x in
      guard x >= Int64(Int.min / 2), x <= Int64(Int.max / 2) else {
        throw error("\(what) holds \(x); expected a value within ±\(Int.max / 2)")
      }
      return Int(x)
    }
  }
}

/// Shape helpers.
enum Shapes {
  /// Numpy-style broadcast of several shapes.
  static func broadcast(_ shapes: [[Int]], _ ctx: NodeContext) throws -> [Int] {
    let rank = shapes.map(\.count).max() ?? 0
    var out = [Int](repeating: 1, count: rank)
    for s in shapes {
      let padded = [Int](repeating: 1, count: rank - s.count) + s
      for d in 0..<rank {
        let a = out[d], b = padded[d]
        if a == b || b == 1 { continue }
        if a == 1 { out[d] = b; continue }
        throw ctx.error("cannot broadcast shapes \(shapes.map { "\($0)" }.joined(separator: " and ")); expected equal dimensions or 1")
      }
    }
    return out
  }

  /// Row-major strides.
  static func strides(_ shape: [Int]) -> [Int] {
    var s = [Int](repeating: 1, count: shape.count)
    var acc = 1
    for d in stride(from: shape.count - 1, through: 0, by: -1) {
      s[d] = acc
      acc *= shape[d]
    }
    return s
  }

  /// Strides of `shape` viewed as broadcast to `out` (0 along broadcast dims).
  static func broadcastStrides(_ shape: [Int], to out: [Int]) -> [Int] {
    let padded = [Int](repeating: 1, count: out.count - shape.count) + shape
    let s = strides(padded)
    return (0..<out.count).map { padded[$0] == 1 && out[$0] != 1 ? 0 : s[$0] }
  }
}
