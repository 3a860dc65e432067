import Canvas

/// The verdict of an image comparison.
struct ImageDiffResult: Sendable {
  /// Pixels whose largest channel change exceeds the threshold.
  let differing: Int
  /// Largest channel change anywhere.
  let maxDelta: Int
  /// First differing pixel (x, y), for the message.
  let first: (Int, Int)?
  /// Golden dimmed, differing pixels in red; nil when sizes differ or nothing differs.
  let diffImage: RGBA8Image?
  let sizeMismatch: Bool
  /// Bounding box of the differing pixels (x, y, width, height); nil when none differ.
  var changed: [Int]? = nil
  var identical: Bool { differing == 0 && !sizeMismatch && maxDelta == 0 }
}

/// Exact fast path (whole-buffer equality), then a per-pixel channel delta
/// with a threshold and a count of differing pixels.
func diffImages(expected: RGBA8Image, actual: RGBA8Image, tolerance: ImageTolerance) -> ImageDiffResult {
  if expected.width != actual.width || expected.height != actual.height {
    return ImageDiffResult(differing: max(expected.width * expected.height, actual.width * actual.height), maxDelta: 255,
                           first: (0, 0), diffImage: nil, sizeMismatch: true)
  }
  if expected.pixels == actual.pixels {
    return ImageDiffResult(differing: 0, maxDelta: 0, first: nil, diffImage: nil, sizeMismatch: false)
  }
  var out = [UInt8](repeating: 255, count: expected.pixels.count)
  var differing = 0, maxDelta = 0
  var first: (Int, Int)?
  var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
  let e = expected.pixels, a = actual.pixels
  for p in 0..<(expected.width * expected.height) {
    let i = p * 4
    var d = 0
    for c in 0..<4 { d = max(d, abs(Int(e[i + c]) - Int(a[i + c]))) }
    maxDelta = max(maxDelta, d)
    if d > tolerance.threshold {
      differing += 1
      let x = p % expected.width, y = p / expected.width
      if first == nil { first = (x, y) }
      minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
      out[i] = 255; out[i + 1] = 0; out[i + 2] = 0
    } else {
      let luma = (Int(e[i]) * 299 + Int(e[i + 1]) * 587 + Int(e[i + 2]) * 114) / 1000
      let dim = UInt8(200 + luma * 55 / 255)
      out[i] = dim; out[i + 1] = dim; out[i + 2] = dim
    }
  }
  let diff = try? RGBA8Image(width: expected.width, height: expected.height, pixels: out)
  let box = maxX < 0 ? nil : [minX, minY, maxX - minX + 1, maxY - minY + 1]
  return ImageDiffResult(differing: differing, maxDelta: maxDelta, first: first, diffImage: diff, sizeMismatch: false, changed: box)
}
