import CKernels
import Foundation
import Testing

@testable import Inference

/// The channels-across-lanes convolution (conv_outvec.c) against the naive
/// convolution and the implicit-im2col GEMM, bit for bit, on AVX2 and AVX-512
/// where the machine has them.
struct OutvecKernelTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var c: Int, h: Int, w: Int, m: Int, k: Int, s: Int, p: Int, d: Int = 1
    var testDescription: String { "c\(c) \(h)x\(w) m\(m) k\(k) s\(s) p\(p) d\(d)" }
  }

  /// Widths that are not a multiple of a tile (14 on AVX-512, 6 on AVX2) or
  /// of a vector, maps of one pixel, 16 to 80 output channels (one or two
  /// vectors per tile, and an odd group of 16), 1x1, stride 2, dilation,
  /// a 5x5 kernel, no padding, and padding larger than the map needs; and
  /// layers too cheap per input float for the padded copy, whose border
  /// tiles read patches instead (16 -> 32 channels at stride 2, dilation 5).
  /// On AVX2, rows of 7 to 31 that do not split into whole tiles take tiles
  /// that run on into the next row (at stride 1 and 2, dilated, 5x5, 1x1).
  static let cases: [Case] = [
    Case(c: 3, h: 7, w: 7, m: 32, k: 3, s: 1, p: 1), Case(c: 5, h: 9, w: 13, m: 48, k: 3, s: 2, p: 1),
    Case(c: 4, h: 1, w: 1, m: 32, k: 3, s: 1, p: 1), Case(c: 4, h: 6, w: 25, m: 80, k: 1, s: 1, p: 0),
    Case(c: 3, h: 11, w: 14, m: 32, k: 3, s: 1, p: 2, d: 2), Case(c: 2, h: 10, w: 19, m: 16, k: 5, s: 2, p: 2),
    Case(c: 6, h: 8, w: 8, m: 64, k: 3, s: 1, p: 0), Case(c: 1, h: 5, w: 31, m: 32, k: 3, s: 2, p: 0),
    Case(c: 3, h: 4, w: 4, m: 16, k: 1, s: 2, p: 0), Case(c: 2, h: 6, w: 9, m: 32, k: 3, s: 1, p: 3),
    Case(c: 16, h: 30, w: 37, m: 32, k: 3, s: 2, p: 1), Case(c: 3, h: 28, w: 28, m: 64, k: 3, s: 1, p: 1),
    Case(c: 4, h: 12, w: 31, m: 16, k: 3, s: 2, p: 5, d: 5), Case(c: 5, h: 9, w: 27, m: 32, k: 3, s: 1, p: 1),
  ] + staged + blocked

  /// Outputs whose channel planes are 4 KiB apart, or 2 KiB with 48 channels,
  /// go through the staging buffer (conv_outvec_drive.c): runs cut where the
  /// buffer fills (rows of 256), at stride 2 with border patches, and an odd
  /// group of 16.
  static let staged: [Case] = [
    Case(c: 4, h: 32, w: 32, m: 32, k: 3, s: 1, p: 1), Case(c: 16, h: 64, w: 64, m: 32, k: 3, s: 2, p: 1),
    Case(c: 3, h: 64, w: 8, m: 48, k: 3, s: 1, p: 1), Case(c: 2, h: 4, w: 256, m: 32, k: 3, s: 1, p: 1),
  ]

  /// Layers AVX-512 walks channel-blocked (bk_conv_outvec_blocks): a short
  /// last block (40 = 16 + 16 + 8), rows longer than a segment (150), rows
  /// so short a segment holds several (10), stride 2, dilation, a 5x5
  /// kernel (blocks of 5 channels), no padding, and an odd group of 16.
  static let blocked: [Case] = [
    Case(c: 40, h: 5, w: 150, m: 64, k: 3, s: 1, p: 1), Case(c: 20, h: 8, w: 10, m: 48, k: 3, s: 1, p: 1),
    Case(c: 40, h: 30, w: 37, m: 64, k: 3, s: 2, p: 1), Case(c: 18, h: 14, w: 17, m: 64, k: 3, s: 1, p: 2, d: 2),
    Case(c: 7, h: 11, w: 23, m: 32, k: 5, s: 1, p: 2), Case(c: 24, h: 9, w: 40, m: 32, k: 3, s: 1, p: 0),
    // Weights past L2 over a small map: on AVX2 each 16-channel group walks
    // the map on its own, its tiles running on across rows of 14.
    Case(c: 128, h: 14, w: 14, m: 128, k: 3, s: 1, p: 1),
  ]

  @Test("Channels-across-lanes convolution equals the naive one and the conv GEMM", arguments: cases)
  func outvecEqualsNaive(_ t: Case) throws {
    var rng = SplitMix64(seed: UInt64(t.c * 1000 + t.w * 10 + t.m))
    let ke = t.d * (t.k - 1) + 1
    let oh = (t.h + 2 * t.p - ke) / t.s + 1, ow = (t.w + 2 * t.p - ke) / t.s + 1
    let K = t.c * t.k * t.k, N = oh * ow
    let x = KernelTests.random(t.c * t.h * t.w, &rng), w = KernelTests.random(t.m * K, &rng)
    var bias = KernelTests.random(t.m, &rng)
    bias[0] = -0.0  // a -0 start must meet padding taps exactly as the GEMM's zeros do
    let expected = KernelTests.naiveConv(
      x: x, w: w, bias: bias, c: t.c, h: t.h, wd: t.w, m: t.m, k: t.k, s: t.s, p: t.p, d: t.d)
    var geom = BKConvGeom(
      C: t.c, H: t.h, W: t.w, KH: t.k, KW: t.k, sh: t.s, sw: t.s, ph: t.p, pw: t.p, dh: t.d, dw: t.d, OH: oh, OW: ow)
    var packed = [Float](repeating: .nan, count: t.m * K)
    bk_conv_outvec_pack(&packed, w, t.m, K)
    var ws = [Float](repeating: .nan, count: max(bk_conv_outvec_workspace(t.m, &geom), 1))
    var padded = geom
    var ran = 0
    for isa in Int32(1)...max(1, KernelISA.best) where isa <= KernelISA.best {
      #expect(bk_conv_outvec_applies(isa, t.m, &geom) != 0, "isa \(isa)")
      let img = bk_conv_outvec_pad(&ws, x, t.m, &geom, 0, t.c, &padded)
      var y = [Float](repeating: .nan, count: t.m * N)
      // Two column ranges, the first ending mid-row, as two threads would split it.
      let mid = N / 3
      #expect(bk_conv_outvec(isa, t.m, 0, mid, packed, img, &padded, &y, bias, nil) == 1)
      #expect(bk_conv_outvec(isa, t.m, mid, N, packed, img, &padded, &y, bias, nil) == 1)
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
      ran += 1
    }
    try #require(ran > 0 || KernelISA.best == 0, "no AVX2 path ran")
  }

  @Test("The fused activation gives the conv GEMM's bits") func outvecEpilogueEqualsGemm() {
    var rng = SplitMix64(seed: 5)
    let (c, h, wd, m) = (4, 9, 15, 32)  // 15 columns: too narrow for the direct kernel
    var geom = BKConvGeom(C: c, H: h, W: wd, KH: 3, KW: 3, sh: 1, sw: 1, ph: 1, pw: 1, dh: 1, dw: 1, OH: h, OW: wd)
    let K = c * 9, N = h * wd
    let x = KernelTests.random(c * h * wd, &rng).map { $0 * 8 }, w = KernelTests.random(m * K, &rng)
    let bias = KernelTests.random(m, &rng)
    var packed = [Float](repeating: 0, count: m * K)
    bk_conv_outvec_pack(&packed, w, m, K)
    var ws = [Float](repeating: 0, count: bk_conv_outvec_workspace(m, &geom))
    var padded = geom
    let img = bk_conv_outvec_pad(&ws, x, m, &geom, 0, c, &padded)
    for act in [Int32(BK_ACT_RELU), Int32(BK_ACT_SILU), Int32(BK_ACT_HARDSWISH)] {
      var ep = BKEpilogue(act: act, alpha: 1 / 6, beta: 0.5)
      var expected = [Float](repeating: 0, count: m * N)
      bk_conv_gemm(0, m, 0, N, w, x, &geom, &expected, bias, &ep)
      for isa in Int32(1)...max(1, KernelISA.best) where isa <= KernelISA.best {
        var y = [Float](repeating: .nan, count: m * N)
        #expect(bk_conv_outvec(isa, m, 0, N, packed, img, &padded, &y, bias, &ep) == 1)
        #expect(compare(y, expected, .exact) == nil, "act \(act) isa \(isa)")
      }
    }
  }

  @Test("A big image is not copied: its border tiles read zero-padded patches") func outvecBorderPatches() {
    var rng = SplitMix64(seed: 9)
    // 761 x 761 padded floats: past the copy's limit, so the workspace is 0.
    let (c, h, wd, m) = (1, 760, 760, 32)  // 32 channels: not a stem the direct kernel takes
    var geom = BKConvGeom(C: c, H: h, W: wd, KH: 3, KW: 3, sh: 2, sw: 2, ph: 1, pw: 1, dh: 1, dw: 1, OH: 380, OW: 380)
    let K = c * 9, N = 380 * 380
    let x = KernelTests.random(c * h * wd, &rng), w = KernelTests.random(m * K, &rng)
    var bias = KernelTests.random(m, &rng)
    bias[0] = -0.0
    #expect(bk_conv_outvec_workspace(m, &geom) == 0)
    var expected = [Float](repeating: 0, count: m * N)
    bk_conv_gemm(0, m, 0, N, w, x, &geom, &expected, bias, nil)
    var packed = [Float](repeating: 0, count: m * K)
    bk_conv_outvec_pack(&packed, w, m, K)
    var padded = geom
    let img = bk_conv_outvec_pad(nil, x, m, &geom, 0, c, &padded)
    // Routing takes the patches on both ISAs (with the next rows prefetched
    // they beat the packed GEMM on AVX-512 too).
    for isa in Int32(1)...max(1, KernelISA.best) where isa <= KernelISA.best {
      #expect(bk_conv_outvec_applies(isa, m, &padded) != 0, "isa \(isa)")
    }
    for isa in Int32(1)...max(1, KernelISA.best) where isa <= KernelISA.best {
      var y = [Float](repeating: .nan, count: m * N)
      let mid = N / 2 + 7
      #expect(bk_conv_outvec(isa, m, 0, mid, packed, img, &padded, &y, bias, nil) == 1)
      #expect(bk_conv_outvec(isa, m, mid, N, packed, img, &padded, &y, bias, nil) == 1)
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
    }
  }

  @Test("Channel groups split as threads split them give the whole layer's bits") func outvecChannelSplit() {
    var rng = SplitMix64(seed: 13)
    // 64 channels over rows of 20 at stride 1: the layer is not the direct
    // kernel's, but a 32-channel share alone would be; the share still runs.
    let (c, h, wd, m) = (4, 10, 20, 64)
    var geom = BKConvGeom(C: c, H: h, W: wd, KH: 3, KW: 3, sh: 1, sw: 1, ph: 1, pw: 1, dh: 1, dw: 1, OH: h, OW: wd)
    let K = c * 9, N = h * wd
    let x = KernelTests.random(c * h * wd, &rng), w = KernelTests.random(m * K, &rng)
    let bias = KernelTests.random(m, &rng)
    let expected = KernelTests.naiveConv(x: x, w: w, bias: bias, c: c, h: h, wd: wd, m: m, k: 3, s: 1, p: 1)
    var packed = [Float](repeating: 0, count: m * K)
    bk_conv_outvec_pack(&packed, w, m, K)
    var ws = [Float](repeating: 0, count: max(bk_conv_outvec_workspace(m, &geom), 1))
    var padded = geom
    let img = bk_conv_outvec_pad(&ws, x, m, &geom, 0, c, &padded)
    for isa in Int32(1)...max(1, KernelISA.best) where isa <= KernelISA.best {
      #expect(bk_conv_outvec_applies(isa, m, &geom) != 0, "isa \(isa)")
      var y = [Float](repeating: .nan, count: m * N)
      packed.withUnsafeBufferPointer { a in
        bias.withUnsafeBufferPointer { b in
          y.withUnsafeMutableBufferPointer { out in
            for (g0, g1) in [(0, 2), (2, 4)] {
              let ran = bk_conv_outvec(
                isa, (g1 - g0) * 16, 0, N, a.baseAddress! + g0 * 16 * K, img, &padded,
                out.baseAddress! + g0 * 16 * N, b.baseAddress! + g0 * 16, nil)
              #expect(ran == 1, "isa \(isa) groups \(g0)..<\(g1)")
            }
          }
        }
      }
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
    }
  }

  /// (input channels, output channels, width, AVX-512 routes to outvec): a
  /// stem and 16-channel layers stay with the direct kernel, 32 and more
  /// channels over the same wide rows go to outvec (`bk_conv_direct_preferred`).
  /// Under AVX2 every layer of 16k channels but a stem is outvec, and one of 8,
  /// 24 or 40 channels (which outvec cannot take) direct, as are stems.
  static let routes: [(Int, Int, Int, Bool)] = [
    (3, 16, 160, false), (3, 8, 160, false), (3, 24, 160, false), (16, 16, 160, false),
    (16, 8, 160, false), (16, 24, 160, false), (16, 32, 160, true), (32, 32, 160, true),
    (32, 48, 80, false), (32, 64, 80, true),
  ]

  @Test("AVX-512 sends wide 32k-channel layers to outvec, stems and 16-channel ones direct; AVX2 stems and 8- and 24-channel ones direct", arguments: routes)
  func routing(_ r: (Int, Int, Int, Bool)) {
    var g = BKConvGeom(C: r.0, H: 20, W: r.2, KH: 3, KW: 3, sh: 1, sw: 1, ph: 1, pw: 1, dh: 1, dw: 1, OH: 20, OW: r.2)
    // A request is clamped to the machine's best ISA: the table's route on an
    // AVX-512 machine, the AVX2 route on an AVX2-only one; without AVX2, none.
    let best = KernelISA.best, hasAVX2 = best >= Int32(BK_ISA_AVX2)
    let stem = r.0 * 9 <= 32 && r.1 <= 24
    let avx2 = hasAVX2 && r.1 % 16 == 0 && !stem
    let avx512 = best >= Int32(BK_ISA_AVX512) ? r.3 : avx2
    #expect((bk_conv_outvec_applies(Int32(BK_ISA_AVX512), r.1, &g) != 0) == avx512)
    #expect((bk_conv_outvec_applies(Int32(BK_ISA_AVX2), r.1, &g) != 0) == avx2)
    #expect((bk_conv_is_direct(Int32(BK_ISA_AVX2), r.1, &g) != 0) == (hasAVX2 && (r.1 % 16 != 0 || stem)))
  }

  /// (input channels, output channels, input side, stride, padded copy): the
  /// copy where a layer does at least 100 multiply-adds per copied float,
  /// border patches below (16 -> 32 at stride 2: 71), none past 2 MiB.
  static let copies: [(Int, Int, Int, Int, Bool)] = [
    (16, 32, 112, 2, false), (16, 32, 160, 2, false), (32, 64, 56, 2, true), (64, 64, 28, 1, true),
    (64, 64, 80, 1, true), (32, 32, 160, 1, false),
  ]

  @Test("A padded copy only where the layer's multiply-adds pay for it", arguments: copies)
  func paddedCopy(_ r: (Int, Int, Int, Int, Bool)) {
    let o = (r.2 + 2 - 3) / r.3 + 1
    var g = BKConvGeom(C: r.0, H: r.2, W: r.2, KH: 3, KW: 3, sh: r.3, sw: r.3, ph: 1, pw: 1, dh: 1, dw: 1, OH: o, OW: o)
    #expect((bk_conv_outvec_workspace(r.1, &g) > 0) == r.4)
    // Either way the layer still runs across the lanes.
    #expect(bk_conv_outvec_applies(Int32(BK_ISA_AVX2), r.1, &g) != 0 || KernelISA.best < Int32(BK_ISA_AVX2))
  }

  @Test("AVX-512 walks the blocked cases channel-blocked, the other kernels plainly", arguments: cases)
  func blockedWalk(_ t: Case) {
    let ke = t.d * (t.k - 1) + 1
    let oh = (t.h + 2 * t.p - ke) / t.s + 1, ow = (t.w + 2 * t.p - ke) / t.s + 1
    var geom = BKConvGeom(
      C: t.c, H: t.h, W: t.w, KH: t.k, KW: t.k, sh: t.s, sw: t.s, ph: t.p, pw: t.p, dh: t.d, dw: t.d, OH: oh, OW: ow)
    var padded = geom
    var ws = [Float](repeating: 0, count: max(bk_conv_outvec_workspace(t.m, &geom), 1))
    _ = bk_conv_outvec_pad(&ws, [Float](repeating: 0, count: t.c * t.h * t.w), t.m, &geom, 0, t.c, &padded)
    // Blocks of 144 taps: 16 channels at 3x3, 5 at 5x5.
    let perBlock = 144 / (t.k * t.k)
    let expected = Self.blocked.contains { $0.testDescription == t.testDescription } ? perBlock : 0
    let avx512 = KernelISA.best >= Int32(BK_ISA_AVX512)
    #expect(bk_conv_outvec_blocks(Int32(BK_ISA_AVX512), &padded) == (avx512 ? expected : 0))
    #expect(bk_conv_outvec_blocks(Int32(BK_ISA_AVX2), &padded) == 0)
  }

  @Test("Shapes it does not take are refused, not run") func outvecRefuses() {
    // 24 output channels (not a multiple of 16), stride 3, a 9x9 kernel, the scalar ISA.
    var g = BKConvGeom(C: 2, H: 20, W: 20, KH: 3, KW: 3, sh: 1, sw: 1, ph: 1, pw: 1, dh: 1, dw: 1, OH: 20, OW: 20)
    #expect(bk_conv_outvec_applies(Int32(BK_ISA_AVX512), 24, &g) == 0)
    #expect(bk_conv_outvec_applies(Int32(BK_ISA_SCALAR), 32, &g) == 0)
    var s3 = g
    s3.sw = 3
    #expect(bk_conv_outvec_applies(Int32(BK_ISA_AVX512), 32, &s3) == 0)
    var k9 = g
    k9.KH = 9
    k9.KW = 9
    #expect(bk_conv_outvec_applies(Int32(BK_ISA_AVX512), 32, &k9) == 0)
    // A refused shape is not run: nothing is written.
    if KernelISA.best >= 1 {
      var y = [Float](repeating: 7, count: 24 * 400)
      let x = [Float](repeating: 1, count: 2 * 400), w = [Float](repeating: 1, count: 24 * 18)
      #expect(bk_conv_outvec(1, 24, 0, 400, w, x, &g, &y, nil, nil) == 0)
      #expect(y.allSatisfy { $0 == 7 })
    }
  }
}
