import CKernels

// The matrix products behind Conv, MatMul and Gemm: thread splits over the C
// kernels, and the weight layouts prepared for them at plan time.

/// C[M, N] = bias + A[M, K] · B[K, N] then an activation, split across
/// threads by columns (or rows when N is small). Splitting only partitions
/// independent outputs, so every thread count gives the same bits.
func parallelGemm(
  _ e: Exec, M: Int, N: Int, K: Int, A: UnsafePointer<Float>, lda: Int, B: UnsafePointer<Float>,
  ldb: Int, C: UnsafeMutablePointer<Float>, ldc: Int, bias: UnsafePointer<Float>?,
  act: FusedActivation?
) {
  withEpilogue(act) { ep in
    let threads = M * N * max(K, 1) < 65536 ? 1 : e.threads
    if columnSplit(M: M, N: N, threads: threads) {
      parallelFor((N + 31) / 32, threads: threads) { lo, hi in
        let n0 = lo * 32, n1 = min(hi * 32, N)
        guard n1 > n0 else { return }
        bk_gemm(e.isa, M, n1 - n0, K, A, lda, B + n0, ldb, C + n0, ldc, bias, ep)
      }
    } else {
      parallelFor(M, threads: threads) { m0, m1 in
        guard m1 > m0 else { return }
        bk_gemm(e.isa, m1 - m0, N, K, A + m0 * lda, lda, B, ldb, C + m0 * ldc, ldc, bias.map { $0 + m0 }, ep)
      }
    }
  }
}

/// y[N] = bias + x[K] · B[K, N] then an activation (`bk_vecmat`), split across
/// threads by 256-column blocks of independent outputs (64 for small N, so
/// two threads still get a share).
func parallelVecMat(
  _ e: Exec, N: Int, K: Int, x: UnsafePointer<Float>, B: UnsafePointer<Float>, ldb: Int,
  y: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>?, act: FusedActivation?
) {
  withEpilogue(act) { ep in
    let block = vecMatBlock(N)
    parallelFor((N + block - 1) / block, threads: N * K < 16384 ? 1 : e.threads) { lo, hi in
      let n0 = lo * block, n1 = min(hi * block, N)
      bk_vecmat(e.isa, n1 - n0, K, x, B + n0, ldb, y + n0, bias.map { $0 + n0 }, ep)
    }
  }
}

/// Columns per `bk_vecmat` pass (and per packed block): 256 for wide outputs
/// on AVX-512 (one pass reads a block front to back), 64 for small N so that
/// two threads still get a share, and 64 on AVX2, whose passes are 64 wide
/// (MobileNetV3's 576 -> 1024 Linear: 0.12 ms in blocks of 256, 0.056 in 64).
func vecMatBlock(_ N: Int) -> Int { N >= 1024 && KernelISA.current >= 2 ? 256 : 64 }

/// Constant [K, N] weights packed once at plan time for `parallelVecMatPacked`:
/// cut into column blocks of `vecMatBlock(N)`, each stored [K][width]
/// contiguously. A pass then streams one block front to back; in the plain
/// layout its rows lie N floats apart, a new page per row for N = 1024, which
/// the hardware prefetchers do not follow (MobileNet's 576 -> 1024 Linear:
/// 12 GB/s).
func packVecMat(_ t: [Float], K: Int, N: Int) -> [Float] {
  let block = vecMatBlock(N)
  var out = [Float](repeating: 0, count: K * N)
  var o = 0
  for n0 in stride(from: 0, to: N, by: block) {
    let w = min(block, N - n0)
    for k in 0..<K {
      for j in 0..<w { out[o + j] = t[k * N + n0 + j] }
      o += w
    }
  }
  return out
}

/// `parallelVecMat` over weights packed by `packVecMat` (same bits).
func parallelVecMatPacked(
  _ e: Exec, N: Int, K: Int, x: UnsafePointer<Float>, packed: UnsafePointer<Float>,
  y: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>?, act: FusedActivation?
) {
  withEpilogue(act) { ep in
    let block = vecMatBlock(N)
    parallelFor((N + block - 1) / block, threads: N * K < 16384 ? 1 : e.threads) { lo, hi in
      for bi in lo..<hi {
        let n0 = bi * block, w = min(block, N - n0)
        bk_vecmat(e.isa, w, K, x, packed + n0 * K, w, y + n0, bias.map { $0 + n0 }, ep)
      }
    }
  }
}

/// A constant row-major [rows, cols] matrix transposed once at plan time.
func transposed(_ v: Value, rows: Int, cols: Int) -> [Float] {
  var t = [Float](repeating: 0, count: rows * cols)
  for r in 0..<rows { for c in 0..<cols { t[c * rows + r] = v.f[r * cols + c] } }
  return t
}

/// Whether to split a GEMM across threads by 32-column panels (true) or by
/// rows. A row split packs every panel in every thread, which on a narrow
/// layer (20x20 outputs, 13 panels, K = 1152) costs more than an uneven
/// column split (7 panels against 6: 1.33x from two threads by rows, about
/// 1.8x by columns). So columns whenever the busiest thread gets at most a
/// quarter more than an even share; rows only for a handful of panels.
func columnSplit(M: Int, N: Int, threads: Int) -> Bool {
  let panels = (N + 31) / 32
  guard threads > 1, M >= 4 * threads else { return true }
  let busiest = (panels + threads - 1) / threads
  return panels >= 2 * threads && 4 * busiest * threads <= 5 * panels
}

/// Passes a C epilogue for `act` (nil when there is none).
func withEpilogue<R>(_ act: FusedActivation?, _ body: (UnsafePointer<BKEpilogue>?) -> R) -> R {
  guard let a = act else { return body(nil) }
  return withUnsafePointer(to: BKEpilogue(act: a.code, alpha: a.alpha, beta: a.beta)) { body($0) }
}

/// The product, or Int.max when it overflows (cost counting only).
func saturatingProduct(_ xs: [Int]) -> Int {
  var p = 1
  for x in xs {
    let (r, o) = p.multipliedReportingOverflow(by: x)
    if o { return Int.max }
    p = r
  }
  return p
}
