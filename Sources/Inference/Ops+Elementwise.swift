import CKernels
import Foundation

extension Operators {
  /// Relu, Sigmoid, HardSigmoid, HardSwish through `bk_activate`.
  static func activation(_ ctx: NodeContext, code: Int32, alpha: Float = 0, beta: Float = 0) throws -> Lowering {
    let x = try ctx.floatInput(0)
    let n = x.count
    return .kernel([OutSpec(shape: x.shape)]) { b in
      let src = b.input(0), dst = b.outs[0]
      return { e in
        parallelFor((n + 4095) / 4096, threads: e.threads) { lo, hi in
          let s = lo * 4096, len = min(hi * 4096, n) - s
          guard len > 0 else { return }
          if UnsafePointer(dst) != src { (dst + s).update(from: src + s, count: len) }
          bk_activate_isa(e.isa, dst + s, len, code, alpha, beta)
        }
      }
    }
  }

  enum BinaryOp { case add, sub, mul, div, pow, equal }

  /// Raises to a power; small integer exponents are exact products.
  @inline(__always) static func power(_ x: Float, _ y: Float) -> Float {
    if y == 2 { return x * x }
    if y == 1 { return x }
    if y == 3 { return x * x * x }
    if y == 0.5 { return x.squareRoot() }
    return Foundation.pow(x, y)
  }

  static func binary(_ ctx: NodeContext, _ op: BinaryOp) throws -> Lowering {
    let a = try ctx.input(0), b = try ctx.input(1)
    if ctx.opset < 7, ctx.has("axis") {
      throw ctx.attributeError("axis", "no legacy (opset < 7) axis broadcast")
    }
    let out = try Shapes.broadcast([a.shape, b.shape], ctx)
    try ctx.checkSize(out)
    let outType: DType = op == .equal ? .bool : a.dtype
    if let av = a.constant, let bv = b.constant, a.dtype != .float || b.dtype != .float {
      return .fold([try foldBinary(ctx, op, av, bv, out, outType)])
    }
    let rows = Move.Rows(
      shape: out, strides: [Shapes.broadcastStrides(a.shape, to: out), Shapes.broadcastStrides(b.shape, to: out)])
    return .kernel([OutSpec(shape: out, dtype: outType)]) { buf in
      let pa = buf.input(0), pb = buf.input(1), po = buf.outs[0]
      // Rows are cut into chunks of 4096 so that a same-shape Add (one
      // long row) still splits across threads; elementwise, so any split
      // gives the same bits.
      let chunk = 4096, perRow = max(1, (rows.inner + chunk - 1) / chunk)
      return { e in
        parallelFor(rows.rows * perRow, threads: rows.rows * rows.inner > 16384 ? e.threads : 1) { j0, j1 in
          let sa = rows.innerStrides[0], sb = rows.innerStrides[1]
          for job in j0..<j1 {
            let r = job / perRow, lo = (job % perRow) * chunk, n = min(chunk, rows.inner - lo)
            guard n > 0 else { continue }
            let x = pa + rows.bases[0][r] + lo * sa, y = pb + rows.bases[1][r] + lo * sb, o = po + r * rows.inner + lo
            switch op {
            case .add: binaryRow(o, x, sa, y, sb, n) { $0 + $1 }
            case .sub: binaryRow(o, x, sa, y, sb, n) { $0 - $1 }
            case .mul: binaryRow(o, x, sa, y, sb, n) { $0 * $1 }
            case .div: binaryRow(o, x, sa, y, sb, n) { $0 / $1 }
            case .pow: binaryRow(o, x, sa, y, sb, n) { power($0, $1) }
            case .equal: binaryRow(o, x, sa, y, sb, n) { $0 == $1 ? 1 : 0 }
            }
          }
        }
      }
    }
  }

  /// o[i] = f(x[i*sa], y[i*sb]) for one row. Unit and zero strides (plain
  /// and per-channel broadcast, as in squeeze-excitation scaling) get loops the
  /// compiler can vectorise; the arithmetic is the same in every branch.
  @inline(__always) static func binaryRow(
    _ o: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ sa: Int, _ y: UnsafePointer<Float>, _ sb: Int,
    _ n: Int, _ f: (Float, Float) -> Float
  ) {
    if sa == 1 && sb == 1 {
      for i in 0..<n { o[i] = f(x[i], y[i]) }
    } else if sa == 1 && sb == 0 {
      let v = y[0]
      for i in 0..<n { o[i] = f(x[i], v) }
    } else if sa == 0 && sb == 1 {
      let u = x[0]
      for i in 0..<n { o[i] = f(u, y[i]) }
    } else {
      for i in 0..<n { o[i] = f(x[i &* sa], y[i &* sb]) }
    }
  }

  /// Index of each output element in each broadcast input (fold time only).
  static func broadcastIndex(_ shapes: [[Int]], _ out: [Int]) -> [[Int]] {
    let n = out.reduce(1, *)
    let strides = shapes.map { Shapes.broadcastStrides($0, to: out) }
    var idx = [Int](repeating: 0, count: out.count)
    var res = [[Int]](repeating: [], count: shapes.count)
    for _ in 0..<n {
      for k in shapes.indices {
        var o = 0
        for d in 0..<out.count { o += idx[d] * strides[k][d] }
        res[k].append(o)
      }
      var d = out.count - 1
      while d >= 0 {
        idx[d] += 1
        if idx[d] < out[d] { break }
        idx[d] = 0
        d -= 1
      }
    }
    return res
  }

  static func foldBinary(
    _ ctx: NodeContext, _ op: BinaryOp, _ a: Value, _ b: Value, _ out: [Int], _ type: DType
  ) throws -> Value {
    let ix = broadcastIndex([a.shape, b.shape], out)
    if a.dtype == .float || b.dtype == .float {
      let x = a.asFloats, y = b.asFloats
      let r: [Float] = zip(ix[0], ix[1]).map { i, j in
        switch op {
        case .add: return x[i] + y[j]
        case .sub: return x[i] - y[j]
        case .mul: return x[i] * y[j]
        case .div: return x[i] / y[j]
        case .pow: return power(x[i], y[j])
        case .equal: return x[i] == y[j] ? 1 : 0
        }
      }
      return type == .float ? Value(shape: out, floats: r) : Value(shape: out, dtype: type, ints: r.map { Int64(saturating: $0) })
    }
    let x = a.i, y = b.i
    var r: [Int64] = []
    r.reserveCapacity(ix[0].count)
    for (i, j) in zip(ix[0], ix[1]) {
      switch op {
      case .add: r.append(x[i] &+ y[j])
      case .sub: r.append(x[i] &- y[j])
      case .mul: r.append(x[i] &* y[j])
      case .div:
        guard y[j] != 0 else { throw ctx.error("divides by an integer zero; expected a non-zero divisor") }
        r.append(x[i] == Int64.min && y[j] == -1 ? Int64.min : x[i] / y[j])
      case .pow:
        var p: Int64 = 1
        for _ in 0..<max(0, min(y[j], 64)) { p = p &* x[i] }
        r.append(p)
      case .equal: r.append(x[i] == y[j] ? 1 : 0)
      }
    }
    return Value(shape: out, dtype: type, ints: r)
  }

  static func where_(_ ctx: NodeContext) throws -> Lowering {
    let c = try ctx.input(0), x = try ctx.input(1), y = try ctx.input(2)
    let out = try Shapes.broadcast([c.shape, x.shape, y.shape], ctx)
    try ctx.checkSize(out)
    if let cv = c.constant, let xv = x.constant, let yv = y.constant, x.dtype != .float {
      let ix = broadcastIndex([c.shape, x.shape, y.shape], out)
      let cc = cv.asInts, xx = xv.asInts, yy = yv.asInts
      let r = (0..<ix[0].count).map { k in cc[ix[0][k]] != 0 ? xx[ix[1][k]] : yy[ix[2][k]] }
      return .fold([Value(shape: out, dtype: x.dtype, ints: r)])
    }
    let rows = Move.Rows(
      shape: out,
      strides: [c.shape, x.shape, y.shape].map { Shapes.broadcastStrides($0, to: out) })
    return .kernel([OutSpec(shape: out, dtype: x.dtype)]) { buf in
      let pc = buf.input(0), px = buf.input(1), py = buf.input(2), po = buf.outs[0]
      return { e in
        parallelFor(rows.rows, threads: e.threads) { r0, r1 in
          let n = rows.inner, s = rows.innerStrides
          for r in r0..<r1 {
            let cc = pc + rows.bases[0][r], xx = px + rows.bases[1][r], yy = py + rows.bases[2][r]
            let o = po + r * n
            for i in 0..<n { o[i] = cc[i &* s[0]] != 0 ? xx[i &* s[1]] : yy[i &* s[2]] }
          }
        }
      }
    }
  }
}
