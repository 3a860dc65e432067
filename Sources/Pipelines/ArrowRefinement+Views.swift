import Inference

extension ArrowRefinement {
  /// One of the eight symmetries of a square window: swap the axes, then mirror
  /// either. The refiner was trained on all eight (Training/refiner.py's flips
  /// and `--transpose`), so each view is a fair second reading of a window.
  struct View: Equatable {
    var swap: Bool, flipX: Bool, flipY: Bool

    /// The first `n` of the eight, the window as it is first.
    static func first(_ n: Int) -> [View] {
      let all = [(false, false, false), (true, false, false), (false, true, false), (false, false, true),
                 (true, true, false), (true, false, true), (false, true, true), (true, true, true)]
      return all.prefix(max(1, min(8, n))).map { View(swap: $0.0, flipX: $0.1, flipY: $0.2) }
    }

    /// Where cell (row i, column j) of an n×n grid lands in this view.
    func cell(_ i: Int, _ j: Int, n: Int) -> (row: Int, column: Int) {
      var (r, c) = swap ? (j, i) : (i, j)
      if flipX { c = n - 1 - c }
      if flipY { r = n - 1 - r }
      return (r, c)
    }

    /// An offset read in this view, turned back into the window's own axes.
    func back(_ dx: Float, _ dy: Float) -> (Float, Float) {
      let x = flipX ? -dx : dx, y = flipY ? -dy : dy
      return swap ? (y, x) : (x, y)
    }

    /// A crop [1, C, n, n] as this view shows it.
    func show(_ v: [Float], channels: Int, side n: Int) -> [Float] {
      var out = [Float](repeating: 0, count: v.count)
      for ch in 0..<channels {
        let base = ch * n * n
        for i in 0..<n {
          for j in 0..<n {
            let (r, c) = cell(i, j, n: n)
            out[base + r * n + c] = v[base + i * n + j]
          }
        }
      }
      return out
    }

    /// Adds this view's offsets (channels 1-2, and 4-5 of a pair map [1, 6, n, n])
    /// into `sum`, cell by cell in the window's own frame.
    func addOffsets(of v: [Float], channels: Int, side n: Int, into sum: inout [Float]) {
      let plane = n * n
      for i in 0..<n {
        for j in 0..<n {
          let (r, c) = cell(i, j, n: n)
          let from = r * n + c, to = i * n + j
          for g in stride(from: 0, to: channels - 2, by: 3) {
            let (dx, dy) = back(v[(g + 1) * plane + from], v[(g + 2) * plane + from])
            sum[(g + 1) * plane + to] += dx
            sum[(g + 2) * plane + to] += dy
          }
        }
      }
    }
  }

  /// A peak map whose offsets are the mean of `views` readings of the window:
  /// which cells are entries (the probability channels) stays the first
  /// reading's, so what is found does not change, only where it is placed.
  /// Only maps with a cell at `accept` or above get the extra readings.
  static func averagingOffsets(_ map: Tensor, crop: Tensor, views: Int, accept: Double, read: (Tensor) throws -> Tensor) throws -> Tensor {
    let s = map.shape
    guard views > 1, s.count == 4, s[2] == s[3], s[1] == 3 || s[1] == 6, crop.shape.count == 4, crop.shape[2] == crop.shape[3] else { return map }
    let plane = s[2] * s[3]
    guard map.scalars[0..<plane].contains(where: { Double($0) >= accept }) else { return map }
    var sum = map.scalars
    let all = View.first(views)
    for v in all.dropFirst() {
      let shown = try Tensor(shape: crop.shape, scalars: v.show(crop.scalars, channels: crop.shape[1], side: crop.shape[3]))
      let o = try read(shown)
      guard o.shape == s else { return map }
      v.addOffsets(of: o.scalars, channels: s[1], side: s[3], into: &sum)
    }
    let n = Float(all.count)
    for g in stride(from: 0, to: s[1], by: 3) {
      for k in (g + 1) * plane..<(g + 3) * plane { sum[k] /= n }
    }
    return try Tensor(shape: s, scalars: sum)
  }
}
