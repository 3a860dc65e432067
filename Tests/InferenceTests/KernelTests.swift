import Foundation
import CKernels
import Testing

@testable import Inference

/// Each fast kernel against its naive reference, on every dispatch path the
/// machine supports: results must be bit-identical (FMA in every path).
/// Lets test closures on several threads write disjoint slots of one buffer.
struct UncheckedPointer: @unchecked Sendable {
  let value: UnsafeMutablePointer<Int32>
  init(_ value: UnsafeMutablePointer<Int32>) { self.value = value }
}

struct KernelTests {
  struct GemmCase: Sendable, CustomTestStringConvertible {
    var m: Int, n: Int, k: Int
    var testDescription: String { "\(m)x\(n)x\(k)" }
  }

  static let gemmCases = [
    GemmCase(m: 1, n: 1, k: 1), GemmCase(m: 7, n: 33, k: 5), GemmCase(m: 8, n: 32, k: 64),
    GemmCase(m: 13, n: 47, k: 129), GemmCase(m: 6, n: 16, k: 3), GemmCase(m: 17, n: 100, k: 27),
    GemmCase(m: 3, n: 0, k: 4), GemmCase(m: 5, n: 9, k: 0),
    // a half panel (4 columns) over three K blocks: its accumulators reload from C
    GemmCase(m: 25, n: 36, k: 520),
  ]

  static func random(_ n: Int, _ rng: inout SplitMix64) -> [Float] {
    (0..<n).map { _ in rng.float(in: -1...1) }
  }

  @Test("GEMM equals the naive fmaf loop bit for bit", arguments: gemmCases)
  func gemm(_ c: GemmCase) {
    var rng = SplitMix64(seed: UInt64(c.m * 1000 + c.n * 10 + c.k))
    let a = Self.random(c.m * c.k, &rng), b = Self.random(c.k * c.n, &rng), bias = Self.random(c.m, &rng)
    var expected = [Float](repeating: 0, count: c.m * c.n)
    bk_gemm_naive(c.m, c.n, c.k, a, c.k, b, c.n, &expected, c.n, bias)
    for isa in Int32(0)...KernelISA.best {
      var out = [Float](repeating: .nan, count: c.m * c.n)
      bk_gemm(isa, c.m, c.n, c.k, a, c.k, b, c.n, &out, c.n, bias, nil)
      #expect(compare(out, expected, .exact) == nil, "isa \(isa)")
    }
  }

  @Test("A fused SiLU epilogue equals GEMM followed by bk_activate", arguments: [Int32(BK_ACT_SILU), Int32(BK_ACT_HARDSWISH), Int32(BK_ACT_RELU), Int32(BK_ACT_SIGMOID), Int32(BK_ACT_HARDSIGMOID)])
  func epilogueIsExact(_ act: Int32) {
    var rng = SplitMix64(seed: 21)
    let (m, n, k) = (13, 70, 40)
    let a = Self.random(m * k, &rng).map { $0 * 4 }, b = Self.random(k * n, &rng)
    var expected = [Float](repeating: 0, count: m * n)
    bk_gemm_naive(m, n, k, a, k, b, n, &expected, n, nil)
    bk_activate(&expected, m * n, act, 1 / 6, 0.5)
    var ep = BKEpilogue(act: act, alpha: 1 / 6, beta: 0.5)
    for isa in Int32(0)...KernelISA.best {
      var out = [Float](repeating: 0, count: m * n)
      bk_gemm(isa, m, n, k, a, k, b, n, &out, n, nil, &ep)
      #expect(compare(out, expected, .exact) == nil, "isa \(isa)")
    }
  }

  @Test("Vector × matrix equals the naive fmaf loop bit for bit", arguments: [(1, 1), (17, 5), (64, 40), (100, 129), (1024, 9)])
  func vecmatEqualsNaive(_ shape: (Int, Int)) {
    let (n, k) = shape
    var rng = SplitMix64(seed: UInt64(n * 1000 + k))
    let x = Self.random(k, &rng), b = Self.random(k * (n + 3), &rng), bias = Self.random(n, &rng)
    let ldb = n + 3  // a row stride wider than the row
    var expected = [Float](repeating: 0, count: n)
    for j in 0..<n {
      var acc = bias[j]
      for i in 0..<k { acc = fmaf(x[i], b[i * ldb + j], acc) }
      expected[j] = acc
    }
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: .nan, count: n + 5)
      bk_vecmat(isa, n, k, x, b, ldb, &y, bias, nil)
      let bits = y[..<n].map(\.bitPattern), want = expected.map(\.bitPattern)
      #expect(bits == want, "isa \(isa)")
      let untouched = y[n...].allSatisfy { $0.isNaN }
      #expect(untouched, "isa \(isa) wrote past the output")
    }
  }

  /// The pool covers every index exactly once, also when regions start from
  /// several threads at once (all but one run inline) and when a chunk opens
  /// a nested region.
  @Test func poolCoversEveryIndexOnceUnderConcurrency() {
    let n = 10_000
    let counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 8 * n)
    counts.initialize(repeating: 0)
    defer { counts.deallocate() }
    let base = UncheckedPointer(counts.baseAddress!)
    DispatchQueue.concurrentPerform(iterations: 8) { lane in
      for round in 0..<20 {
        parallelFor(n, threads: 1 + (lane + round) % 4) { lo, hi in
          // a nested region inside a chunk runs on that chunk's thread
          parallelFor(hi - lo, threads: 2) { a, b in
            for i in (lo + a)..<(lo + b) { base.value[lane * n + i] += 1 }
          }
        }
      }
    }
    #expect(counts.allSatisfy { $0 == 20 })
  }

  /// Back-to-back regions of changing size and thread count, most too small
  /// for a worker to reach before the caller has claimed its chunk too: each
  /// index still runs exactly once, and a worker late for one region never
  /// runs a chunk of the next.
  @Test func poolRegionsWithLateWorkersCoverEveryIndexOnce() {
    var rng = SplitMix64(seed: 11)
    let counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 300)
    defer { counts.deallocate() }
    let base = UncheckedPointer(counts.baseAddress!)
    var wrong = 0
    for _ in 0..<20_000 {
      let n = 1 + Int(rng.next() % 300), threads = 1 + Int(rng.next() % 4)
      counts.initialize(repeating: 0)
      parallelFor(n, threads: threads) { lo, hi in
        for i in lo..<hi { base.value[i] += 1 }
      }
      wrong += counts[0..<n].filter { $0 != 1 }.count
    }
    #expect(wrong == 0)
  }

  @Test func gemmThreadSplitsAreExact() {
    var rng = SplitMix64(seed: 7)
    let (m, n, k) = (24, 300, 70)
    let a = Self.random(m * k, &rng), b = Self.random(k * n, &rng)
    var expected = [Float](repeating: 0, count: m * n)
    bk_gemm_naive(m, n, k, a, k, b, n, &expected, n, nil)
    for t in [1, 2, 3, 4] {
      var out = [Float](repeating: 0, count: m * n)
      a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
          out.withUnsafeMutableBufferPointer { po in
            parallelGemm(
              Exec(threads: t, isa: KernelISA.best), M: m, N: n, K: k, A: pa.baseAddress!, lda: k,
              B: pb.baseAddress!, ldb: n, C: po.baseAddress!, ldc: n, bias: nil, act: nil)
          }
        }
      }
      #expect(compare(out, expected, .exact) == nil, "threads \(t)")
    }
  }

  /// Naive direct convolution of one image with fmaf over (c, i, j) in order,
  /// padding taps included as zeros (what im2col + GEMM computes).
  static func naiveConv(
    x: [Float], w: [Float], bias: [Float], c: Int, h: Int, wd: Int, m: Int, k: Int, s: Int, p: Int, d: Int = 1
  ) -> [Float] {
    let ke = d * (k - 1) + 1
    let oh = (h + 2 * p - ke) / s + 1, ow = (wd + 2 * p - ke) / s + 1
    var y = [Float](repeating: 0, count: m * oh * ow)
    for o in 0..<m {
      for yy in 0..<oh {
        for xx in 0..<ow {
          var acc = bias[o]
          for ci in 0..<c {
            for i in 0..<k {
              for j in 0..<k {
                let ih = yy * s - p + i * d, iw = xx * s - p + j * d
                let v: Float = ih >= 0 && ih < h && iw >= 0 && iw < wd ? x[(ci * h + ih) * wd + iw] : 0
                acc = fmaf(w[((o * c + ci) * k + i) * k + j], v, acc)
              }
            }
          }
          y[(o * oh + yy) * ow + xx] = acc
        }
      }
    }
    return y
  }

  @Test("Plan buffers: 2 MiB-aligned from 2 MiB on (huge-page advice), 64-byte below, writable end to end")
  func hugeAlloc() throws {
    for bytes in [1, 100, (1 << 21) - 4, 1 << 21, 3 << 20] {
      let p = try #require(bk_alloc_huge(bytes))
      let align = bytes >= 1 << 21 ? 1 << 21 : 64
      #expect(Int(bitPattern: p) % align == 0, "\(bytes) bytes")
      p.initializeMemory(as: UInt8.self, repeating: 7, count: bytes)
      #expect(p.load(fromByteOffset: bytes - 1, as: UInt8.self) == 7)
      bk_free_huge(p)
    }
  }

  @Test func im2colGemmConvEqualsNaive() {
    var rng = SplitMix64(seed: 11)
    let (c, h, wd, m, k, s, p) = (3, 9, 11, 5, 3, 2, 1)
    let oh = (h + 2 * p - k) / s + 1, ow = (wd + 2 * p - k) / s + 1
    let x = Self.random(c * h * wd, &rng), w = Self.random(m * c * k * k, &rng), bias = Self.random(m, &rng)
    let expected = Self.naiveConv(x: x, w: w, bias: bias, c: c, h: h, wd: wd, m: m, k: k, s: s, p: p)
    var cols = [Float](repeating: .nan, count: c * k * k * oh * ow)
    bk_im2col(&cols, x, c, h, wd, k, k, s, s, p, p, 1, 1, oh, ow, 0, c)
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: .nan, count: m * oh * ow)
      bk_gemm(isa, m, oh * ow, c * k * k, w, c * k * k, cols, oh * ow, &y, oh * ow, bias, nil)
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
    }
  }

  struct ConvCase: Sendable, CustomTestStringConvertible {
    var c: Int, h: Int, w: Int, m: Int, k: Int, s: Int, d: Int = 1
    var testDescription: String { "c\(c) \(h)x\(w) m\(m) k\(k) s\(s) d\(d)" }
  }

  @Test(
    "Implicit-im2col conv GEMM equals the naive convolution on every path",
    arguments: [
      ConvCase(c: 3, h: 9, w: 11, m: 5, k: 3, s: 2), ConvCase(c: 4, h: 7, w: 40, m: 13, k: 3, s: 1),
      ConvCase(c: 2, h: 5, w: 5, m: 3, k: 5, s: 2), ConvCase(c: 1, h: 3, w: 3, m: 1, k: 3, s: 1),
      ConvCase(c: 33, h: 6, w: 6, m: 17, k: 3, s: 1), ConvCase(c: 3, h: 9, w: 70, m: 16, k: 3, s: 2),
      ConvCase(c: 2, h: 4, w: 100, m: 13, k: 3, s: 1),
      // the direct stem path (K <= 32, 8/16/24 output channels; 3-wide kernels unrolled, others not), strides 1-2; stride 3 goes to GEMM
      ConvCase(c: 3, h: 12, w: 37, m: 16, k: 3, s: 2), ConvCase(c: 3, h: 10, w: 21, m: 8, k: 3, s: 1),
      ConvCase(c: 1, h: 9, w: 40, m: 24, k: 5, s: 3), ConvCase(c: 2, h: 5, w: 16, m: 16, k: 3, s: 1),
      ConvCase(c: 3, h: 11, w: 45, m: 24, k: 3, s: 2), ConvCase(c: 1, h: 7, w: 30, m: 16, k: 5, s: 1),
      // AVX2's direct kernel (8, 24 and 40 channels): stems with a 5-wide kernel at strides 1 and 2, a
      // dilated stem, wider layers at stride 2 and dilated
      ConvCase(c: 1, h: 7, w: 30, m: 8, k: 5, s: 1), ConvCase(c: 1, h: 9, w: 41, m: 24, k: 5, s: 2),
      ConvCase(c: 3, h: 10, w: 29, m: 8, k: 3, s: 2, d: 2), ConvCase(c: 6, h: 9, w: 40, m: 24, k: 3, s: 2),
      ConvCase(c: 5, h: 8, w: 33, m: 8, k: 3, s: 1, d: 2),
      // the panel packers' table: dilation, a panel over more rows than the
      // table holds (falls back), 49 taps, rows wide enough for unmasked
      // (interior) loads at strides 1 and 2, a 1x1 kernel at stride 2
      ConvCase(c: 3, h: 11, w: 70, m: 13, k: 3, s: 1, d: 2), ConvCase(c: 2, h: 9, w: 5, m: 7, k: 3, s: 1),
      ConvCase(c: 2, h: 12, w: 9, m: 5, k: 7, s: 1), ConvCase(c: 2, h: 6, w: 90, m: 12, k: 3, s: 1),
      ConvCase(c: 3, h: 8, w: 133, m: 9, k: 3, s: 2), ConvCase(c: 2, h: 5, w: 40, m: 6, k: 1, s: 2),
      // the direct path for few output channels at any K (passes of 16, 8 and 24)
      ConvCase(c: 5, h: 6, w: 37, m: 32, k: 3, s: 1), ConvCase(c: 4, h: 5, w: 20, m: 40, k: 3, s: 1),
      ConvCase(c: 7, h: 4, w: 50, m: 48, k: 3, s: 1), ConvCase(c: 6, h: 9, w: 40, m: 16, k: 3, s: 2),
    ])
  func convGemmEqualsNaive(_ t: ConvCase) {
    var rng = SplitMix64(seed: UInt64(t.c * 100 + t.w))
    let p = t.k / 2
    let ke = t.d * (t.k - 1) + 1
    let oh = (t.h + 2 * p - ke) / t.s + 1, ow = (t.w + 2 * p - ke) / t.s + 1
    let x = Self.random(t.c * t.h * t.w, &rng), w = Self.random(t.m * t.c * t.k * t.k, &rng)
    let bias = Self.random(t.m, &rng)
    let expected = Self.naiveConv(x: x, w: w, bias: bias, c: t.c, h: t.h, wd: t.w, m: t.m, k: t.k, s: t.s, p: p, d: t.d)
    var geom = BKConvGeom(C: t.c, H: t.h, W: t.w, KH: t.k, KW: t.k, sh: t.s, sw: t.s, ph: p, pw: p, dh: t.d, dw: t.d, OH: oh, OW: ow)
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: .nan, count: t.m * oh * ow)
      // Two column ranges, as two threads would split it.
      let mid = (oh * ow) / 3
      bk_conv_gemm(isa, t.m, 0, mid, w, x, &geom, &y, bias, nil)
      bk_conv_gemm(isa, t.m, mid, oh * ow, w, x, &geom, &y, bias, nil)
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
    }
  }
}
