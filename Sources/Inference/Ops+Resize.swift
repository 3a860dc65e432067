import Foundation

extension Operators {
  /// Resize (opset 10+): nearest for any rank, linear on the last two axes.
  static func resize(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0)
    let rank = x.shape.count
    let mode = try ctx.string("mode", "nearest")
    let coord = try ctx.string("coordinate_transformation_mode", ctx.opset < 11 ? "asymmetric" : "half_pixel")
    let nearestMode = try ctx.string("nearest_mode", ctx.opset < 11 ? "floor" : "round_prefer_floor")
    guard try ctx.int("antialias", 0) == 0 else { throw ctx.attributeError("antialias", "0, got 1") }
    let policy = try ctx.string("keep_aspect_ratio_policy", "stretch")
    guard policy == "stretch" else { throw ctx.attributeError("keep_aspect_ratio_policy", "'stretch', got '\(policy)'") }
    var axes = Array(0..<rank)
    if let a = try ctx.ints("axes") { axes = try a.map { try ctx.axis($0, rank: rank, attr: "axes") } }

    var scales = [Double](repeating: 1, count: rank)
    var fromSizes = false
    var out = x.shape
    let scaleIndex = ctx.opset < 11 ? 1 : 2
    if ctx.opset >= 11, let sz = ctx.optional(3), sz.count > 0 {
      let sizes = try ctx.ints(of: try ctx.constant(3, "sizes"), "sizes")
      guard sizes.count == axes.count, sizes.allSatisfy({ $0 >= 0 }) else {
        throw ctx.error("sizes \(sizes) do not fit \(axes.count) axes; expected one non-negative size per axis")
      }
      fromSizes = true
      for (k, a) in axes.enumerated() {
        out[a] = sizes[k]
        scales[a] = x.shape[a] == 0 ? 1 : Double(sizes[k]) / Double(x.shape[a])
      }
    } else if let s = ctx.optional(scaleIndex), s.count > 0 {
      let v = try ctx.constant(scaleIndex, "scales").asFloats
      guard v.count == axes.count, v.allSatisfy({ $0 > 0 && $0.isFinite }) else {
        throw ctx.error("scales \(v) do not fit \(axes.count) axes; expected one positive scale per axis")
      }
      for (k, a) in axes.enumerated() {
        scales[a] = Double(v[k])
        let o = (Double(x.shape[a]) * Double(v[k])).rounded(.down)
        guard o < 1e9 else { throw ctx.error("scale \(v[k]) gives \(o) elements on axis \(a); expected fewer") }
        out[a] = Int(o)
      }
    } else {
      throw ctx.error("has neither scales nor sizes; expected one of them")
    }
    try ctx.checkSize(out)

    func source(_ o: Int, axis d: Int) throws -> Double {
      let s = scales[d], inLen = Double(x.shape[d])
      // With scales, the spec's "resized length" is in·scale, not floored.
      let outLen = fromSizes ? Double(out[d]) : inLen * s
      let xo = Double(o)
      switch coord {
      case "half_pixel": return (xo + 0.5) / s - 0.5
      case "pytorch_half_pixel": return outLen > 1 ? (xo + 0.5) / s - 0.5 : 0
      case "align_corners": return outLen == 1 ? 0 : xo * (inLen - 1) / (outLen - 1)
      case "asymmetric": return xo / s
      case "tf_half_pixel_for_nearest": return (xo + 0.5) / s
      case "half_pixel_symmetric":
        let adj = Double(out[d]) / (inLen * s)
        return inLen / 2 * (1 - adj) + (xo + 0.5) / s - 0.5
      default:
        throw ctx.attributeError("coordinate_transformation_mode", "half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nearest or half_pixel_symmetric, got '\(coord)'")
      }
    }

    let strides = Shapes.strides(x.shape)
    switch mode {
    case "nearest":
      var maps: [[Int]] = []
      for d in 0..<rank {
        var m: [Int] = []
        for o in 0..<out[d] {
          let s = try source(o, axis: d)
          var i: Double
          switch nearestMode {
          case "round_prefer_floor": i = s - s.rounded(.down) == 0.5 ? s.rounded(.down) : s.rounded()
          case "round_prefer_ceil": i = s - s.rounded(.down) == 0.5 ? s.rounded(.up) : s.rounded()
          case "floor": i = s.rounded(.down)
          case "ceil": i = s.rounded(.up)
          default:
            throw ctx.attributeError("nearest_mode", "round_prefer_floor, round_prefer_ceil, floor or ceil, got '\(nearestMode)'")
          }
          m.append(Int(max(0, min(Double(x.shape[d] - 1), i))) * strides[d])
        }
        maps.append(m)
      }
      // Row bases over all but the last axis, then a gather along the last.
      let lead = Array(out.dropLast())
      let rows = lead.reduce(1, *)
      var bases = [Int](repeating: 0, count: rows)
      var idx = [Int](repeating: 0, count: lead.count)
      for r in 0..<rows {
        bases[r] = (0..<lead.count).reduce(0) { $0 + maps[$1][idx[$1]] }
        var d = lead.count - 1
        while d >= 0 {
          idx[d] += 1
          if idx[d] < lead[d] { break }
          idx[d] = 0
          d -= 1
        }
      }
      let lastMap = maps.last ?? [0]
      let inner = out.last ?? 1
      // An integer upscale of the last axis (each source element `repeat` times
      // in order, as asymmetric/floor gives for scale 2 or 8) is written element
      // by element without the index map; an output row whose source row is the
      // previous output row's is a copy of it. Both are copies of the same
      // floats, so the bits are the gather's.
      let lastLen = x.shape.last ?? 1
      let repeatLast = lastLen > 0 && inner % lastLen == 0 && inner > 0 &&
        lastMap.enumerated().allSatisfy { $0.element == $0.offset / (inner / lastLen) } ? inner / lastLen : 0
      return .kernel([OutSpec(shape: out)]) { b in
        let src = b.input(0), dst = b.outs[0]
        return { e in
          parallelFor(rows, threads: e.threads) { lo, hi in
            lastMap.withUnsafeBufferPointer { map in
              bases.withUnsafeBufferPointer { base in
                for r in lo..<hi {
                  let o = dst + r * inner
                  if r > lo, base[r] == base[r - 1] {
                    o.update(from: o - inner, count: inner)
                    continue
                  }
                  let s = src + base[r]
                  if repeatLast > 0 {
                    var at = o
                    for j in 0..<lastLen {
                      let v = s[j]
                      for k in 0..<repeatLast { at[k] = v }
                      at += repeatLast
                    }
                  } else {
                    for i in 0..<inner { o[i] = s[map[i]] }
                  }
                }
              }
            }
          }
        }
      }
    case "linear":
      guard rank >= 2, (0..<(rank - 2)).allSatisfy({ out[$0] == x.shape[$0] }) else {
        throw ctx.error("resizes \(x.shape) to \(out) linearly; expected only the last two axes to change")
      }
      func taps(_ d: Int) throws -> [(Int, Int, Float, Float)] {
        try (0..<out[d]).map { o in
          let len = x.shape[d]
          let s = max(0, min(Double(len - 1), try source(o, axis: d)))
          let i0 = Int(s.rounded(.down)), i1 = min(i0 + 1, len - 1)
          let w1 = Float(s - Double(i0))
          return (i0, i1, 1 - w1, w1)
        }
      }
      let ty = try taps(rank - 2), tx = try taps(rank - 1)
      let (H, W) = (x.shape[rank - 2], x.shape[rank - 1])
      let (OH, OW) = (out[rank - 2], out[rank - 1])
      let planes = x.shape.dropLast(2).reduce(1, *)
      return .kernel([OutSpec(shape: out)]) { b in
        let src = b.input(0), dst = b.outs[0]
        return { e in
          parallelFor(planes * OH, threads: e.threads) { lo, hi in
            for job in lo..<hi {
              let p = job / OH, oy = job % OH
              let (y0, y1, wy0, wy1) = ty[oy]
              let r0 = src + p * H * W + y0 * W, r1 = src + p * H * W + y1 * W
              let o = dst + job * OW
              for ox in 0..<OW {
                let (x0, x1, wx0, wx1) = tx[ox]
                o[ox] = r0[x0] * wx0 * wy0 + r0[x1] * wx1 * wy0 + r1[x0] * wx0 * wy1 + r1[x1] * wx1 * wy1
              }
            }
          }
        }
      }
    default:
      throw ctx.attributeError("mode", "'nearest' or 'linear', got '\(mode)'")
    }
  }
}
