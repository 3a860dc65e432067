import CKernels

extension Operators {
  static func softmax(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0)
    let rank = x.shape.count
    guard rank > 0 else { throw ctx.error("input is a scalar; expected rank 1 or more") }
    let axis = try ctx.axis(try ctx.int("axis", ctx.opset < 13 ? 1 : -1), rank: rank)
    // Before opset 13 the input is coerced to 2-D at `axis`.
    let outer = x.shape[..<axis].reduce(1, *)
    let len = ctx.opset < 13 ? x.shape[axis...].reduce(1, *) : x.shape[axis]
    let inner = ctx.opset < 13 ? 1 : x.shape[(axis + 1)...].reduce(1, *)
    // Jobs are (slab, column block of 64); columns are independent outputs.
    let blocks = (inner + 63) / 64
    return .kernel([OutSpec(shape: x.shape)]) { b in
      let src = b.input(0), dst = b.outs[0]
      return { e in
        parallelFor(outer * blocks, threads: outer * len * inner < 16384 ? 1 : e.threads) { lo, hi in
          for job in lo..<hi {
            let o = job / blocks, i0 = (job % blocks) * 64
            bk_softmax(e.isa, dst + o * len * inner, src + o * len * inner, len, inner, i0, min(i0 + 64, inner))
          }
        }
      }
    }
  }

  static func reduceMean(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0)
    let rank = x.shape.count
    let keep = try ctx.int("keepdims", 1) != 0
    var axes: [Int]
    if ctx.opset < 18 || ctx.has("axes") {
      axes = try (try ctx.ints("axes") ?? []).map { try ctx.axis($0, rank: rank, attr: "axes") }
    } else if ctx.optional(1) != nil {
      axes = try ctx.constant(1, "axes").asInts.map { try ctx.axis($0, rank: rank, attr: "axes") }
    } else {
      axes = []
    }
    if axes.isEmpty {
      if try ctx.int("noop_with_empty_axes", 0) != 0 { return .alias(x.shape) }
      axes = Array(0..<rank)
    }
    let reduced = Set(axes)
    try ctx.checkSize(x.shape)
    let outShape = (0..<rank).compactMap { reduced.contains($0) ? (keep ? 1 : nil) : x.shape[$0] }
    let strides = Shapes.strides(x.shape)
    let keptDims = (0..<rank).filter { !reduced.contains($0) }
    let redDims = (0..<rank).filter { reduced.contains($0) }
    // Offsets of every output's first element, and of every reduced element.
    let outRows = Move.Rows(shape: keptDims.map { x.shape[$0] } + [1], strides: [keptDims.map { strides[$0] } + [0]])
    let redRows = Move.Rows(shape: redDims.map { x.shape[$0] } + [1], strides: [redDims.map { strides[$0] } + [0]])
    let outBases = (0..<outRows.rows).flatMap { r in (0..<outRows.inner).map { outRows.bases[0][r] + $0 * outRows.innerStrides[0] } }
    let redOffsets = (0..<redRows.rows).flatMap { r in (0..<redRows.inner).map { redRows.bases[0][r] + $0 * redRows.innerStrides[0] } }
    let count = Float(redOffsets.count)
    return .kernel([OutSpec(shape: outShape)]) { b in
      let src = b.input(0), dst = b.outs[0]
      return { e in
        parallelFor(outBases.count, threads: e.threads) { lo, hi in
          for o in lo..<hi {
            var s: Float = 0
            for r in redOffsets { s += src[outBases[o] + r] }
            dst[o] = s / count
          }
        }
      }
    }
  }

  static func globalAveragePool(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0)
    guard x.shape.count >= 3 else { throw ctx.error("input has shape \(x.shape); expected rank 3 or more") }
    let nc = x.shape[0] * x.shape[1], hw = x.shape[2...].reduce(1, *)
    let out = [x.shape[0], x.shape[1]] + [Int](repeating: 1, count: x.shape.count - 2)
    return .kernel([OutSpec(shape: out)]) { b in
      let src = b.input(0), dst = b.outs[0]
      return { e in
        parallelFor(nc, threads: nc * hw < 8192 ? 1 : e.threads) { lo, hi in
          bk_channel_mean_isa(e.isa, dst, src, hw, lo, hi)
        }
      }
    }
  }
}
