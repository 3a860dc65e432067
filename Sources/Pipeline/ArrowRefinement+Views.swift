import Inference

/// One of the eight symmetries of the square window a refiner reads: the crop
/// is transposed, then mirrored left-right, then top-bottom. Reading a window
/// in several views and averaging the maps (each brought back to the window's
/// own frame) keeps what the refiner sees in every orientation: fewer false
/// entries and closer points, at some weak true ones (Models/README.md, "Views").
public struct WindowView: Sendable, Hashable {
  /// Swap x and y (applied first).
  public var transpose: Bool
  /// Mirror left-right (after the transpose).
  public var flipX: Bool
  /// Mirror top-bottom (last).
  public var flipY: Bool

  /// The window as it is.
  public static let identity = WindowView(transpose: false, flipX: false, flipY: false)
  /// All eight, in the order `RefinerSettings.views` takes a prefix of: the
  /// identity, the mirrors and both, then the same after a transpose
  /// (Training/peaks.py VIEWS).
  public static let all: [WindowView] = [false, true].flatMap { t in
    [(false, false), (true, false), (false, true), (true, true)].map { WindowView(transpose: t, flipX: $0.0, flipY: $0.1) }
  }

  /// The first `count` of `all`: 1 (the window as it is), 2 (and its mirror), 4
  /// (every mirror) or 8 (and their transposes) — the counts that keep the set
  /// closed under mirroring.
  public static func first(_ count: Int) throws(PipelineError) -> [WindowView] {
    guard [1, 2, 4, 8].contains(count) else { throw PipelineError("view count \(count) is not 1, 2, 4 or 8") }
    return Array(all.prefix(count))
  }

  /// The original cell (or pixel) that cell (x, y) of this view of an n×n grid shows.
  func source(x: Int, y: Int, side n: Int) -> (x: Int, y: Int) {
    let u = flipX ? n - 1 - x : x, v = flipY ? n - 1 - y : y
    return transpose ? (v, u) : (u, v)
  }

  /// The crop [1, C, n, n] as this view shows it.
  func apply(to crop: Tensor) throws -> Tensor {
    if self == .identity { return crop }
    let (c, n) = try squareShape(crop.shape, what: "crop")
    var out = [Float](repeating: 0, count: crop.scalars.count)
    crop.scalars.withUnsafeBufferPointer { src in
      for k in 0..<c {
        let plane = k * n * n
        for y in 0..<n {
          for x in 0..<n {
            let s = source(x: x, y: y, side: n)
            out[plane + y * n + x] = src[plane + s.y * n + s.x]
          }
        }
      }
    }
    return try Tensor(shape: crop.shape, scalars: out)
  }

  /// Adds a refiner's output for this view, [1, C, n, n] (a one-answer
  /// [probability, dx, dy] is a 1×1 map), to `sum` in the window's own frame:
  /// each cell to the cell it shows, its offsets (channels 1-2 and, with six,
  /// 4-5) mirrored back and swapped back.
  func accumulate(_ v: [Float], channels c: Int, side n: Int, into sum: inout [Float]) {
    let plane = n * n
    for y in 0..<n {
      for x in 0..<n {
        let s = source(x: x, y: y, side: n)
        let from = y * n + x, to = s.y * n + s.x
        for k in 0..<c where k % 3 == 0 { sum[k * plane + to] += v[k * plane + from] }
        for k in stride(from: 1, to: c, by: 3) {
          let dx = flipX ? -v[k * plane + from] : v[k * plane + from]
          let dy = flipY ? -v[(k + 1) * plane + from] : v[(k + 1) * plane + from]
          sum[k * plane + to] += transpose ? dy : dx
          sum[(k + 1) * plane + to] += transpose ? dx : dy
        }
      }
    }
  }
}

/// Channels and side of a square [1, C, n, n] shape.
func squareShape(_ shape: [Int], what: String) throws -> (channels: Int, side: Int) {
  guard shape.count == 4, shape[0] == 1, shape[2] == shape[3], shape[2] > 0 else {
    throw PipelineError("refiner \(what) has shape \(shape): several views need a square [1, C, n, n]")
  }
  return (shape[1], shape[2])
}
