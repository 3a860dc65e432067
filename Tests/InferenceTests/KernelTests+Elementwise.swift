import Foundation
import CKernels
import Testing

@testable import Inference

/// Depthwise, pooling, activation, softmax and mean kernels against their naive
/// references on every dispatch path (GEMM and convolution: KernelTests.swift).
extension KernelTests {
  /// Depthwise geometries: (channels, H, W, KH, KW, stride, pad, dilation). Widths
  /// below, at and past one 8-lane block, stride 2 (gathers), kernels wider
  /// than the row, dilation and an asymmetric kernel.
  static let depthwiseCases: [(Int, Int, Int, Int, Int, Int, Int, Int)] = [
    (4, 10, 13, 3, 3, 2, 1, 1), (3, 7, 7, 5, 5, 1, 2, 1), (3, 14, 14, 5, 5, 1, 2, 1),
    (2, 14, 14, 5, 5, 2, 2, 1), (2, 9, 17, 3, 3, 1, 1, 1), (2, 8, 8, 3, 3, 1, 0, 1),
    (2, 5, 3, 7, 7, 1, 3, 1), (2, 12, 19, 3, 3, 1, 2, 2), (2, 6, 11, 1, 5, 3, 2, 1),
    (2, 16, 33, 3, 3, 2, 0, 1),
    // channels across the lanes (rows of at most 8 outputs, blocks of 16
    // channels and a remainder): 5x5 on 7x7, stride 2 onto 7x7, dilation 2
    (20, 7, 7, 5, 5, 1, 2, 1), (32, 14, 14, 5, 5, 2, 2, 1), (17, 6, 5, 3, 3, 1, 2, 2),
    // maps too big for one buffer, in bands of rows: stride 2, and 5x5 with
    // dilation at stride 1 (padding at every band's edge)
    (16, 41, 61, 3, 3, 2, 1, 1), (9, 37, 45, 5, 5, 1, 4, 2),
    // a row of ten column blocks on the row kernel (three channels: no block of 16)
    (3, 5, 150, 3, 3, 1, 1, 1),
  ]

  @Test(arguments: depthwiseCases.indices)
  func depthwiseEqualsNaiveOnEveryPath(_ index: Int) {
    let (c, h, wd, kh, kw, s, p, d) = Self.depthwiseCases[index]
    var rng = SplitMix64(seed: 12 + UInt64(index))
    let oh = (h + 2 * p - d * (kh - 1) - 1) / s + 1, ow = (wd + 2 * p - d * (kw - 1) - 1) / s + 1
    let x = Self.random(c * h * wd, &rng), w = Self.random(c * kh * kw, &rng)
    var bias = Self.random(c, &rng)
    bias[0] = -0.0  // a -0 start must survive padding taps on every path
    // Naive reference: in-bounds taps only, (i, j) order.
    var expected = [Float](repeating: 0, count: c * oh * ow)
    for ch in 0..<c {
      for yy in 0..<oh {
        for xx in 0..<ow {
          var acc = bias[ch]
          for i in 0..<kh {
            for j in 0..<kw {
              let ih = yy * s - p + i * d, iw = xx * s - p + j * d
              if ih >= 0 && ih < h && iw >= 0 && iw < wd {
                acc = fmaf(w[(ch * kh + i) * kw + j], x[(ch * h + ih) * wd + iw], acc)
              }
            }
          }
          expected[(ch * oh + yy) * ow + xx] = acc
        }
      }
    }
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: .nan, count: c * oh * ow + 8)
      // Two channel ranges, as two threads would split them; the 8 floats past
      // the end must stay untouched.
      bk_depthwise(isa, &y, x, w, bias, h, wd, kh, kw, s, s, p, p, d, d, oh, ow, 0, 1)
      bk_depthwise(isa, &y, x, w, bias, h, wd, kh, kw, s, s, p, p, d, d, oh, ow, 1, c)
      let bits = y[..<(c * oh * ow)].map(\.bitPattern), want = expected.map(\.bitPattern)
      #expect(bits == want, "isa \(isa)")
      let untouched = y[(c * oh * ow)...].allSatisfy { $0.isNaN }
      #expect(untouched, "isa \(isa) wrote past the output")
    }
  }

  /// Max-pool geometries (kernel, stride, pad, height, width): SPPF's 5x5 at
  /// stride 1 (the separable path) on 9x12 and on rows of 37 (two vectors of
  /// 16 and a masked tail; AVX2: four and a tail), 3x3 stride 1 unpadded, 3x3
  /// stride 2, 2x2, 7x7 with padding wider than some rows' taps; at stride 2
  /// (even lanes of two row loads) rows of 20 and 16 outputs and a 3x3 whose
  /// last output's taps run past the row (31: its last tap is the first column past it).
  @Test(arguments: [
    (5, 1, 2, 9, 12), (5, 1, 2, 20, 37), (3, 1, 0, 9, 12), (3, 2, 1, 9, 12), (2, 2, 0, 9, 12), (7, 1, 3, 9, 12),
    (7, 1, 3, 5, 25), (3, 2, 1, 11, 40), (3, 2, 0, 8, 33), (3, 2, 1, 7, 34), (3, 2, 1, 6, 31),
  ])
  func maxPoolEqualsNaiveOnEveryPath(_ geometry: (Int, Int, Int, Int, Int)) {
    let (k, s, p, h, w) = geometry
    var rng = SplitMix64(seed: 13)
    let c = 3
    let oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1
    var x = Self.random(c * h * w, &rng).map { ($0 * 4).rounded() / 4 }  // ties, so the first of equals counts
    // Channel 0 at most 0, so windows holding both zeros below have +0 then -0 as their maximum.
    for i in 0..<(h * w) { x[i] = -abs(x[i]) }
    x[17] = .nan
    x[40] = 0
    x[41] = -0.0
    x[70] = Float(bitPattern: 0x7FC0_0001)  // a second NaN payload: the later one must win
    x[71] = .nan
    var expected = [Float](repeating: 0, count: c * oh * ow)
    for ch in 0..<c {
      for yy in 0..<oh {
        for xx in 0..<ow {
          var m = -Float.infinity
          for i in 0..<k {
            for j in 0..<k {
              let ih = yy * s - p + i, iw = xx * s - p + j
              guard ih >= 0, ih < h, iw >= 0, iw < w else { continue }
              let v = x[(ch * h + ih) * w + iw]
              if v > m || v.isNaN { m = v }
            }
          }
          expected[(ch * oh + yy) * ow + xx] = m
        }
      }
    }
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: 0, count: c * oh * ow)
      bk_maxpool(isa, &y, x, h, w, k, k, s, s, p, p, 1, 1, oh, ow, 0, c)
      #expect(zip(y, expected).allSatisfy { $0.bitPattern == $1.bitPattern }, "isa \(isa) k\(k) s\(s) p\(p) \(h)x\(w)")
    }
  }

  @Test("SIMD activations equal the scalar code on every bit pattern sampled", arguments: [Int32(1), 2, 3, 4, 5])
  func activationPathsAgree(_ act: Int32) {
    let (alpha, beta): (Float, Float) = act >= 4 ? (1 / 6, 0.5) : (0, 0)
    var rng = SplitMix64(seed: 31)
    var x = (0..<20_000).map { i -> Float in
      i % 2 == 0 ? Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) : rng.float(in: -120...120)
    }
    x += [.nan, -.nan, .infinity, -.infinity, 0, -0, 88.8, -104, 88.72283, -103.97208, 3, -3, 2.9999998, -3.0000002]
    var expected = x
    bk_activate(&expected, expected.count, act, alpha, beta)
    for isa in Int32(0)...KernelISA.best {
      var y = x
      bk_activate_isa(isa, &y, y.count, act, alpha, beta)
      #expect(compare(y, expected, .exact) == nil, "isa \(isa)")
      #expect(zip(y, expected).allSatisfy { $0.bitPattern == $1.bitPattern }, "isa \(isa) NaN bits")
    }
  }

  @Test("Softmax equals the naive loop on every path", arguments: [(40, 1), (19, 37), (16, 70), (3, 1)])
  func softmaxPathsAgree(_ shape: (Int, Int)) {
    let (len, inner) = shape
    var rng = SplitMix64(seed: UInt64(len * 100 + inner))
    var x = (0..<(len * inner)).map { _ in rng.float(in: -30...30) }
    x[x.count / 2] = .nan
    var expected = [Float](repeating: 0, count: x.count)
    for i in 0..<inner {
      var m = -Float.infinity
      for k in 0..<len where x[k * inner + i] > m { m = x[k * inner + i] }
      var s: Float = 0
      for k in 0..<len {
        expected[k * inner + i] = bk_expf(x[k * inner + i] - m)
        s += expected[k * inner + i]
      }
      for k in 0..<len { expected[k * inner + i] /= s }
    }
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: 0, count: x.count)
      bk_softmax(isa, &y, x, len, inner, 0, inner)
      #expect(zip(y, expected).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }, "isa \(isa)")
    }
  }

  @Test("Sigmoid and SiLU (FMA exp, clamped argument) are accurate to about an ulp and saturate cleanly")
  func sigmoidIsAccurate() {
    var x: Float = -86
    var xs: [Float] = []
    while x < 86 { xs.append(x); x += 0.173 }
    var s = xs, silu = xs
    bk_activate(&s, s.count, Int32(BK_ACT_SIGMOID), 0, 0)
    bk_activate(&silu, silu.count, Int32(BK_ACT_SILU), 0, 0)
    let ref = xs.map { 1 / (1 + Foundation.exp(-Double($0))) }
    #expect(compare(s, ref.map { Float($0) }, .float32Function) == nil)
    #expect(compare(silu, zip(xs, ref).map { Float(Double($0) * $1) }, .float32Function) == nil)
    var edges: [Float] = [-1000, -200, 0, 200, 1000, .infinity, -.infinity]
    bk_activate(&edges, edges.count, Int32(BK_ACT_SIGMOID), 0, 0)
    #expect(edges[0] < 1e-37 && edges[1] < 1e-37 && edges[2] == 0.5 && edges[3] == 1 && edges[4] == 1)
    #expect(edges[5] == 1 && edges[6] < 1e-37)
  }

  /// (hw, c0, c1): maps of one value, fewer than 8 or 16, one past a block, and
  /// channel ranges that leave 16- and 8-channel blocks and a scalar rest.
  static let meanShapes: [(Int, Int, Int)] = [(1, 0, 16), (7, 3, 40), (16, 0, 32), (17, 5, 29), (49, 0, 160), (196, 1, 26), (3137, 0, 24)]

  @Test("Channel means equal the sequential sum on every path, bit for bit", arguments: meanShapes)
  func channelMeanPathsAgree(_ shape: (Int, Int, Int)) {
    let (hw, c0, c1) = shape
    var rng = SplitMix64(seed: UInt64(hw * 1000 + c1))
    // Magnitudes from 1e-3 to 1e4 and both zeros: a sum added in any other order
    // rounds differently somewhere.
    var x = [Float](repeating: 0, count: c1 * hw)
    for i in x.indices {
      let scale = Float(pow(10.0, Double(i % 8) - 3))
      let v = rng.float(in: -1...1) * scale
      x[i] = i % 22 == 0 ? -0.0 : i % 11 == 0 ? 0 : v
    }
    x[x.count - 1] = 3e4
    var expected = [Float](repeating: .nan, count: c1)
    for c in c0..<c1 {
      var s: Float = 0
      for i in 0..<hw { s += x[c * hw + i] }
      expected[c] = s / Float(hw)
    }
    for isa in Int32(0)...KernelISA.best {
      var y = [Float](repeating: .nan, count: c1)
      bk_channel_mean_isa(isa, &y, x, hw, c0, c1)
      let same = zip(y[c0...], expected[c0...]).allSatisfy { $0.bitPattern == $1.bitPattern }
      let outside = y[..<c0].allSatisfy { $0.isNaN }
      #expect(same, "isa \(isa)")
      #expect(outside, "isa \(isa) wrote outside its channels")
    }
  }

  @Test("Sigmoid and SiLU never return a subnormal float: one costs a microcode assist per lane")
  func sigmoidStaysNormal() {
    var x: Float = -1000
    var xs: [Float] = []
    while x < -80 { xs.append(x); x += 0.0731 }
    for act in [Int32(BK_ACT_SIGMOID), Int32(BK_ACT_SILU)] {
      for isa in Int32(0)...KernelISA.best {
        var y = xs
        bk_activate_isa(isa, &y, y.count, act, 0, 0)
        let sub = zip(xs, y).first { $0.1.isSubnormal }
        #expect(sub == nil, "act \(act) isa \(isa): \(String(describing: sub))")
      }
    }
  }

  @Test func expIsAccurate() {
    var worst: Double = 0
    var x: Float = -87
    while x < 88 {
      let rel = abs(Double(bk_expf(x)) - Foundation.exp(Double(x))) / Foundation.exp(Double(x))
      worst = max(worst, rel)
      x += 0.37
    }
    #expect(worst < 4e-7, "worst relative error \(worst)")
    #expect(bk_expf(-200) == 0 && bk_expf(200) == .infinity && bk_expf(0) == 1)
  }
}
