import SetCards
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Photo kernels over interleaved RGB Float planes (shape [height][width][3],
// values 0...255). Fixed loop order, so the same input and seed give the same bytes.

/// Resamples the flat table through `outToFlat` (bilinear, edge-clamped).
func warp(_ src: [Float], width sw: Int, height sh: Int, outWidth w: Int, outHeight h: Int,
          outToFlat: Homography) -> [Float] {
  var out = [Float](repeating: 0, count: w * h * 3)
  for y in 0..<h {
    for x in 0..<w {
      let (fx, fy) = outToFlat.apply(Double(x) + 0.5, Double(y) + 0.5)
      let sx = min(max(fx - 0.5, 0), Double(sw - 1)), sy = min(max(fy - 0.5, 0), Double(sh - 1))
      let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1)
      let ax = Float(sx - Double(x0)), ay = Float(sy - Double(y0))
      for c in 0..<3 {
        let p00 = src[(y0 * sw + x0) * 3 + c], p01 = src[(y0 * sw + x1) * 3 + c]
        let p10 = src[(y1 * sw + x0) * 3 + c], p11 = src[(y1 * sw + x1) * 3 + c]
        let top = p00 + (p01 - p00) * ax, bottom = p10 + (p11 - p10) * ax
        out[(y * w + x) * 3 + c] = top + (bottom - top) * ay
      }
    }
  }
  return out
}

/// Warm indoor light: white toward cream, reds toward orange (green rises with
/// the red excess), purples toward lavender (lifted where red and blue both
/// exceed green); then a linear light gradient at `angleDeg` and a vignette.
func applyLight(_ rgb: inout [Float], width: Int, height: Int, warmth: Double,
                gradient: Double, angleDeg: Double, vignette: Double) {
  let wm = Float(warmth)
  let cx = Double(width) / 2, cy = Double(height) / 2, norm = Double(max(width, height))
  let ca = cos(angleDeg * .pi / 180), sa = sin(angleDeg * .pi / 180), maxR2 = cx * cx + cy * cy
  for y in 0..<height {
    for x in 0..<width {
      let dx = Double(x) - cx, dy = Double(y) - cy
      let k = Float((1 + gradient * (dx * ca + dy * sa) / norm) * (1 - vignette * (dx * dx + dy * dy) / maxR2))
      let i = (y * width + x) * 3
      var r = rgb[i] / 255, g = rgb[i + 1] / 255, b = rgb[i + 2] / 255
      let lift = wm * 1.3 * max(0, min(r - g, b - g))
      g += wm * 0.22 * max(0, r - g - (b - g) * 0.8)
      r += lift * (1 - r)
      g += lift * (1 - g)
      b += lift * (1 - b)
      r = r * (1 + 0.05 * wm)
      b = b * (1 - 0.14 * wm)
      rgb[i] = r * 255 * k
      rgb[i + 1] = g * 255 * (1 - 0.02 * wm) * k
      rgb[i + 2] = b * 255 * k
    }
  }
}

/// Separable Gaussian blur (radius ⌈3σ⌉, clamp-to-edge): rows into a scratch
/// plane, then columns back.
func blur(_ rgb: inout [Float], width: Int, height: Int, sigma: Double) {
  guard sigma > 0.05 else { return }
  let r = max(1, Int((3 * sigma).rounded(.up)))
  var wts = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
  let sum = wts.reduce(0, +)
  wts = wts.map { $0 / sum }
  var tmp = [Float](repeating: 0, count: rgb.count)
  for y in 0..<height {
    for x in 0..<width {
      var a0: Float = 0, a1: Float = 0, a2: Float = 0
      for k in -r...r {
        let i = (y * width + min(max(x + k, 0), width - 1)) * 3, wk = wts[k + r]
        a0 += rgb[i] * wk; a1 += rgb[i + 1] * wk; a2 += rgb[i + 2] * wk
      }
      let o = (y * width + x) * 3
      tmp[o] = a0; tmp[o + 1] = a1; tmp[o + 2] = a2
    }
  }
  for y in 0..<height {
    for x in 0..<width {
      var a0: Float = 0, a1: Float = 0, a2: Float = 0
      for k in -r...r {
        let i = (min(max(y + k, 0), height - 1) * width + x) * 3, wk = wts[k + r]
        a0 += tmp[i] * wk; a1 += tmp[i + 1] * wk; a2 += tmp[i + 2] * wk
      }
      let o = (y * width + x) * 3
      rgb[o] = a0; rgb[o + 1] = a1; rgb[o + 2] = a2
    }
  }
}
