import CKernels

/// An input or output of a node at plan time.
struct Operand {
  var shape: [Int]
  var dtype: DType
  /// The value, when known at plan time.
  var constant: Value?
  var count: Int { shape.reduce(1, *) }
}

/// Builds a `Plan`: infers every shape, folds constants, lays out buffers.
struct Planner {
  /// `count` zeroed floats from `bk_alloc_huge` (huge pages for big buffers);
  /// freed with `bk_free_huge`.
  static func zeroedFloats(_ count: Int, what: String) throws -> UnsafeMutableRawPointer {
    guard let p = bk_alloc_huge(count * 4) else {
      throw InferenceError.invalid("\(what) needs \(count * 4) bytes that could not be allocated; expected free memory.")
    }
    p.initializeMemory(as: Float.self, repeating: 0, count: count)
    return p
  }

  private enum Slot {
    case constant(Value)
    case buffer(Int, [Int], DType)
  }
  private enum Ref {
    case buffer(Int)
    case constant(Int)
  }
  private struct Pending {
    var label: String
    var op: String
    var macs: Int
    var factory: KernelFactory
    var ins: [Ref?]
    var outs: [Int]
    var ws: Int?
    /// Whether the step only moves slices of one buffer.
    var slices: Slices?
  }

  private var slots: [String: Slot] = [:]
  private var sizes: [Int] = []
  private var lastUse: [Int] = []
  private var pending: [Pending] = []
  private var constArrays: [[Float]] = []
  private var constOffsets: [Int] = []
  private var constTotal = 0
  private var constByName: [String: Int] = [:]
  private var macs = 0
  private let notes = PlanNotes()
  let graph: Graph
  let isa: Int32

  /// Plans `graph` for float inputs of the given shapes; `baked` supplies
  /// non-float inputs by value (they become constants).
  static func build(
    _ graph: Graph, shapes: [String: [Int]], baked: [String: Value] = [:], isa: Int32
  ) throws -> Plan {
    var p = Planner(graph: graph, isa: isa)
    return try p.plan(shapes: shapes, baked: baked)
  }

  private init(graph: Graph, isa: Int32) {
    self.graph = graph
    self.isa = isa
  }

  private mutating func newBuffer(_ shape: [Int], what: String) throws -> Int {
    let n = try SizeMath.count(shape, what: what)
    try SizeMath.checkBytes(n, width: 4, limit: graph.memoryLimit, what: what)
    sizes.append((n + 15) / 16 * 16)
    lastUse.append(pending.count)
    return sizes.count - 1
  }

  private mutating func constRef(_ name: String, _ v: Value) -> Ref {
    if let k = constByName[name] { return .constant(constOffsets[k]) }
    let f = v.asFloats
    constArrays.append(f)
    constOffsets.append(constTotal)
    constTotal += (f.count + 15) / 16 * 16
    constByName[name] = constArrays.count - 1
    return .constant(constOffsets[constArrays.count - 1])
  }

  private mutating func plan(shapes: [String: [Int]], baked: [String: Value]) throws -> Plan {
    let result = Plan()
    for (name, v) in graph.initializers { slots[name] = .constant(v) }
    var inputIds: [(String, Int, [Int])] = []
    for info in graph.inputs {
      if let v = baked[info.name] {
        slots[info.name] = .constant(v)
      } else if let s = shapes[info.name] {
        let id = try newBuffer(s, what: "Input '\(info.name)'")
        lastUse[id] = -1
        slots[info.name] = .buffer(id, s, .float)
        inputIds.append((info.name, id, s))
      } else {
        throw InferenceError.shape("Input '\(info.name)' was not given; expected a tensor for every graph input.")
      }
    }

    for node in graph.nodes {
      var ops: [Operand?] = []
      for name in node.inputs {
        if name.isEmpty { ops.append(nil); continue }
        switch slots[name] {
        case .constant(let v): ops.append(Operand(shape: v.shape, dtype: v.dtype, constant: v))
        case .buffer(_, let s, let d): ops.append(Operand(shape: s, dtype: d, constant: nil))
        case nil:
          throw InferenceError.invalid("Node \(node.label) (\(node.opType)) reads '\(name)', which has no value; expected a producer.")
        }
      }
      guard let lower = Operators.registry[node.opType] else {
        throw InferenceError.unsupported("Node \(node.label) (\(node.opType)): unsupported operator")
      }
      let ctx = NodeContext(node: node, inputs: ops, opset: graph.opset, limit: graph.memoryLimit, notes: notes)
      var lowering = try lower(ctx)
      var slices: Slices? = nil
      if case .sliced(let s, let inner) = lowering {
        slices = s
        lowering = inner
      }
      let outNames = node.outputs
      let allConstant = ops.allSatisfy { $0 == nil || $0?.constant != nil }
      switch lowering {
      case .fold(let values):
        try bind(outNames, values, node: node)
      case .sliced:
        throw ctx.error("lowers to nested slices; expected one level")
      case .alias(let shape):
        let src = try ctx.input(0)
        if var v = src.constant {
          v.shape = shape
          try bind(outNames, [v], node: node)
        } else if case .buffer(let id, _, let d) = slots[node.inputs[0]] {
          if let o = outNames.first, !o.isEmpty { slots[o] = .buffer(id, shape, d) }
        }
      case .kernel(let specs, let ws, let m, let factory):
        guard specs.count >= outNames.count else {
          throw ctx.error("produces \(specs.count) outputs; expected at most \(specs.count), got \(outNames.count)")
        }
        for s in specs { try ctx.checkSize(s.shape) }
        try ctx.checkSize([ws])
        if allConstant {
          try bind(outNames, try Planner.evaluate(specs, ws, factory, ops, isa: isa), node: node)
          continue
        }
        macs = macs.addingReportingOverflow(m).overflow ? Int.max : macs + m
        var ins: [Ref?] = []
        for (k, name) in node.inputs.enumerated() {
          guard let op = ops[k] else { ins.append(nil); continue }
          if let v = op.constant {
            ins.append(constRef(name, v))
          } else if case .buffer(let id, _, _) = slots[name] {
            lastUse[id] = pending.count
            ins.append(.buffer(id))
          }
        }
        var outs: [Int] = []
        for (k, spec) in specs.enumerated() {
          let id = try newBuffer(spec.shape, what: "Node \(node.label) (\(node.opType)) output \(k)")
          outs.append(id)
          if k < outNames.count, !outNames[k].isEmpty {
            slots[outNames[k]] = .buffer(id, spec.shape, spec.dtype)
          }
        }
        let wsId = ws > 0 ? try newBuffer([ws], what: "Node \(node.label) (\(node.opType)) workspace") : nil
        pending.append(Pending(label: node.label, op: node.opType + (node.activation != nil ? "+act" : ""), macs: m, factory: factory, ins: ins, outs: outs, ws: wsId, slices: slices))
      }
    }

    for o in graph.outputs {
      switch slots[o.name] {
      case .constant(let v): result.outputs.append((o.name, .constant(v)))
      case .buffer(let id, _, _): lastUse[id] = Int.max
      case nil:
        throw InferenceError.invalid("Graph output '\(o.name)' has no value; expected a producer.")
      }
    }

    // Lay out the arena: first fit over a free list, freeing after last use.
    let layout = ArenaLayout(
      sizes: sizes, lastUse: lastUse, inputs: inputIds.map(\.1),
      steps: pending.map { st in
        ArenaLayout.Step(
          ins: st.ins.map { if case .buffer(let id) = $0 { return id } else { return nil } },
          outs: st.outs, ws: st.ws, slices: st.slices)
      })
    let offsets = layout.offsets, high = layout.high
    try SizeMath.checkBytes(high + constTotal, width: 4, limit: graph.memoryLimit, what: "The execution plan")

    let arena = try Self.zeroedFloats(max(high, 16), what: "The execution plan")
    let base = arena.assumingMemoryBound(to: Float.self)
    let consts: UnsafeMutablePointer<Float>
    do {
      consts = try Self.zeroedFloats(max(constTotal, 16), what: "The model's constants").assumingMemoryBound(to: Float.self)
    } catch {
      bk_free_huge(arena)
      throw error
    }
    for (k, a) in constArrays.enumerated() {
      a.withUnsafeBufferPointer { p in
        if let b = p.baseAddress { (consts + constOffsets[k]).update(from: b, count: p.count) }
      }
    }
    result.arena = arena
    result.consts = consts
    result.arenaFloats = high
    result.macs = macs
    result.prepared = notes.entries
    for s in layout.dropped.sorted() {
      let how = if case .split = pending[s].slices { "each output read from its slice of the input" } else { "each input written into its slice" }
      result.prepared.append((pending[s].label, "in place: \(how); no copy"))
    }
    for (name, id, s) in inputIds { result.inputs[name] = (base + offsets[id], s) }
    for (s, st) in pending.enumerated() where !layout.dropped.contains(s) {
      let ins: [UnsafePointer<Float>?] = st.ins.map { ref in
        switch ref {
        case .buffer(let id): return UnsafePointer(base + offsets[id])
        case .constant(let off): return UnsafePointer(consts + off)
        case nil: return nil
        }
      }
      let b = Buffers(ins: ins, outs: st.outs.map { base + offsets[$0] }, ws: st.ws.map { base + offsets[$0] })
      result.steps.append(Plan.Step(label: st.label, op: st.op, macs: st.macs, run: st.factory(b)))
    }
    for o in graph.outputs {
      if case .buffer(let id, let s, let d) = slots[o.name] {
        result.outputs.append((o.name, .buffer(base + offsets[id], s, d)))
      }
    }
    return result
  }

  private mutating func bind(_ names: [String], _ values: [Value], node: Graph.Node) throws {
    guard values.count >= names.filter({ !$0.isEmpty }).count else {
      throw InferenceError.invalid("Node \(node.label) (\(node.opType)) has \(names.count) outputs; expected at most \(values.count).")
    }
    for (k, n) in names.enumerated() where !n.isEmpty {
      try SizeMath.checkBytes(values[k].count, width: 8, limit: graph.memoryLimit, what: "Node \(node.label) (\(node.opType)) output \(k)")
      slots[n] = .constant(values[k])
    }
  }

  /// Runs a kernel on constant inputs at plan time.
  static func evaluate(
    _ specs: [OutSpec], _ ws: Int, _ factory: KernelFactory, _ ops: [Operand?], isa: Int32
  ) throws -> [Value] {
    let inputs = ops.map { $0?.constant?.asFloats }
    var outs = specs.map { [Float](repeating: 0, count: $0.shape.reduce(1, *)) }
    var work = [Float](repeating: 0, count: max(ws, 1))
    // Pointers stay valid: arrays are pinned while the closure runs.
    let inPtrs: [UnsafeMutablePointer<Float>?] = inputs.map { a in
      guard let a else { return nil }
      let p = UnsafeMutablePointer<Float>.allocate(capacity: max(a.count, 1))
      a.withUnsafeBufferPointer { b in if let s = b.baseAddress { p.update(from: s, count: a.count) } }
      return p
    }
    let outPtrs = outs.map { UnsafeMutablePointer<Float>.allocate(capacity: max($0.count, 1)) }
    defer {
      inPtrs.forEach { $0?.deallocate() }
      outPtrs.forEach { $0.deallocate() }
    }
    work.withUnsafeMutableBufferPointer { w in
      let b = Buffers(ins: inPtrs.map { $0.map { UnsafePointer($0) } }, outs: outPtrs, ws: w.baseAddress)
      factory(b)(Exec(threads: 1, isa: isa))
    }
    for k in outs.indices { outs[k] = Array(UnsafeBufferPointer(start: outPtrs[k], count: outs[k].count)) }
    return zip(specs, outs).map { spec, f in
      spec.dtype == .float
        ? Value(shape: spec.shape, floats: f)
        : Value(shape: spec.shape, dtype: spec.dtype, ints: f.map { Int64(saturating: $0) })
    }
  }
}
