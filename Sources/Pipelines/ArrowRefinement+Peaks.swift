extension ArrowRefinement {
  /// One entry a refiner found: input pixels from the window centre, and its probability.
  struct Peak: Equatable {
    var x: Double, y: Double, p: Double
    /// A touching partner read from the pair channels (it follows its entry).
    var isPartner = false
  }

  /// The local maxima of a peak refiner's output, shape [1, C, H, W] with C = 3
  /// or 6: channel 0 each cell's probability, channels 1-2 the entry's offset
  /// from the cell's centre (input px; a cell is `cell` input px wide — the
  /// window's side over W: 1 for a 48x48 map, 0.5 for a 96x96 one — centred at
  /// `(j + 0.5 - W/2) · cell`); with six, channel 3 the probability that the entry has a
  /// touching partner and channels 4-5 the partner's offset from the same centre.
  /// A cell counts when its probability is ≥ `accept` and ≥ each of its eight
  /// neighbours, and its centre lies within `trust` of the window centre on both
  /// axes; its partner when that probability is ≥ `pairAccept` (the partner's
  /// confidence is the smaller of the two). Row-major order, each entry before
  /// its partner, like Training/peaks.py.
  static func peaks(_ v: [Float], channels: Int = 3, height h: Int, width w: Int, cell: Double, accept: Double, trust: Double,
                    pairAccept: Double = .infinity) -> [Peak] {
    var found: [Peak] = []
    let plane = h * w
    for i in 0..<h {
      let cy = (Double(i) + 0.5 - Double(h) / 2) * cell
      guard abs(cy) <= trust else { continue }
      for j in 0..<w {
        let cx = (Double(j) + 0.5 - Double(w) / 2) * cell
        let at = i * w + j
        let p = v[at]
        guard abs(cx) <= trust, Double(p) >= accept else { continue }
        var top = true
        for ni in max(0, i - 1)...min(h - 1, i + 1) where top {
          for nj in max(0, j - 1)...min(w - 1, j + 1) where v[ni * w + nj] > p { top = false }
        }
        guard top else { continue }
        found.append(Peak(x: cx + Double(v[plane + at]), y: cy + Double(v[2 * plane + at]), p: Double(p)))
        if channels == 6, Double(v[3 * plane + at]) >= pairAccept {
          found.append(Peak(x: cx + Double(v[4 * plane + at]), y: cy + Double(v[5 * plane + at]), p: Double(min(p, v[3 * plane + at])),
                            isPartner: true))
        }
      }
    }
    return found
  }
}
