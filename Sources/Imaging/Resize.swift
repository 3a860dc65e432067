/// What a resize does with each interpolated value before scaling it.
public enum ResizeRounding: Sendable, Hashable {
  /// Keep the fraction (torchvision on float tensors).
  case none
  /// Round half away from zero to an 8-bit level, as OpenCV's uint8 output does.
  case toByte
}

/// Where a resize writes: three planes (R, G, B) of `side`² in `out`, the
/// resized image's top-left corner at (`x`, `y`); values outside it are left as they are.
public struct PlanarTarget: Sendable, Hashable {
  /// Side of each square plane.
  public let side: Int
  /// Top-left corner of the resized image in the plane.
  public let x: Int, y: Int
  /// A target at (`x`, `y`) in `side`² planes.
  public init(side: Int, x: Int = 0, y: Int = 0) {
    self.side = side
    self.x = x
    self.y = y
  }
}

/// Bilinear resampling with half-pixel centres, edges clamped and no
/// antialiasing (cv2 `INTER_LINEAR`, torchvision `align_corners=False`) of
/// the RGB channels of `src` (`channels` bytes a pixel, `width`×`height`)
/// to `outWidth`×`outHeight`, written planar into `out` at `target`, each value
/// rounded as `rounding` says, then divided by `divisor` (a division, not a
/// multiplication by its inverse, so 8-bit levels map to the same floats as `v / 255`). The one resize of
/// the product; `resizeBilinearNaive` is its reference.
public func resizeBilinear(
  _ src: [UInt8], width: Int, height: Int, channels: Int, outWidth: Int, outHeight: Int,
  into out: inout [Float], target: PlanarTarget, rounding: ResizeRounding, divisor: Float
) {
  precondition(channels >= 3 && src.count >= width * height * channels && outWidth >= 0 && outHeight >= 0)
  precondition(target.x >= 0 && target.y >= 0 && target.x + outWidth <= target.side && target.y + outHeight <= target.side)
  precondition(out.count >= 3 * target.side * target.side)
  let plane = target.side * target.side
  let sx = Double(width) / Double(max(outWidth, 1)), sy = Double(height) / Double(max(outHeight, 1))
  let cols = (0..<outWidth).map { bilinearTaps((Double($0) + 0.5) * sx - 0.5, width) }
  src.withUnsafeBufferPointer { s in
    out.withUnsafeMutableBufferPointer { o in
      for y in 0..<outHeight {
        let (r0, r1, fy) = bilinearTaps((Double(y) + 0.5) * sy - 0.5, height)
        let row = (target.y + y) * target.side + target.x
        for x in 0..<outWidth {
          let (c0, c1, fx) = cols[x]
          let i00 = (r0 * width + c0) * channels, i01 = (r0 * width + c1) * channels
          let i10 = (r1 * width + c0) * channels, i11 = (r1 * width + c1) * channels
          for ch in 0..<3 {
            let a = Float(s[i00 + ch]), b = Float(s[i01 + ch]), c = Float(s[i10 + ch]), d = Float(s[i11 + ch])
            let top = a + (b - a) * fx, bottom = c + (d - c) * fx
            var v = top + (bottom - top) * fy
            if rounding == .toByte { v = v.rounded(.toNearestOrAwayFromZero) }
            o[ch * plane + row + x] = v / divisor
          }
        }
      }
    }
  }
}

/// The two source indices around coordinate `s` (clamped to 0...n−1) and the
/// weight of the second.
@inline(__always)
func bilinearTaps(_ s: Double, _ n: Int) -> (Int, Int, Float) {
  let c = min(max(s, 0), Double(n - 1))
  let i0 = Int(c.rounded(.down))
  return (i0, min(i0 + 1, n - 1), Float(c - Double(i0)))
}

/// Reference for `resizeBilinear`: per output pixel, the four neighbours
/// weighted in Double, no rounding, planar `[3][outHeight][outWidth]`.
func resizeBilinearNaive(_ src: [UInt8], width: Int, height: Int, channels: Int, outWidth: Int, outHeight: Int) -> [Double] {
  var out = [Double](repeating: 0, count: 3 * outWidth * outHeight)
  for y in 0..<outHeight {
    for x in 0..<outWidth {
      let fx = min(max((Double(x) + 0.5) * Double(width) / Double(outWidth) - 0.5, 0), Double(width - 1))
      let fy = min(max((Double(y) + 0.5) * Double(height) / Double(outHeight) - 0.5, 0), Double(height - 1))
      let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
      let ax = fx - Double(x0), ay = fy - Double(y0)
      for c in 0..<3 {
        func p(_ xx: Int, _ yy: Int) -> Double { Double(src[(yy * width + xx) * channels + c]) }
        out[c * outWidth * outHeight + y * outWidth + x] =
          p(x0, y0) * (1 - ax) * (1 - ay) + p(x1, y0) * ax * (1 - ay) + p(x0, y1) * (1 - ax) * ay + p(x1, y1) * ax * ay
      }
    }
  }
  return out
}
