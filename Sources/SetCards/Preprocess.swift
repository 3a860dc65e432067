import Imaging

/// Classifier input preparation, as the reference does it: crop the
/// int-truncated box, resize to 224×224 bilinear (aspect not kept), scale to
/// [0, 1], normalise with ImageNet statistics, lay out as NCHW.
public enum CardPreprocess {
  /// Classifier input side.
  static let side = 224
  /// ImageNet channel means (R, G, B).
  static let mean: [Float] = [0.485, 0.456, 0.406]
  /// ImageNet channel standard deviations (R, G, B).
  static let std: [Float] = [0.229, 0.224, 0.225]

  /// The crop of `box` (truncated toward zero, clamped to the image, at least
  /// 1×1) as interleaved RGB bytes with its width and height.
  public static func crop(_ image: RGBA8Image, box: Box) -> (rgb: [UInt8], width: Int, height: Int) {
    let t = box.truncated
    let x1 = min(max(t[0], 0), image.width - 1), y1 = min(max(t[1], 0), image.height - 1)
    let x2 = min(max(t[2], x1 + 1), image.width), y2 = min(max(t[3], y1 + 1), image.height)
    let w = x2 - x1, h = y2 - y1
    var rgb = [UInt8](repeating: 0, count: w * h * 3)
    for y in 0..<h {
      for x in 0..<w {
        let s = ((y1 + y) * image.width + x1 + x) * 4, d = (y * w + x) * 3
        rgb[d] = image.pixels[s]
        rgb[d + 1] = image.pixels[s + 1]
        rgb[d + 2] = image.pixels[s + 2]
      }
    }
    return (rgb, w, h)
  }

  /// Bilinear resize of interleaved `channels`-channel bytes to `outWidth`×`outHeight`,
  /// half-pixel centres (`align_corners=False`, cv2 `INTER_LINEAR`), edges
  /// clamped, no antialiasing. Output is Float in 0...255, same layout.
  static func resizeBilinear(
    _ src: [UInt8], width: Int, height: Int, channels: Int = 3, outWidth: Int, outHeight: Int
  ) -> [Float] {
    var out = [Float](repeating: 0, count: outWidth * outHeight * channels)
    let sx = Double(width) / Double(outWidth), sy = Double(height) / Double(outHeight)
    // Per output column: left source index, right index, right weight.
    var cols: [(Int, Int, Float)] = []
    cols.reserveCapacity(outWidth)
    for x in 0..<outWidth { cols.append(taps((Double(x) + 0.5) * sx - 0.5, width)) }
    for y in 0..<outHeight {
      let (y0, y1, wy) = taps((Double(y) + 0.5) * sy - 0.5, height)
      for x in 0..<outWidth {
        let (x0, x1, wx) = cols[x]
        for c in 0..<channels {
          let p00 = Float(src[(y0 * width + x0) * channels + c])
          let p01 = Float(src[(y0 * width + x1) * channels + c])
          let p10 = Float(src[(y1 * width + x0) * channels + c])
          let p11 = Float(src[(y1 * width + x1) * channels + c])
          let top = p00 + (p01 - p00) * wx
          let bottom = p10 + (p11 - p10) * wx
          out[(y * outWidth + x) * channels + c] = top + (bottom - top) * wy
        }
      }
    }
    return out
  }

  /// Two source indices and the weight of the second for a source coordinate.
  @inline(__always)
  static func taps(_ s: Double, _ n: Int) -> (Int, Int, Float) {
    let c = min(max(s, 0), Double(n - 1))
    let i0 = Int(c.rounded(.down))
    let i1 = min(i0 + 1, n - 1)
    return (i0, i1, Float(c - Double(i0)))
  }

  /// HWC RGB Float 0...255 → NCHW `[1, 3, h, w]`, `(v/255 − mean) / std`.
  static func normalize(_ hwc: [Float], width: Int, height: Int) -> [Float] {
    let plane = width * height
    var out = [Float](repeating: 0, count: plane * 3)
    for c in 0..<3 {
      let m = mean[c], s = std[c]
      for i in 0..<plane { out[c * plane + i] = (hwc[i * 3 + c] / 255 - m) / s }
    }
    return out
  }

  /// The classifier tensor `[1, 3, 224, 224]` for one detected box.
  static func classifierInput(_ image: RGBA8Image, box: Box) -> [Float] {
    let c = crop(image, box: box)
    let resized = resizeBilinear(c.rgb, width: c.width, height: c.height,
                                 outWidth: side, outHeight: side)
    return normalize(resized, width: side, height: side)
  }

  /// The detector tensor `[1, 3, n, n]` (RGB in 0...1): the image resized by the
  /// frame's gain and centred on grey 114 padding, as Ultralytics letterboxes.
  static func detectorInput(_ image: RGBA8Image, frame: ModelFrame) -> [Float] {
    let n = frame.inputSize
    let w = Int((Double(image.width) * frame.gain).rounded(.toNearestOrEven))
    let h = Int((Double(image.height) * frame.gain).rounded(.toNearestOrEven))
    let rgb = crop(image, box: Box(x1: 0, y1: 0, x2: Double(image.width), y2: Double(image.height))).rgb
    let resized = resizeBilinear(rgb, width: image.width, height: image.height,
                                 outWidth: max(1, w), outHeight: max(1, h))
    var out = [Float](repeating: 114.0 / 255, count: 3 * n * n)
    let px = Int(frame.padX), py = Int(frame.padY)
    for y in 0..<max(1, h) where y + py < n {
      for x in 0..<max(1, w) where x + px < n {
        for c in 0..<3 {
          out[c * n * n + (y + py) * n + x + px] = resized[(y * max(1, w) + x) * 3 + c] / 255
        }
      }
    }
    return out
  }
}
