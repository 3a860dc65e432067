import CKernels

/// Spatial geometry shared by Conv and MaxPool (2-D; 1-D runs as H = 1).
struct Window {
  var kernel: [Int]
  var strides: [Int]
  var dilations: [Int]
  var padBegin: [Int]
  var padEnd: [Int]
  var output: [Int]

  init(_ ctx: NodeContext, input: [Int], kernel: [Int], ceil: Bool = false) throws {
    let r = input.count
    self.kernel = kernel
    strides = try ctx.ints("strides", count: r) ?? [Int](repeating: 1, count: r)
    dilations = try ctx.ints("dilations", count: r) ?? [Int](repeating: 1, count: r)
    guard strides.allSatisfy({ $0 > 0 }) else { throw ctx.attributeError("strides", "positive values, got \(strides)") }
    guard dilations.allSatisfy({ $0 > 0 }) else { throw ctx.attributeError("dilations", "positive values, got \(dilations)") }
    guard kernel.allSatisfy({ $0 > 0 }) else { throw ctx.attributeError("kernel_shape", "positive values, got \(kernel)") }
    let auto = try ctx.string("auto_pad", "NOTSET")
    padBegin = [Int](repeating: 0, count: r)
    padEnd = padBegin
    output = padBegin
    for d in 0..<r {
      let ext = (kernel[d] - 1) * dilations[d] + 1
      switch auto {
      case "NOTSET":
        if let p = try ctx.ints("pads", count: 2 * r) {
          guard p.allSatisfy({ $0 >= 0 }) else { throw ctx.attributeError("pads", "non-negative values, got \(p)") }
          padBegin[d] = p[d]
          padEnd[d] = p[d + r]
        }
        let span = input[d] + padBegin[d] + padEnd[d] - ext
        guard span >= 0 else {
          throw ctx.error("window \(ext) exceeds padded input \(input[d] + padBegin[d] + padEnd[d]); expected it to fit")
        }
        var o = (ceil ? (span + strides[d] - 1) / strides[d] : span / strides[d]) + 1
        if ceil && (o - 1) * strides[d] >= input[d] + padBegin[d] { o -= 1 }
        output[d] = o
      case "SAME_UPPER", "SAME_LOWER":
        let o = (input[d] + strides[d] - 1) / strides[d]
        let total = max(0, (o - 1) * strides[d] + ext - input[d])
        padBegin[d] = auto == "SAME_UPPER" ? total / 2 : total - total / 2
        padEnd[d] = total - padBegin[d]
        output[d] = o
      case "VALID":
        guard input[d] >= ext else { throw ctx.error("window \(ext) exceeds input \(input[d]); expected it to fit") }
        output[d] = (input[d] - ext) / strides[d] + 1
      default:
        throw ctx.attributeError("auto_pad", "NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '\(auto)'")
      }
    }
  }

  /// As 2-D: (H, W) parameters, 1-D padded with a unit height.
  var as2D: (k: (Int, Int), s: (Int, Int), d: (Int, Int), p: (Int, Int), o: (Int, Int)) {
    if kernel.count == 1 {
      return ((1, kernel[0]), (1, strides[0]), (1, dilations[0]), (0, padBegin[0]), (1, output[0]))
    }
    return (
      (kernel[0], kernel[1]), (strides[0], strides[1]), (dilations[0], dilations[1]),
      (padBegin[0], padBegin[1]), (output[0], output[1])
    )
  }
}

extension Operators {
  static func maxPool(_ ctx: NodeContext) throws -> Lowering {
    let x = try ctx.floatInput(0)
    guard x.shape.count == 3 || x.shape.count == 4 else {
      throw ctx.error("input has shape \(x.shape); expected rank 3 or 4 (1-D or 2-D pooling)")
    }
    guard ctx.node.outputs.count < 2 || ctx.node.outputs[1].isEmpty else {
      throw ctx.error("requests the Indices output; expected only Y")
    }
    let spatial = Array(x.shape[2...])
    guard let k = try ctx.ints("kernel_shape", count: spatial.count) else {
      throw ctx.attributeError("kernel_shape", "\(spatial.count) ints, got nothing")
    }
    let win = try Window(ctx, input: spatial, kernel: k, ceil: try ctx.int("ceil_mode", 0) != 0)
    let g = win.as2D
    let (H, W) = spatial.count == 1 ? (1, spatial[0]) : (spatial[0], spatial[1])
    let nc = x.shape[0] * x.shape[1]
    let (OH, OW) = g.o
    return .kernel([OutSpec(shape: [x.shape[0], x.shape[1]] + win.output)]) { b in
      let src = b.input(0), dst = b.outs[0]
      return { e in
        // Split from 4096 outputs: a 10x10 map of 128 channels on one thread
        // waited on the other core's half of its input (SPPF in YOLO11n 320:
        // 77 us inside a two-thread run, 40 us split).
        parallelFor(nc, threads: nc * OH * OW < 4096 ? 1 : e.threads) { c0, c1 in
          bk_maxpool(e.isa, dst, src, H, W, g.k.0, g.k.1, g.s.0, g.s.1, g.p.0, g.p.1, g.d.0, g.d.1, OH, OW, c0, c1)
        }
      }
    }
  }
}
