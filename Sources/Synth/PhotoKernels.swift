#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Core

// Photo-look kernels: free functions over interleaved RGB Float buffers
// (shape: [height][width][3], values 0...255). Each runs in a fixed order, so
// the same input and seed give the same bytes.

/// Multiplies by white-balance gains, a linear lighting gradient across the
/// image at `angleDeg`, and a radial vignette.
func applyLighting(_ rgb: inout [Float], width: Int, height: Int, gains: (Float, Float, Float),
                   amount: Double, angleDeg: Double, vignette: Double) {
  let cx = Double(width) / 2, cy = Double(height) / 2, norm = Double(max(width, height))
  let ca = cos(angleDeg * .pi / 180), sa = sin(angleDeg * .pi / 180)
  let maxR2 = cx * cx + cy * cy
  for y in 0..<height {
    for x in 0..<width {
      let dx = Double(x) - cx, dy = Double(y) - cy
      let k = Float((1 + amount * (dx * ca + dy * sa) / norm) * (1 - vignette * (dx * dx + dy * dy) / maxR2))
      let i = (y * width + x) * 3
      rgb[i] *= gains.0 * k
      rgb[i + 1] *= gains.1 * k
      rgb[i + 2] *= gains.2 * k
    }
  }
}

/// Normalised 1-D Gaussian weights for `sigma`, radius ⌈3σ⌉.
func gaussianWeights(sigma: Double) -> [Float] {
  let radius = max(1, Int((3 * sigma).rounded(.up)))
  var w = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
  let sum = w.reduce(0, +)
  w = w.map { $0 / sum }
  return w.map(Float.init)
}

/// Separable Gaussian blur with clamp-to-edge borders, in place. Each row's
/// horizontal pass goes into a ring of 2r + 1 rows, and output row y is the
/// vertical sum over the ring once rows up to y + r are in it: a row is
/// overwritten only after every horizontal pass that reads it, so the sums
/// (same terms, same order as two whole-image passes) use a few rows of
/// scratch instead of a second image (a 16384² render saves 3 GiB).
func gaussianBlur(_ rgb: inout [Float], width: Int, height: Int, sigma: Double) {
  guard sigma > 0.05, width > 0, height > 0 else { return }
  let w = gaussianWeights(sigma: sigma)
  let r = w.count / 2, slots = 2 * r + 1, rowFloats = width * 3
  var ring = [Float](repeating: 0, count: slots * rowFloats)
  rgb.withUnsafeMutableBufferPointer { img in
    ring.withUnsafeMutableBufferPointer { ring in
      /// Horizontal pass of image row `y` into its ring slot.
      func horizontal(_ y: Int) {
        let row = y * rowFloats, slot = (y % slots) * rowFloats
        for x in 0..<width {
          var acc: (Float, Float, Float) = (0, 0, 0)
          for k in -r...r {
            let sx = min(max(x + k, 0), width - 1)
            let i = row + sx * 3, wk = w[k + r]
            acc.0 += img[i] * wk; acc.1 += img[i + 1] * wk; acc.2 += img[i + 2] * wk
          }
          ring[slot + x * 3] = acc.0; ring[slot + x * 3 + 1] = acc.1; ring[slot + x * 3 + 2] = acc.2
        }
      }
      var done = 0  // rows [0, done) are in the ring (the last `slots` of them)
      for y in 0..<height {
        while done < min(height, y + r + 1) { horizontal(done); done += 1 }
        let row = y * rowFloats
        for x in 0..<width {
          var acc: (Float, Float, Float) = (0, 0, 0)
          for k in -r...r {
            let sy = min(max(y + k, 0), height - 1)
            let i = (sy % slots) * rowFloats + x * 3, wk = w[k + r]
            acc.0 += ring[i] * wk; acc.1 += ring[i + 1] * wk; acc.2 += ring[i + 2] * wk
          }
          img[row + x * 3] = acc.0; img[row + x * 3 + 1] = acc.1; img[row + x * 3 + 2] = acc.2
        }
      }
    }
  }
}

/// The naive reference: the full 2-D Gaussian sum per pixel, no separation.
func naiveGaussianBlur(_ rgb: [Float], width: Int, height: Int, sigma: Double) -> [Float] {
  let w = gaussianWeights(sigma: sigma).map(Double.init)
  let r = w.count / 2
  var out = rgb
  for y in 0..<height {
    for x in 0..<width {
      for c in 0..<3 {
        var acc = 0.0
        for ky in -r...r {
          for kx in -r...r {
            let sx = min(max(x + kx, 0), width - 1), sy = min(max(y + ky, 0), height - 1)
            acc += Double(rgb[(sy * width + sx) * 3 + c]) * w[ky + r] * w[kx + r]
          }
        }
        out[(y * width + x) * 3 + c] = Float(acc)
      }
    }
  }
  return out
}

/// JPEG-like artefacts without a codec: chroma averaged over 2×2 blocks (4:2:0
/// subsampling) and luma pulled toward each 8×8 block's mean by `strength`
/// (blocking at low quality).
func jpegArtefacts(_ rgb: inout [Float], width: Int, height: Int, strength: Double) {
  guard strength > 0 else { return }
  let s = Float(strength)
  for by in stride(from: 0, to: height, by: 2) {
    for bx in stride(from: 0, to: width, by: 2) {
      var cb: Float = 0, cr: Float = 0, n: Float = 0
      for y in by..<min(by + 2, height) { for x in bx..<min(bx + 2, width) {
        let i = (y * width + x) * 3
        let (r, g, b) = (rgb[i], rgb[i + 1], rgb[i + 2])
        cb += -0.168736 * r - 0.331264 * g + 0.5 * b
        cr += 0.5 * r - 0.418688 * g - 0.081312 * b
        n += 1
      } }
      cb /= n; cr /= n
      for y in by..<min(by + 2, height) { for x in bx..<min(bx + 2, width) {
        let i = (y * width + x) * 3
        let luma = 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2]
        rgb[i] = luma + 1.402 * cr
        rgb[i + 1] = luma - 0.344136 * cb - 0.714136 * cr
        rgb[i + 2] = luma + 1.772 * cb
      } }
    }
  }
  for by in stride(from: 0, to: height, by: 8) {
    for bx in stride(from: 0, to: width, by: 8) {
      var mean: (Float, Float, Float) = (0, 0, 0), n: Float = 0
      for y in by..<min(by + 8, height) { for x in bx..<min(bx + 8, width) {
        let i = (y * width + x) * 3
        mean.0 += rgb[i]; mean.1 += rgb[i + 1]; mean.2 += rgb[i + 2]; n += 1
      } }
      mean = (mean.0 / n, mean.1 / n, mean.2 / n)
      for y in by..<min(by + 8, height) { for x in bx..<min(bx + 8, width) {
        let i = (y * width + x) * 3
        rgb[i] += (mean.0 - rgb[i]) * s * 0.25
        rgb[i + 1] += (mean.1 - rgb[i + 1]) * s * 0.25
        rgb[i + 2] += (mean.2 - rgb[i + 2]) * s * 0.25
      } }
    }
  }
}

/// Adds Gaussian sensor noise of standard deviation `sigma` (in 0...255 units),
/// drawing from `rng` in pixel order.
func addNoise(_ rgb: inout [Float], sigma: Double, rng: inout SeededGenerator) {
  guard sigma > 0 else { return }
  for i in rgb.indices { rgb[i] += Float(rng.gaussian() * sigma) }
}
