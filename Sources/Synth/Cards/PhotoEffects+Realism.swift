import Core
import Imaging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Camera effects of realistic styles, over the same interleaved RGB Float
// planes as the classic ones (values 0...255, fixed loop order).

/// White balance (−1 cool … +1 warm: red up and blue down, or the reverse),
/// exposure gain, then contrast toward mid grey with lifted blacks (washed out).
func applyCamera(_ rgb: inout [Float], whiteBalance: Double, exposure: Double, contrast: Double) {
  let wb = Float(whiteBalance), gain = Float(exposure), c = Float(contrast)
  let scale: [Float] = [gain * (1 + 0.13 * wb), gain * (1 + 0.02 * wb), gain * (1 - 0.16 * wb)]
  let pivot: Float = 150
  var i = 0
  while i < rgb.count {
    for k in 0..<3 { rgb[i + k] = pivot + (rgb[i + k] * scale[k] - pivot) * c }
    i += 3
  }
}

/// Linear motion blur: the mean of `taps` bilinear samples spread over `length`
/// pixels along `angleDeg`, edge-clamped.
func motionBlur(_ rgb: inout [Float], width: Int, height: Int, length: Double, angleDeg: Double) {
  let taps = max(2, Int(length.rounded(.up)) + 1)
  let dx = cos(angleDeg * .pi / 180) * length, dy = sin(angleDeg * .pi / 180) * length
  let src = rgb
  let norm = 1 / Float(taps)
  for y in 0..<height {
    for x in 0..<width {
      var acc: (Float, Float, Float) = (0, 0, 0)
      for t in 0..<taps {
        let f = Double(t) / Double(taps - 1) - 0.5
        let sx = min(max(Double(x) + f * dx, 0), Double(width - 1)), sy = min(max(Double(y) + f * dy, 0), Double(height - 1))
        let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let ax = Float(sx - Double(x0)), ay = Float(sy - Double(y0))
        func at(_ xx: Int, _ yy: Int, _ c: Int) -> Float { src[(yy * width + xx) * 3 + c] }
        func lerp(_ c: Int) -> Float {
          let top = at(x0, y0, c) + (at(x1, y0, c) - at(x0, y0, c)) * ax
          let bottom = at(x0, y1, c) + (at(x1, y1, c) - at(x0, y1, c)) * ax
          return top + (bottom - top) * ay
        }
        acc.0 += lerp(0); acc.1 += lerp(1); acc.2 += lerp(2)
      }
      let o = (y * width + x) * 3
      rgb[o] = acc.0 * norm; rgb[o + 1] = acc.1 * norm; rgb[o + 2] = acc.2 * norm
    }
  }
}

/// The photo as a phone saves it: JPEG at `quality`, decoded again (libjpeg-turbo).
func jpegRoundTrip(_ image: RGBA8Image, quality: Int) throws(ImageError) -> RGBA8Image {
  try JPEG.decode(try JPEG.encode(image, quality: quality))
}
