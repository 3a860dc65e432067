/// How `Preprocess.letterbox` placed the image, to map boxes back.
public struct LetterboxInfo: Sendable, Equatable, Codable {
  /// Scale from original pixels to model pixels.
  let gain: Float
  /// Left and top padding in model pixels.
  let padX: Int
  let padY: Int
  /// Size of the resized image inside the padding.
  let resizedWidth: Int
  let resizedHeight: Int
  /// Original image size.
  let width: Int
  let height: Int

  /// Maps a point in model pixels back to original pixels.
  func toOriginal(x: Float, y: Float) -> (x: Float, y: Float) {
    ((x - Float(padX)) / gain, (y - Float(padY)) / gain)
  }
}

/// Image preprocessing into NCHW float tensors (RGB in [0, 1]).
public enum Preprocess {
  /// Ultralytics LetterBox: scale by the smaller ratio, round the resized
  /// size, pad to `size`×`size` with gray 114, splitting the padding with
  /// round(p − 0.1) before and round(p + 0.1) after. Bilinear resampling with
  /// half-pixel centres; each channel is rounded to an 8-bit level like
  /// OpenCV's uint8 output, then divided by 255.
  public static func letterbox(rgba: [UInt8], width: Int, height: Int, to size: Int = 640) throws -> (Tensor, LetterboxInfo) {
    try check(rgba, width, height, size)
    let r = min(Double(size) / Double(height), Double(size) / Double(width))
    let nw = Int((Double(width) * r).rounded(.toNearestOrEven))
    let nh = Int((Double(height) * r).rounded(.toNearestOrEven))
    let dw = Double(size - nw) / 2, dh = Double(size - nh) / 2
    let left = Int((dw - 0.1).rounded(.toNearestOrEven)), top = Int((dh - 0.1).rounded(.toNearestOrEven))
    var out = [Float](repeating: 114.0 / 255.0, count: 3 * size * size)
    resize(rgba, width, height, into: &out, size: size, x0: left, y0: top, w: nw, h: nh)
    let info = LetterboxInfo(
      gain: Float(r), padX: left, padY: top, resizedWidth: nw, resizedHeight: nh, width: width, height: height)
    return (Tensor(unchecked: [1, 3, size, size], out), info)
  }

  /// Stretches to `size`×`size` ignoring aspect ratio (Vision's .scaleFill).
  public static func stretch(rgba: [UInt8], width: Int, height: Int, to size: Int = 224) throws -> Tensor {
    try check(rgba, width, height, size)
    var out = [Float](repeating: 0, count: 3 * size * size)
    resize(rgba, width, height, into: &out, size: size, x0: 0, y0: 0, w: size, h: size)
    return Tensor(unchecked: [1, 3, size, size], out)
  }

  static func check(_ rgba: [UInt8], _ w: Int, _ h: Int, _ size: Int) throws {
    guard w > 0, h > 0, size > 0, size <= 4096 else {
      throw InferenceError.shape("Image is \(w)×\(h) with target \(size); expected positive sizes and a target up to 4096.")
    }
    let (n, o) = w.multipliedReportingOverflow(by: h)
    guard !o, n <= Int.max / 4, rgba.count == n * 4 else {
      throw InferenceError.shape("RGBA buffer has \(rgba.count) bytes for \(w)×\(h); expected \(o ? -1 : n * 4).")
    }
  }

  /// Bilinear resize of the RGBA image into the w×h box at (x0, y0) of a
  /// planar RGB output of side `size`.
  private static func resize(
    _ src: [UInt8], _ sw: Int, _ sh: Int, into out: inout [Float], size: Int, x0: Int, y0: Int, w: Int, h: Int
  ) {
    func taps(_ o: Int, _ inLen: Int, _ outLen: Int) -> (Int, Int, Float) {
      let s = max(0, (Float(o) + 0.5) * (Float(inLen) / Float(outLen)) - 0.5)
      let i0 = min(Int(s), inLen - 1), i1 = min(i0 + 1, inLen - 1)
      return (i0, i1, s - Float(i0))
    }
    let xs = (0..<w).map { taps($0, sw, w) }
    let plane = size * size
    for y in 0..<h {
      let (r0, r1, fy) = taps(y, sh, h)
      let oy = y + y0
      for x in 0..<w {
        let (c0, c1, fx) = xs[x]
        let ox = x + x0
        for ch in 0..<3 {
          let a = Float(src[(r0 * sw + c0) * 4 + ch]), b = Float(src[(r0 * sw + c1) * 4 + ch])
          let c = Float(src[(r1 * sw + c0) * 4 + ch]), d = Float(src[(r1 * sw + c1) * 4 + ch])
          let top = a + (b - a) * fx, bottom = c + (d - c) * fx
          let v = (top + (bottom - top) * fy).rounded(.toNearestOrAwayFromZero)
          out[ch * plane + oy * size + ox] = v / 255
        }
      }
    }
  }
}
