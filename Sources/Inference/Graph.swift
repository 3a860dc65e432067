/// A validated graph: nodes in topological order, initializers decoded,
/// Conv + activation chains fused.
struct Graph: Sendable {
  struct Node: Sendable {
    var name: String
    var opType: String
    var inputs: [String]
    var outputs: [String]
    var attributes: [String: Attribute]
    /// Fused epilogue (a `BK_ACT_*` code with alpha and beta), Conv only.
    var activation: FusedActivation?

    /// "name" or, for unnamed nodes, the first output's name.
    var label: String { name }
  }

  struct Attribute: Sendable {
    var f: Float?
    var i: Int64?
    var s: [UInt8]?
    var t: Value?
    var floats: [Float]
    var ints: [Int64]
    var strings: [[UInt8]]
    var hasGraph: Bool
  }

  var nodes: [Node]
  var initializers: [String: Value]
  /// Graph inputs that are not initializers.
  var inputs: [OnnxValueInfo]
  var outputs: [OnnxValueInfo]
  var opset: Int64
  var producer: String
  var memoryLimit: Int
  /// Node count per op type as stored in the file (before fusion).
  var opCounts: [String: Int]
  var fileNodeCount: Int

  init(model: OnnxModel, memoryLimit: Int, fuse: Bool = true) throws {
    self.memoryLimit = memoryLimit
    opCounts = model.graph.nodes.reduce(into: [:]) { $0[$1.opType, default: 0] += 1 }
    fileNodeCount = model.graph.nodes.count
    producer = (model.producerName + " " + model.producerVersion).trimmingSpaces
    guard let v = model.opsets[""] ?? model.opsets["ai.onnx"] else {
      throw InferenceError.unsupported("ModelProto imports no ai.onnx opset; expected an opset version between 6 and 28.")
    }
    guard (6...28).contains(v) else {
      throw InferenceError.unsupported("ModelProto imports ai.onnx opset \(v); expected a version between 6 and 28.")
    }
    opset = v
    let g = model.graph
    guard !g.hasSparseInitializers else {
      throw InferenceError.unsupported("GraphProto has sparse initializers; expected dense ones.")
    }
    var inits: [String: Value] = [:]
    for t in g.initializers {
      guard !t.name.isEmpty else {
        throw InferenceError.invalid("GraphProto has an unnamed initializer; expected every initializer to have a name.")
      }
      inits[t.name] = try Value(t, limit: memoryLimit)
    }
    initializers = inits
    inputs = g.inputs.filter { inits[$0.name] == nil }
    outputs = g.outputs
    for v in inputs + outputs where !v.isTensor {
      throw InferenceError.unsupported("Graph value '\(v.name)' is not a tensor; expected tensor inputs and outputs.")
    }

    // Convert nodes; unknown operators fail first, by name.
    var converted: [Node] = []
    for (k, n) in g.nodes.enumerated() {
      let name = !n.name.isEmpty ? n.name : (n.outputs.first.map { $0.isEmpty ? "#\(k)" : $0 } ?? "#\(k)")
      guard n.domain.isEmpty || n.domain == "ai.onnx", Operators.registry[n.opType] != nil else {
        throw InferenceError.unsupported("Node \(name) (\(n.opType)): unsupported operator")
      }
      var attrs: [String: Attribute] = [:]
      for a in n.attributes {
        let t = try a.t.map { try Value($0, limit: memoryLimit) }
        attrs[a.name] = Attribute(
          f: a.f, i: a.i, s: a.s, t: t, floats: a.floats, ints: a.ints, strings: a.strings,
          hasGraph: a.hasGraph)
      }
      converted.append(Node(name: name, opType: n.opType, inputs: n.inputs, outputs: n.outputs, attributes: attrs))
    }
    nodes = try Graph.sort(converted, available: Set(inits.keys).union(inputs.map(\.name)))
    for o in outputs {
      guard inits[o.name] != nil || inputs.contains(where: { $0.name == o.name })
        || nodes.contains(where: { $0.outputs.contains(o.name) })
      else {
        throw InferenceError.invalid("Graph output '\(o.name)' is not produced by any node, input or initializer; expected a producer.")
      }
    }
    if fuse { nodes = Graph.fuseActivations(nodes, outputs: Set(outputs.map(\.name))) }
  }

  /// Kahn's algorithm in original order; reports missing values and cycles.
  static func sort(_ nodes: [Node], available: Set<String>) throws -> [Node] {
    var producer: [String: Int] = [:]
    for (k, n) in nodes.enumerated() {
      for o in n.outputs where !o.isEmpty {
        guard producer[o] == nil, !available.contains(o) else {
          throw InferenceError.invalid("Node \(n.label) (\(n.opType)) writes '\(o)', which already has a producer; expected each value to be written once.")
        }
        producer[o] = k
      }
    }
    var pending = [Int](repeating: 0, count: nodes.count)
    var users = [[Int]](repeating: [], count: nodes.count)
    for (k, n) in nodes.enumerated() {
      for i in n.inputs where !i.isEmpty {
        if available.contains(i) { continue }
        guard let p = producer[i] else {
          throw InferenceError.invalid("Node \(n.label) (\(n.opType)) reads '\(i)', which is not a graph input, initializer or node output; expected a producer (missing initializer?).")
        }
        pending[k] += 1
        users[p].append(k)
      }
    }
    // A min-heap would keep the file order exactly; a sorted ready list is enough here.
    var ready = (0..<nodes.count).filter { pending[$0] == 0 }.reversed() as [Int]
    var order: [Int] = []
    order.reserveCapacity(nodes.count)
    while let k = ready.popLast() {
      order.append(k)
      var released: [Int] = []
      for u in users[k] {
        pending[u] -= 1
        if pending[u] == 0 { released.append(u) }
      }
      ready.append(contentsOf: released.sorted(by: >))
    }
    guard order.count == nodes.count else {
      let stuck = (0..<nodes.count).first { pending[$0] > 0 } ?? 0
      throw InferenceError.invalid("Graph has a cycle through node \(nodes[stuck].label) (\(nodes[stuck].opType)); expected an acyclic graph.")
    }
    return order.map { nodes[$0] }
  }
}

struct FusedActivation: Sendable, Equatable {
  var code: Int32
  var alpha: Float = 0
  var beta: Float = 0
}

extension Graph {
  /// Folds Relu, Sigmoid, HardSigmoid, HardSwish and SiLU (Sigmoid + Mul)
  /// that follow a Conv into its epilogue. The epilogue runs the same scalar
  /// code as the separate ops, so results do not change.
  static func fuseActivations(_ nodes: [Node], outputs: Set<String>) -> [Node] {
    var consumers: [String: [Int]] = [:]
    for (k, n) in nodes.enumerated() {
      for i in Set(n.inputs) where !i.isEmpty { consumers[i, default: []].append(k) }
    }
    var out = nodes
    var removed = Set<Int>()
    for (k, n) in nodes.enumerated() where n.opType == "Conv" && n.outputs.count == 1 {
      let y = n.outputs[0]
      guard !outputs.contains(y), let users = consumers[y] else { continue }
      if users.count == 1 {
        let u = nodes[users[0]]
        guard u.inputs.count == 1, u.outputs.count == 1 else { continue }
        var act: FusedActivation?
        switch u.opType {
        case "Relu": act = FusedActivation(code: 1)
        case "Sigmoid": act = FusedActivation(code: 2)
        case "HardSigmoid":
          act = FusedActivation(
            code: 4, alpha: u.attributes["alpha"]?.f ?? 0.2, beta: u.attributes["beta"]?.f ?? 0.5)
        case "HardSwish": act = FusedActivation(code: 5, alpha: 1 / 6, beta: 0.5)
        default: break
        }
        guard let a = act else { continue }
        out[k].activation = a
        out[k].outputs = u.outputs
        removed.insert(users[0])
      } else if users.count == 2 {
        let a = nodes[users[0]], b = nodes[users[1]]
        guard let (s, sIndex, m, mIndex) =
          a.opType == "Sigmoid" && b.opType == "Mul" ? (a, users[0], b, users[1])
          : b.opType == "Sigmoid" && a.opType == "Mul" ? (b, users[1], a, users[0]) : nil
        else { continue }
        guard s.outputs.count == 1, m.outputs.count == 1, s.inputs == [y] else { continue }
        let so = s.outputs[0]
        guard !outputs.contains(so), consumers[so] == [mIndex],
          m.inputs == [y, so] || m.inputs == [so, y]
        else { continue }
        out[k].activation = FusedActivation(code: 3)
        out[k].outputs = m.outputs
        removed.insert(sIndex)
        removed.insert(mIndex)
      }
    }
    return out.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
  }
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
