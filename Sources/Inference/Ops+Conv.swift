import CKernels

extension Operators {
  static func conv(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0), w = try ctx.floatInput(1)
    let bias = ctx.optional(2)
    guard x.shape.count == 3 || x.shape.count == 4 else {
      throw ctx.error("input has shape \(x.shape); expected rank 3 or 4 (1-D or 2-D convolution)")
    }
    guard w.shape.count == x.shape.count else {
      throw ctx.error("weight has shape \(w.shape) for input \(x.shape); expected the same rank")
    }
    let group = Int(clamping: try ctx.int("group", 1))
    let (n, c, m) = (x.shape[0], x.shape[1], w.shape[0])
    guard group > 0, c % group == 0, m % group == 0, w.shape[1] * group == c else {
      throw ctx.attributeError("group", "a divisor of \(c) input and \(m) output channels matching weight \(w.shape), got \(group)")
    }
    if let b = bias, b.shape != [m] {
      throw ctx.error("bias has shape \(b.shape); expected [\(m)]")
    }
    let spatial = Array(x.shape[2...])
    let kernel = try ctx.ints("kernel_shape", count: spatial.count) ?? Array(w.shape[2...])
    guard kernel == Array(w.shape[2...]) else {
      throw ctx.attributeError("kernel_shape", "\(Array(w.shape[2...])) to match the weight, got \(kernel)")
    }
    let win = try Window(ctx, input: spatial, kernel: kernel)
    let g = win.as2D
    let (H, W) = spatial.count == 1 ? (1, spatial[0]) : (spatial[0], spatial[1])
    let (OH, OW) = g.o
    let cg = c / group, mg = m / group
    let K = cg * g.k.0 * g.k.1, N = OH * OW
    let act = ctx.node.activation
    let depthwise = cg == 1 && mg == 1
    let pointwise = g.k == (1, 1) && g.s == (1, 1) && g.p == (0, 0) && win.padEnd.allSatisfy { $0 == 0 }
    let macs = saturatingProduct([n, m, N, K])
    let hasBias = bias != nil
    // A 1x1 map (squeeze-excitation FCs): vector × pre-transposed weights,
    // SIMD across output channels instead of across one output pixel.
    let wT: [Float]? = pointwise && group == 1 && N == 1
      ? w.constant.map { packVecMat(transposed($0, rows: m, cols: K), K: K, N: m) } : nil
    // A 1x1 convolution reads its map as one row of N pixels: the outvec
    // tiles then run 14 pixels wide across row ends instead of a row's 7
    // (MobileNet's pointwise layers on 14x14 and 7x7), and each reads the
    // weights fewer times. Same pixels, same order of FMAs per output.
    var geom = pointwise
      ? BKConvGeom(C: cg, H: 1, W: N, KH: 1, KW: 1, sh: 1, sw: 1, ph: 0, pw: 0, dh: 1, dw: 1, OH: 1, OW: N)
      : BKConvGeom(
        C: cg, H: H, W: W, KH: g.k.0, KW: g.k.1, sh: g.s.0, sw: g.s.1, ph: g.p.0, pw: g.p.1,
        dh: g.d.0, dw: g.d.1, OH: OH, OW: OW)
    // Channels across the lanes (conv_outvec.c): the weights are packed now for
    // whichever ISA a run asks for; each run checks its own. A 1x1 only on a
    // small map: over a large one the GEMM's panels are a plain copy and fill
    // every lane (64 -> 64 channels on 80x80: 0.49 ms against 0.52 here).
    // Packed when any ISA this machine runs would take it: a layer the AVX-512
    // direct kernel takes still runs here under BULLSEYE_ISA=avx2 (16- and
    // 48-channel layers over wide rows; unpacked, they would go to the GEMM).
    let outvecShape = !depthwise && wT == nil && (!pointwise || N <= outvecPointwiseMaxN)
    let outvecISAs = Set([KernelISA.best, min(KernelISA.best, Int32(BK_ISA_AVX2))])
    let outvec: [Float]? = outvecShape && outvecISAs.contains { bk_conv_outvec_applies($0, mg, &geom) != 0 }
      ? w.constant.map { packOutvec($0.f, groups: group, rows: mg, K: K) } : nil
    let padFloats = outvec == nil ? 0 : bk_conv_outvec_workspace(mg, &geom)
    if wT != nil {
      ctx.note("vector × matrix; weights transposed to [\(K), \(m)] and packed in column blocks of \(vecMatBlock(m))")
    } else if depthwise {
      ctx.note("depthwise \(g.k.0)x\(g.k.1); weights in place")
    } else if outvec != nil, bk_conv_outvec_applies(KernelISA.current, mg, &geom) != 0 {
      // The geometry the kernel will walk (the padded copy's, when it takes one) says
      // whether it runs in blocks of input channels.
      var walked = geom
      _ = bk_conv_outvec_pad(nil, nil, mg, &geom, 0, 0, &walked)
      let blocks = bk_conv_outvec_blocks(KernelISA.current, &walked)
      let walk = blocks > 0 ? "; walked in blocks of \(blocks) input channels, whose weights stay in L1" : ""
      ctx.note("channels-across-lanes \(pointwise ? "1x1 " : "")convolution [\(mg), \(K)] x [\(K), \(N)]; weights packed at load in groups of 16 output channels, [K][16] each\(walk)")
    } else if pointwise {
      ctx.note("GEMM [\(mg), \(K)] x [\(K), \(N)]; weights in place (row-major, the microkernel's A)")
    } else {
      let kind = bk_conv_is_direct(KernelISA.current, mg, &geom) != 0 ? "direct convolution" : "implicit-im2col GEMM"
      ctx.note("\(kind) [\(mg), \(K)] x [\(K), \(N)]; weights in place (row-major, the microkernel's A)")
    }
    let convGeom = geom
    return .kernel([OutSpec(shape: [n, m] + win.output)], workspace: padFloats, macs: macs) { b in
      let px = b.input(0), pw = b.input(1), pb = hasBias ? b.ins[2] : nil, py = b.outs[0], ws = b.ws
      return { e in
        let runOutvec = outvec != nil && withUnsafePointer(to: convGeom, { bk_conv_outvec_applies(e.isa, mg, $0) }) != 0
        for img in 0..<n {
          let xi = px + img * c * H * W, yi = py + img * m * N
          if let wT {
            wT.withUnsafeBufferPointer { t in
              parallelVecMatPacked(e, N: m, K: K, x: xi, packed: t.baseAddress ?? pw, y: yi, bias: pb, act: act)
            }
            continue
          }
          if depthwise {
            parallelFor(c, threads: c * N * K < 32768 ? 1 : e.threads) { c0, c1 in
              bk_depthwise(
                e.isa, yi, xi, pw, pb, H, W, g.k.0, g.k.1, g.s.0, g.s.1, g.p.0, g.p.1, g.d.0, g.d.1,
                OH, OW, c0, c1)
              if let a = act { bk_activate_isa(e.isa, yi + c0 * N, (c1 - c0) * N, a.code, a.alpha, a.beta) }
            }
            continue
          }
          for gi in 0..<group {
            let xg = xi + gi * cg * H * W
            let a = pw + gi * mg * K, yg = yi + gi * mg * N, bg = pb.map { $0 + gi * mg }
            if pointwise, !runOutvec {
              parallelGemm(e, M: mg, N: N, K: K, A: a, lda: K, B: xg, ldb: N, C: yg, ldc: N, bias: bg, act: act)
              continue
            }
            let threads = mg * N * K < 65536 ? 1 : e.threads
            withUnsafePointer(to: convGeom) { gp in
              withEpilogue(act) { ep in
                if runOutvec, let outvec, padFloats == 0 || ws != nil {
                  // The padded copy first, channels split over the threads.
                  var padded = convGeom
                  let xp = bk_conv_outvec_pad(ws, xg, mg, gp, 0, 0, &padded)
                  if padFloats > 0 {
                    parallelFor(cg, threads: threads) { c0, c1 in
                      var unused = convGeom
                      _ = bk_conv_outvec_pad(ws, xg, mg, gp, c0, c1, &unused)
                    }
                  }
                  outvec.withUnsafeBufferPointer { ap in
                    let pa = ap.baseAddress! + gi * mg * K
                    withUnsafePointer(to: padded) { pg in
                      // Weights bigger than the image: each thread takes a share of the
                      // 16-channel groups and reads only their weights (256 -> 256
                      // channels onto 10x10: 1.63x on 2 threads split by pixels).
                      if mg * K > cg * H * W, mg / 16 >= threads {
                        parallelFor(mg / 16, threads: threads) { g0, g1 in
                          let ran = bk_conv_outvec(
                            e.isa, (g1 - g0) * 16, 0, N, pa + g0 * 16 * K, xp, pg, yg + g0 * 16 * N,
                            bg.map { $0 + g0 * 16 }, ep)
                          assert(ran != 0, "bk_conv_outvec refused a share of a layer it accepted")
                        }
                      } else {
                        parallelFor(N, threads: threads) { n0, n1 in
                          let ran = bk_conv_outvec(e.isa, mg, n0, n1, pa, xp, pg, yg, bg, ep)
                          assert(ran != 0, "bk_conv_outvec refused a layer it accepted")
                        }
                      }
                    }
                  }
                } else if columnSplit(M: mg, N: N, threads: threads) {
                  parallelFor((N + 31) / 32, threads: threads) { lo, hi in
                    let n0 = lo * 32, n1 = min(hi * 32, N)
                    guard n1 > n0 else { return }
                    bk_conv_gemm(e.isa, mg, n0, n1, a, xg, gp, yg, bg, ep)
                  }
                } else {
                  parallelFor(mg, threads: threads) { m0, m1 in
                    guard m1 > m0 else { return }
                    bk_conv_gemm(e.isa, m1 - m0, 0, N, a + m0 * K, xg, gp, yg + m0 * N, bg.map { $0 + m0 }, ep)
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  static func matmul(_ ctx: NodeContext) throws -> Lowering {
    let a = try ctx.floatInput(0), b = try ctx.floatInput(1)
    guard !a.shape.isEmpty, !b.shape.isEmpty else { throw ctx.error("has a scalar input; expected rank 1 or more") }
    let sa = a.shape.count == 1 ? [1] + a.shape : a.shape
    let sb = b.shape.count == 1 ? b.shape + [1] : b.shape
    let (M, K) = (sa[sa.count - 2], sa[sa.count - 1])
    let (K2, N) = (sb[sb.count - 2], sb[sb.count - 1])
    guard K == K2 else { throw ctx.error("multiplies \(a.shape) by \(b.shape); expected inner dimensions to match (\(K) vs \(K2))") }
    let batchA = Array(sa.dropLast(2)), batchB = Array(sb.dropLast(2))
    let batch = try Shapes.broadcast([batchA, batchB], ctx)
    var out = batch + [M, N]
    if a.shape.count == 1 { out.remove(at: out.count - 2) }
    if b.shape.count == 1 { out.removeLast() }
    try ctx.checkSize(out)
    try ctx.checkSize(batch + [M, K])
    try ctx.checkSize(batch + [K, N])
    let nb = batch.reduce(1, *)
    let rows = Move.Rows(
      shape: batch + [1],
      strides: [Shapes.broadcastStrides(batchA, to: batch) + [0], Shapes.broadcastStrides(batchB, to: batch) + [0]])
    let offA = (0..<rows.rows).flatMap { r in (0..<rows.inner).map { (rows.bases[0][r] + $0 * rows.innerStrides[0]) * M * K } }
    let offB = (0..<rows.rows).flatMap { r in (0..<rows.inner).map { (rows.bases[1][r] + $0 * rows.innerStrides[1]) * K * N } }
    return .kernel([OutSpec(shape: out)], macs: saturatingProduct([nb, M, N, K])) { buf in
      let pa = buf.input(0), pb = buf.input(1), pc = buf.outs[0]
      return { e in
        if nb >= e.threads && nb > 1 {
          parallelFor(nb, threads: e.threads) { lo, hi in
            for i in lo..<hi {
              bk_gemm(e.isa, M, N, K, pa + offA[i], K, pb + offB[i], N, pc + i * M * N, N, nil, nil)
            }
          }
        } else {
          for i in 0..<nb {
            parallelGemm(e, M: M, N: N, K: K, A: pa + offA[i], lda: K, B: pb + offB[i], ldb: N, C: pc + i * M * N, ldc: N, bias: nil, act: nil)
          }
        }
      }
    }
  }

  static func gemm(_ ctx: NodeContext) throws -> Lowering {
    let a = try ctx.floatInput(0), b = try ctx.floatInput(1)
    let cIn = ctx.optional(2)
    guard a.shape.count == 2, b.shape.count == 2 else {
      throw ctx.error("has inputs \(a.shape) and \(b.shape); expected 2-D matrices")
    }
    let ta = try ctx.int("transA", 0) != 0, tb = try ctx.int("transB", 0) != 0
    let alpha = try ctx.float("alpha", 1), beta = try ctx.float("beta", 1)
    let (M, K) = ta ? (a.shape[1], a.shape[0]) : (a.shape[0], a.shape[1])
    let (K2, N) = tb ? (b.shape[1], b.shape[0]) : (b.shape[0], b.shape[1])
    guard K == K2 else { throw ctx.error("multiplies \(a.shape) by \(b.shape) (transA \(ta), transB \(tb)); expected inner dimensions to match") }
    let out = [M, N]
    try ctx.checkSize(out)
    var cRows: Move.Rows?
    if let cOp = cIn {
      _ = try Shapes.broadcast([cOp.shape, out], ctx)
      guard cOp.shape.count <= 2 else { throw ctx.error("C has shape \(cOp.shape); expected rank 2 or less") }
      cRows = Move.Rows(shape: out, strides: [Shapes.broadcastStrides(cOp.shape, to: out)])
    }
    // A constant B^T (Linear weights) is transposed once, here.
    // Constant weights of a batch-1 product are packed for bk_vecmat, here.
    let bPacked: [Float]? = M <= 4
      ? b.constant.map { packVecMat(tb ? transposed($0, rows: N, cols: K) : $0.f, K: K, N: N) } : nil
    let bFixed: [Float]? = tb && bPacked == nil ? b.constant.map { transposed($0, rows: N, cols: K) } : nil
    if bPacked != nil {
      ctx.note("vector × matrix; weights\(tb ? " transposed to [\(K), \(N)] and" : "") packed in column blocks of \(vecMatBlock(N))")
    } else if bFixed != nil {
      ctx.note("GEMM; weights transposed to [\(K), \(N)]")
    }
    let ws = (ta ? M * K : 0) + (tb && bFixed == nil && bPacked == nil ? K * N : 0)
    return .kernel([OutSpec(shape: out)], workspace: ws, macs: saturatingProduct([M, N, K])) { buf in
      let pa = buf.input(0), pb = buf.input(1), pc = cRows != nil ? buf.ins[2] : nil, po = buf.outs[0]
      let wsA = buf.ws, wsB = buf.ws.map { $0 + (ta ? M * K : 0) }
      // A plain function, not a closure stored in a local: that would put
      // its captures in a heap box on every run.
      func product(_ e: Exec, _ A: UnsafePointer<Float>, _ B: UnsafePointer<Float>) {
        if M <= 4 {
          // Batch-1 Linear: packing B would only copy it; stream it instead.
          for r in 0..<M {
            parallelVecMat(e, N: N, K: K, x: A + r * K, B: B, ldb: N, y: po + r * N, bias: nil, act: nil)
          }
        } else {
          parallelGemm(e, M: M, N: N, K: K, A: A, lda: K, B: B, ldb: N, C: po, ldc: N, bias: nil, act: nil)
        }
      }
      return { e in
        var A = pa, B = pb
        if ta, let t = wsA {
          for i in 0..<M { for k in 0..<K { t[i * K + k] = pa[k * M + i] } }
          A = UnsafePointer(t)
        }
        if let bp = bPacked {
          let a = A
          bp.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for r in 0..<M {
              parallelVecMatPacked(e, N: N, K: K, x: a + r * K, packed: base, y: po + r * N, bias: nil, act: nil)
            }
          }
        } else {
          if tb, bFixed == nil, let t = wsB {
            for k in 0..<K { for j in 0..<N { t[k * N + j] = pb[j * K + k] } }
            B = UnsafePointer(t)
          }
          if let bt = bFixed {
            let a = A, b = B
            bt.withUnsafeBufferPointer { p in product(e, a, p.baseAddress ?? b) }
          } else {
            product(e, A, B)
          }
        }
        if alpha != 1 { for i in 0..<(M * N) { po[i] = alpha * po[i] } }
        if let pc, let r = cRows {
          for row in 0..<r.rows {
            let o = po + row * r.inner, c = pc + r.bases[0][row], s = r.innerStrides[0]
            if beta == 1 {
              for j in 0..<r.inner { o[j] = o[j] + c[j * s] }
            } else {
              for j in 0..<r.inner { o[j] = o[j] + beta * c[j * s] }
            }
          }
        }
      }
    }
  }
}

/// The largest map (pixels) a 1x1 convolution runs channels-across-lanes on.
let outvecPointwiseMaxN = 1024

/// Each group's [rows, K] block of a convolution's weights, packed by
/// bk_conv_outvec_pack (rows a multiple of 16).
func packOutvec(_ w: [Float], groups: Int, rows: Int, K: Int) -> [Float] {
  var out = [Float](repeating: 0, count: groups * rows * K)
  w.withUnsafeBufferPointer { src in
    out.withUnsafeMutableBufferPointer { dst in
      for gi in 0..<groups {
        bk_conv_outvec_pack(dst.baseAddress! + gi * rows * K, src.baseAddress! + gi * rows * K, rows, K)
      }
    }
  }
  return out
}
