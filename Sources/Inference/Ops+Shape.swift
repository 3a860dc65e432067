extension Operators {
  static func reshape(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    var target: [Int]
    if ctx.opset < 5 {
      guard let s = try ctx.ints("shape") else { throw ctx.attributeError("shape", "a list of ints") }
      target = s.map { Int(clamping: $0) }
    } else {
      target = try ctx.ints(of: try ctx.constant(1, "shape"), "shape")
    }
    let allowZero = try ctx.int("allowzero", 0) != 0
    var known = 1
    var infer: Int?
    for (d, v) in target.enumerated() {
      if v == 0 && !allowZero {
        guard d < x.shape.count else { throw ctx.error("shape \(target) copies dimension \(d) of input shape \(x.shape); expected it to exist") }
        target[d] = x.shape[d]
      } else if v == -1 {
        guard infer == nil else { throw ctx.error("shape \(target) has two -1 entries; expected at most one") }
        infer = d
        continue
      } else if v < 0 {
        throw ctx.error("shape \(target) has entry \(v); expected -1 or more")
      }
      let (p, o) = known.multipliedReportingOverflow(by: target[d])
      guard !o else { throw ctx.error("shape \(target) overflows Int; expected a smaller shape") }
      known = p
    }
    if let d = infer {
      guard known > 0, x.count % known == 0 else {
        throw ctx.error("cannot reshape \(x.shape) into \(target); expected a divisible element count")
      }
      target[d] = x.count / known
    }
    guard target.reduce(1, *) == x.count else {
      throw ctx.error("cannot reshape \(x.shape) (\(x.count) elements) into \(target); expected the same element count")
    }
    return .alias(target)
  }

  static func flatten(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let r = x.shape.count
    let a = try ctx.int("axis", 1)
    guard a >= -Int64(r), a <= Int64(r) else { throw ctx.attributeError("axis", "a value in \(-r)...\(r), got \(a)") }
    let axis = a < 0 ? Int(a) + r : Int(a)
    return .alias([x.shape[..<axis].reduce(1, *), x.shape[axis...].reduce(1, *)])
  }

  /// Axes from attribute (before opset 13) or optional input 1.
  static func axesList(_ ctx: NodeContext, rank: Int) throws -> [Int]? {
    var raw: [Int64]?
    if ctx.opset < 13 || ctx.has("axes") {
      raw = try ctx.ints("axes")
    } else if ctx.optional(1) != nil {
      raw = try ctx.constant(1, "axes").asInts
    }
    guard let raw else { return nil }
    let axes = try raw.map { try ctx.axis($0, rank: rank, attr: "axes") }
    guard Set(axes).count == axes.count else { throw ctx.attributeError("axes", "distinct axes, got \(raw)") }
    return axes
  }

  static func squeeze(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let axes = try axesList(ctx, rank: x.shape.count) ?? x.shape.indices.filter { x.shape[$0] == 1 }
    for a in axes where x.shape[a] != 1 {
      throw ctx.error("cannot squeeze axis \(a) of shape \(x.shape); expected size 1")
    }
    return .alias(x.shape.indices.filter { !axes.contains($0) }.map { x.shape[$0] })
  }

  static func unsqueeze(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let rank = x.shape.count
    guard let axes0 = try axesList(ctx, rank: rank + (try rawAxisCount(ctx))) else {
      throw ctx.attributeError("axes", "a list of ints")
    }
    var out = x.shape
    for a in axes0.sorted() {
      guard a <= out.count else { throw ctx.attributeError("axes", "axes within rank \(rank + axes0.count)") }
      out.insert(1, at: a)
    }
    return .alias(out)
  }

  private static func rawAxisCount(_ ctx: NodeContext) throws -> Int {
    if ctx.opset < 13 || ctx.has("axes") { return try ctx.ints("axes")?.count ?? 0 }
    return ctx.optional(1)?.count ?? 0
  }

  static func shape(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let r = Int64(x.shape.count)
    func clamp(_ v: Int64) -> Int { Int(max(0, min(r, v < 0 ? v + r : v))) }
    let s = clamp(try ctx.int("start", 0)), e = clamp(try ctx.int("end", r))
    let dims = s < e ? Array(x.shape[s..<e]) : []
    return .fold([Value(shape: [dims.count], dtype: .int64, ints: dims.map { Int64($0) })])
  }

  static func constant(_ ctx: NodeContext) throws -> Lowering {
    if let t = ctx.tensor("value") { return .fold([t]) }
    if ctx.has("value_float") { return .fold([Value(shape: [], floats: [try ctx.float("value_float", 0)])]) }
    if let f = try ctx.floats("value_floats") { return .fold([Value(shape: [f.count], floats: f)]) }
    if ctx.has("value_int") { return .fold([Value(shape: [], dtype: .int64, ints: [try ctx.int("value_int")])]) }
    if let i = try ctx.ints("value_ints") { return .fold([Value(shape: [i.count], dtype: .int64, ints: i)]) }
    throw ctx.attributeError("value", "a tensor, value_float(s) or value_int(s)")
  }

  static func cast(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let to = try ctx.int("to")
    guard let t = DType(onnx: to) else {
      throw ctx.attributeError("to", "float, int32, int64 or bool, got \(DType.name(ofOnnx: to))")
    }
    func convert(_ f: Float) -> Float { t == .bool ? (f != 0 ? 1 : 0) : (t == .float ? f : f.rounded(.towardZero)) }
    if let v = x.constant {
      switch (v.dtype, t) {
      case (.float, .float): return .fold([v])
      case (.float, _): return .fold([Value(shape: v.shape, dtype: t, ints: v.f.map { Int64(saturating: convert($0)) })])
      case (_, .float): return .fold([Value(shape: v.shape, floats: v.i.map { Float($0) })])
      case (_, .bool): return .fold([Value(shape: v.shape, dtype: t, ints: v.i.map { $0 != 0 ? 1 : 0 })])
      case (_, .int32): return .fold([Value(shape: v.shape, dtype: t, ints: v.i.map { Int64(Int32(truncatingIfNeeded: $0)) })])
      default: return .fold([Value(shape: v.shape, dtype: t, ints: v.i)])
      }
    }
    let n = x.count
    return .kernel([OutSpec(shape: x.shape, dtype: t)]) { b in
      let s = b.input(0), d = b.outs[0]
      return { _ in for i in 0..<n { d[i] = convert(s[i]) } }
    }
  }

  static func range(_ ctx: NodeContext) throws -> Lowering {
    let s = try ctx.constant(0, "start"), l = try ctx.constant(1, "limit"), d = try ctx.constant(2, "delta")
    guard s.count == 1, l.count == 1, d.count == 1 else {
      throw ctx.error("has non-scalar start, limit or delta; expected scalars")
    }
    if s.dtype == .float {
      let a = s.f[0], b = l.asFloats[0], c = d.asFloats[0]
      guard c != 0, c.isFinite, a.isFinite, b.isFinite else { throw ctx.error("has delta \(c); expected a finite non-zero delta") }
      let nd = max(0, (Double(b) - Double(a)) / Double(c)).rounded(.up)
      guard nd <= Double(1 << 26) else { throw ctx.error("would produce \(nd) elements; expected at most \(1 << 26)") }
      let n = Int(nd)
      return .fold([Value(shape: [n], floats: (0..<n).map { a + Float($0) * c })])
    }
    let a = s.i[0], b = l.asInts[0], c = d.asInts[0]
    guard c != 0 else { throw ctx.error("has delta 0; expected a non-zero delta") }
    let span = Double(b) - Double(a)
    let nd = max(0, span / Double(c)).rounded(.up)
    guard nd <= Double(1 << 26) else { throw ctx.error("would produce \(nd) elements; expected at most \(1 << 26)") }
    let n = Int(nd)
    return .fold([Value(shape: [n], dtype: s.dtype, ints: (0..<n).map { a &+ Int64($0) &* c })])
  }

  static func concat(_ ctx: NodeContext) throws -> Lowering {
    let ins = try (0..<ctx.inputCount).map { try ctx.input($0) }
    guard let first = ins.first else { throw ctx.error("has no inputs; expected at least one") }
    let rank = first.shape.count
    guard rank > 0 else { throw ctx.error("input 0 is a scalar; expected rank 1 or more") }
    let axis = try ctx.axis(try ctx.int("axis"), rank: rank)
    var out = first.shape
    out[axis] = 0
    for x in ins {
      guard x.shape.count == rank, (0..<rank).allSatisfy({ $0 == axis || x.shape[$0] == first.shape[$0] }) else {
        throw ctx.error("cannot concatenate shapes \(ins.map(\.shape)) on axis \(axis); expected equal other dimensions")
      }
      out[axis] += x.shape[axis]
    }
    let outer = first.shape[..<axis].reduce(1, *)
    let chunks = ins.map { $0.shape[axis...].reduce(1, *) }
    // Where each input starts in an output row, summed once here, not per job.
    let starts = chunks.indices.map { chunks[..<$0].reduce(0, +) }
    let total = out[axis...].reduce(1, *)
    let dtype = ins.contains { $0.dtype == .float } ? DType.float : first.dtype
    let copy = try movement(ctx, inputs: Array(ins.indices), shapes: [out], dtype: dtype, parallel: ins.count * outer) {
      outs, srcs, w, lo, hi in
      for job in lo..<hi {
        let k = job % starts.count, o = job / starts.count
        Move.block(outs[0] + (o * total + starts[k]) * w, srcs[k] + o * chunks[k] * w, width: w, count: chunks[k])
      }
    }
    guard outer == 1, case .kernel = copy else { return copy }
    return .sliced(.join(starts), copy)
  }

  static func split(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    guard !x.shape.isEmpty else { throw ctx.error("input 0 is a scalar; expected rank 1 or more") }
    let axis = try ctx.axis(try ctx.int("axis", 0), rank: x.shape.count)
    let n = ctx.node.outputs.count
    var sizes: [Int]
    if let s = try ctx.ints("split") {
      sizes = s.map { Int(clamping: $0) }
    } else if ctx.optional(1) != nil {
      sizes = try ctx.ints(of: try ctx.constant(1, "split"), "split")
    } else {
      let parts = ctx.has("num_outputs") ? Int(clamping: try ctx.int("num_outputs")) : n
      guard parts > 0 else { throw ctx.attributeError("num_outputs", "a positive count") }
      let each = (x.shape[axis] + parts - 1) / parts
      sizes = (0..<parts).map { min(each, max(0, x.shape[axis] - $0 * each)) }
    }
    guard sizes.allSatisfy({ $0 >= 0 && $0 <= x.shape[axis] }), sizes.count <= x.shape[axis] + n,
      sizes.reduce(0, +) == x.shape[axis], sizes.count >= n
    else {
      throw ctx.error("split sizes \(sizes) do not fit dimension \(x.shape[axis]) into \(n) outputs; expected sizes summing to it")
    }
    let outer = x.shape[..<axis].reduce(1, *)
    let inner = x.shape[(axis + 1)...].reduce(1, *)
    let shapes = sizes.map { s -> [Int] in var o = x.shape; o[axis] = s; return o }
    let total = x.shape[axis] * inner
    let copy = try movement(ctx, inputs: [0], shapes: shapes, dtype: x.dtype, parallel: sizes.count * outer) {
      outs, srcs, w, lo, hi in
      for job in lo..<hi {
        let k = job % sizes.count, o = job / sizes.count
        let off = sizes[..<k].reduce(0, +) * inner
        Move.block(outs[k] + o * sizes[k] * inner * w, srcs[0] + (o * total + off) * w, width: w, count: sizes[k] * inner)
      }
    }
    guard outer == 1, sizes.count == n, case .kernel = copy else { return copy }
    return .sliced(.split(sizes.indices.map { sizes[..<$0].reduce(0, +) * inner }), copy)
  }

  static func stridedView(
    _ ctx: NodeContext, _ x: Operand, shape: [Int], strides: [Int], offset: Int
  ) throws -> Lowering {
    try ctx.checkSize(shape)
    let rows = Move.Rows(shape: shape, strides: [strides], offsets: [offset])
    return try movement(ctx, inputs: [0], shapes: [shape], dtype: x.dtype, parallel: rows.rows) {
      outs, srcs, w, lo, hi in
      Move.copy(outs[0], srcs[0], width: w, rows: rows, lo, hi)
    }
  }

  static func slice(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let rank = x.shape.count
    var starts: [Int], ends: [Int], axes: [Int]?, steps: [Int]?
    if ctx.opset < 10 {
      guard let s = try ctx.ints("starts"), let e = try ctx.ints("ends") else {
        throw ctx.attributeError("starts", "starts and ends lists")
      }
      // Halved range: start + dim and similar sums cannot overflow.
      starts = s.map { Int(clamping: max(min($0, Int64(Int.max / 2)), Int64(Int.min / 2))) }
      ends = e.map { Int(clamping: max(min($0, Int64(Int.max / 2)), Int64(Int.min / 2))) }
      axes = try ctx.ints("axes")?.map { Int(clamping: max(min($0, Int64(Int32.max)), Int64(Int32.min))) }
    } else {
      starts = ctx.clampedInts(of: try ctx.constant(1, "starts"))
      ends = ctx.clampedInts(of: try ctx.constant(2, "ends"))
      if ctx.optional(3) != nil { axes = try ctx.ints(of: try ctx.constant(3, "axes"), "axes") }
      if ctx.optional(4) != nil { steps = try ctx.ints(of: try ctx.constant(4, "steps"), "steps") }
    }
    let ax = try (axes ?? Array(0..<starts.count)).map { try ctx.axis(Int64($0), rank: rank, attr: "axes") }
    let st = steps ?? [Int](repeating: 1, count: starts.count)
    guard ends.count == starts.count, ax.count == starts.count, st.count == starts.count else {
      throw ctx.error("has \(starts.count) starts, \(ends.count) ends, \(ax.count) axes and \(st.count) steps; expected equal counts")
    }
    var shape = x.shape
    let base = Shapes.strides(x.shape)
    var strides = base
    var offset = 0
    for k in 0..<ax.count {
      let a = ax[k], dim = x.shape[a], step = st[k]
      guard step != 0 else { throw ctx.error("has step 0 on axis \(a); expected a non-zero step") }
      var s = starts[k] < 0 ? starts[k] + dim : starts[k]
      var e = ends[k] < 0 ? ends[k] + dim : ends[k]
      let n: Int
      if step > 0 {
        s = max(0, min(dim, s))
        e = max(0, min(dim, e))
        n = e > s ? (e - s + step - 1) / step : 0
      } else {
        s = max(-1, min(dim - 1, s))
        e = max(-1, min(dim - 1, e))
        n = s > e ? (s - e - step - 1) / -step : 0
      }
      shape[a] = n
      strides[a] = base[a] * step
      if n > 0 { offset += s * base[a] }
    }
    return try stridedView(ctx, x, shape: shape, strides: strides, offset: offset)
  }

  static func transpose(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let rank = x.shape.count
    let perm = try ctx.ints("perm", count: rank) ?? Array((0..<rank).reversed())
    guard Set(perm) == Set(0..<rank) else { throw ctx.attributeError("perm", "a permutation of 0..<\(rank), got \(perm)") }
    let s = Shapes.strides(x.shape)
    return try stridedView(ctx, x, shape: perm.map { x.shape[$0] }, strides: perm.map { s[$0] }, offset: 0)
  }

  static func expand(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let target = try ctx.ints(of: try ctx.constant(1, "shape"), "shape")
    let out = try Shapes.broadcast([x.shape, target], ctx)
    _ = try SizeMath.count(out, what: "Node \(ctx.node.label) (Expand) output")
    return try stridedView(ctx, x, shape: out, strides: Shapes.broadcastStrides(x.shape, to: out), offset: 0)
  }

  static func gather(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.input(0)
    let iv = try ctx.constant(1, "indices")
    let rank = x.shape.count
    guard rank > 0 else { throw ctx.error("input 0 is a scalar; expected rank 1 or more") }
    let axis = try ctx.axis(try ctx.int("axis", 0), rank: rank)
    let dim = x.shape[axis]
    let idx = try iv.asInts.map { v -> Int in
      let j = v < 0 ? v + Int64(dim) : v
      guard j >= 0, j < Int64(dim) else { throw ctx.error("index \(v) is out of range for dimension \(dim); expected \(-dim)...\(dim - 1)") }
      return Int(j)
    }
    let outer = x.shape[..<axis].reduce(1, *), inner = x.shape[(axis + 1)...].reduce(1, *)
    let out = Array(x.shape[..<axis]) + iv.shape + Array(x.shape[(axis + 1)...])
    return try movement(ctx, inputs: [0], shapes: [out], dtype: x.dtype, parallel: outer * idx.count) {
      outs, srcs, w, lo, hi in
      for job in lo..<hi {
        let o = job / idx.count, k = job % idx.count
        Move.block(outs[0] + job * inner * w, srcs[0] + (o * dim + idx[k]) * inner * w, width: w, count: inner)
      }
    }
  }
}
