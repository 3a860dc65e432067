extension ModelInput {
  /// A square window of side `side` original pixels centred at (`cx`, `cy`)
  /// (pixel p covers [p, p + 1)), resampled to `out`×`out` planar RGB: each
  /// output pixel averages k×k bilinear samples, k = ⌈side / out⌉, edges
  /// clamped, rounded to an 8-bit level (⌊v + ½⌋), then divided by 255.
  /// `Training/refiner.py crop` computes the same. Planar `[3][out][out]`.
  public static func window(_ image: RGBA8Image, cx: Double, cy: Double, side: Double, out: Int) throws(ImageError) -> [Float] {
    try checkSide(out)
    guard side.isFinite, side > 0, side <= 65536, cx.isFinite, cy.isFinite else {
      throw .parameterOutOfRange(name: "window", value: "of side \(side) at (\(cx), \(cy))", expected: "a finite centre and a side in (0, 65536]")
    }
    let width = image.width, height = image.height, rgba = image.pixels
    let s = side / Double(out)
    let k = max(1, Int((s - 1e-9).rounded(.up)))
    // Per-axis taps: (first index, second index, weight of the second).
    func taps(_ c: Double, _ limit: Int) -> [(Int, Int, Float)] {
      (0..<(out * k)).map { i in
        let t = (Double(i) + 0.5) / Double(k)
        let x = c - side / 2 + t * s - 0.5
        let x0 = x.rounded(.down)
        let i0 = Int(max(-1, min(Double(limit), x0)))
        return (min(max(i0, 0), limit - 1), min(max(i0 + 1, 0), limit - 1), Float(x - x0))
      }
    }
    let xs = taps(cx, width), ys = taps(cy, height)
    var result = [Float](repeating: 0, count: 3 * out * out)
    let plane = out * out
    let n = Float(k * k)
    for oy in 0..<out {
      for ox in 0..<out {
        for ch in 0..<3 {
          var acc: Float = 0
          for sy in 0..<k {
            let (r0, r1, fy) = ys[oy * k + sy]
            for sx in 0..<k {
              let (c0, c1, fx) = xs[ox * k + sx]
              let a = Float(rgba[(r0 * width + c0) * 4 + ch]), b = Float(rgba[(r0 * width + c1) * 4 + ch])
              let c = Float(rgba[(r1 * width + c0) * 4 + ch]), d = Float(rgba[(r1 * width + c1) * 4 + ch])
              let top = a * (1 - fx) + b * fx, bottom = c * (1 - fx) + d * fx
              acc += top * (1 - fy) + bottom * fy
            }
          }
          result[ch * plane + oy * out + ox] = ((acc / n) + 0.5).rounded(.down) / 255
        }
      }
    }
    return result
  }
}
