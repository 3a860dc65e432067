import Foundation

/// Data-movement kernels over raw element storage of `width` bytes (4 for
/// float buffers, 8 for Int64 constants), so one implementation serves both
/// run-time float tensors and constant folding of shape arithmetic.
enum Move {
  /// Row decomposition of a broadcast or strided view, built at plan time.
  /// Row `r` of the output starts at `bases[k][r]` in input `k`; within a row
  /// input `k` advances by `innerStrides[k]`.
  struct Rows {
    var rows: Int
    var inner: Int
    var innerStrides: [Int]
    var bases: [[Int]]

    /// Views inputs with `strides` (element strides over `shape`) plus
    /// `offsets`; adjacent dimensions are merged where every view allows it.
    init(shape: [Int], strides: [[Int]], offsets: [Int]? = nil) {
      var dims: [(Int, [Int])] = []
      for d in 0..<shape.count where shape[d] != 1 {
        dims.append((shape[d], strides.map { $0[d] }))
      }
      var merged: [(Int, [Int])] = []
      for (size, st) in dims {
        if let last = merged.last,
          zip(last.1, st).allSatisfy({ $0 == $1 * size })
        {
          merged[merged.count - 1] = (last.0 * size, st)
        } else {
          merged.append((size, st))
        }
      }
      let k = strides.count
      inner = merged.last?.0 ?? 1
      innerStrides = merged.last?.1 ?? [Int](repeating: 0, count: k)
      let outer = merged.dropLast()
      rows = outer.reduce(1) { $0 * $1.0 }
      var b = [[Int]](repeating: [], count: k)
      let start = offsets ?? [Int](repeating: 0, count: k)
      for j in 0..<k { b[j].reserveCapacity(rows) }
      var idx = [Int](repeating: 0, count: outer.count)
      var cur = start
      for _ in 0..<rows {
        for j in 0..<k { b[j].append(cur[j]) }
        var d = outer.count - 1
        while d >= 0 {
          idx[d] += 1
          for j in 0..<k { cur[j] += outer[outer.startIndex + d].1[j] }
          if idx[d] < outer[outer.startIndex + d].0 { break }
          for j in 0..<k { cur[j] -= outer[outer.startIndex + d].1[j] * idx[d] }
          idx[d] = 0
          d -= 1
        }
      }
      bases = b
    }
  }

  /// Copies rows [r0, r1) of a strided view of `src` into contiguous `dst`.
  static func copy(
    _ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, width: Int, rows plan: Rows,
    _ r0: Int, _ r1: Int
  ) {
    let n = plan.inner, s = plan.innerStrides[0]
    if width == 4 {
      let d = dst.assumingMemoryBound(to: UInt32.self), x = src.assumingMemoryBound(to: UInt32.self)
      for r in r0..<r1 {
        let o = d + r * n, i = x + plan.bases[0][r]
        if s == 1 { o.update(from: i, count: n) } else { for e in 0..<n { o[e] = i[e * s] } }
      }
    } else {
      let d = dst.assumingMemoryBound(to: UInt64.self), x = src.assumingMemoryBound(to: UInt64.self)
      for r in r0..<r1 {
        let o = d + r * n, i = x + plan.bases[0][r]
        if s == 1 { o.update(from: i, count: n) } else { for e in 0..<n { o[e] = i[e * s] } }
      }
    }
  }

  /// Copies `count` elements.
  static func block(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, width: Int, count: Int) {
    dst.copyMemory(from: src, byteCount: count * width)
  }
}

/// Constant folding of data movement for any element type.
enum Fold {
  /// Runs `body` over raw copies of `inputs` and returns outputs of `shapes`.
  /// Floats move as 4-byte elements and everything else as Int64.
  static func move(
    _ inputs: [Value], dtype: DType, shapes: [[Int]],
    _ body: ([UnsafeMutableRawPointer], [UnsafeRawPointer], Int) -> Void
  ) -> [Value] {
    let width = dtype == .float ? 4 : 8
    let ins: [UnsafeMutableRawPointer] = inputs.map { v in
      let p = UnsafeMutableRawPointer.allocate(byteCount: max(v.count, 1) * width, alignment: 8)
      if width == 4 {
        v.asFloats.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
      } else {
        v.asInts.withUnsafeBytes { b in if let a = b.baseAddress { p.copyMemory(from: a, byteCount: b.count) } }
      }
      return p
    }
    let outs = shapes.map { s in
      UnsafeMutableRawPointer.allocate(byteCount: max(s.reduce(1, *), 1) * width, alignment: 8)
    }
    defer {
      ins.forEach { $0.deallocate() }
      outs.forEach { $0.deallocate() }
    }
    body(outs, ins.map { UnsafeRawPointer($0) }, width)
    return zip(shapes, outs).map { s, p in
      let n = s.reduce(1, *)
      if width == 4 {
        return Value(shape: s, floats: Array(UnsafeBufferPointer(start: p.assumingMemoryBound(to: Float.self), count: n)))
      }
      return Value(shape: s, dtype: dtype, ints: Array(UnsafeBufferPointer(start: p.assumingMemoryBound(to: Int64.self), count: n)))
    }
  }
}

extension Operators {
  /// Lowers a data-movement op: constant non-float inputs fold, the rest run
  /// as a float kernel. `body(outs, ins, width)` does the work.
  static func movement(
    _ ctx: NodeContext, inputs positions: [Int], shapes: [[Int]], dtype: DType,
    parallel: Int = 1,
    _ body: @escaping ([UnsafeMutableRawPointer], [UnsafeRawPointer], Int, Int, Int) -> Void
  ) throws -> Lowering {
    let data = try positions.map { try ctx.input($0) }
    for s in shapes { try ctx.checkSize(s) }
    if dtype != .float, data.allSatisfy({ $0.constant != nil }) {
      return .fold(Fold.move(data.compactMap(\.constant), dtype: dtype, shapes: shapes) { o, i, w in
        body(o, i, w, 0, parallel)
      })
    }
    return .kernel(shapes.map { OutSpec(shape: $0, dtype: dtype) }) { b in
      let outs = b.outs.map { UnsafeMutableRawPointer($0) }
      let ins = positions.map { UnsafeRawPointer(b.input($0)) }
      return { e in parallelFor(parallel, threads: e.threads) { lo, hi in body(outs, ins, 4, lo, hi) } }
    }
  }
}
