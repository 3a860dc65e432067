extension ArrowRefinement {
  /// One entry a refiner found: input pixels from the window centre, and its probability.
  struct Peak: Equatable {
    var x: Double, y: Double, p: Double
  }

  /// The local maxima of a peak refiner's output, shape [1, 3, H, W]: channel 0
  /// each cell's probability, channels 1-2 the entry's offset from the cell's
  /// centre (input px; a cell is one input px, centred at `j + 0.5 - W/2`).
  /// A cell counts when its probability is ≥ `accept` and ≥ each of its eight
  /// neighbours, and its centre lies within `trust` of the window centre on both
  /// axes. Row-major order, like Training/peaks.py.
  static func peaks(_ v: [Float], height h: Int, width w: Int, accept: Double, trust: Double) -> [Peak] {
    var found: [Peak] = []
    let plane = h * w
    for i in 0..<h {
      let cy = Double(i) + 0.5 - Double(h) / 2
      guard abs(cy) <= trust else { continue }
      for j in 0..<w {
        let cx = Double(j) + 0.5 - Double(w) / 2
        let p = v[i * w + j]
        guard abs(cx) <= trust, Double(p) >= accept else { continue }
        var top = true
        for ni in max(0, i - 1)...min(h - 1, i + 1) where top {
          for nj in max(0, j - 1)...min(w - 1, j + 1) where v[ni * w + nj] > p { top = false }
        }
        guard top else { continue }
        found.append(Peak(x: cx + Double(v[plane + i * w + j]), y: cy + Double(v[2 * plane + i * w + j]), p: Double(p)))
      }
    }
    return found
  }
}
