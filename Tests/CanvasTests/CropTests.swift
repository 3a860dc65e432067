import Core
import Testing

@testable import Imaging

/// `RGBA8Image.cropped`: a rectangle's pixels, and a one-line error for any
/// rectangle not inside the image.
struct CropTests {
  @Test func aCropHoldsTheRectanglesPixels() throws {
    var g = SeededGenerator(seed: 7)
    let image = try RGBA8Image(width: 13, height: 9, pixels: (0..<(13 * 9 * 4)).map { _ in UInt8(g.int(0...255)) })
    for (x, y, w, h) in [(0, 0, 13, 9), (3, 2, 5, 4), (12, 8, 1, 1), (0, 4, 13, 1)] {
      let c = try image.cropped(x: x, y: y, width: w, height: h)
      #expect(c.width == w && c.height == h)
      for cy in 0..<h { for cx in 0..<w { #expect(c[cx, cy] == image[x + cx, y + cy]) } }
    }
  }

  @Test func aRectangleOutsideTheImageIsRefused() throws {
    let image = try RGBA8Image(width: 8, height: 6, fill: RGBA(1, 2, 3))
    for (x, y, w, h) in [(-1, 0, 4, 4), (0, 0, 9, 6), (5, 3, 4, 3), (0, 0, 0, 3), (2, 2, 3, -1)] {
      #expect(throws: ImageError.self) { try image.cropped(x: x, y: y, width: w, height: h) }
    }
  }
}
