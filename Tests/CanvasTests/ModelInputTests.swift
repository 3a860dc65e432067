import Core
import Testing
import TestSupport

@testable import Imaging

/// The one resize and the model inputs built on it.
struct ModelInputTests {
  @Test(arguments: [(37, 53, 224, 224, 3), (300, 170, 224, 224, 4), (5, 3, 11, 7, 3), (224, 224, 224, 224, 4), (9, 1, 4, 4, 4)])
  func bilinearMatchesNaive(w: Int, h: Int, ow: Int, oh: Int, channels: Int) {
    var g = SeededGenerator(seed: UInt64(w * 1000 + h))
    let src = (0..<(w * h * channels)).map { _ in UInt8(g.int(0...255)) }
    let side = max(ow, oh)
    var fast = [Float](repeating: 0, count: 3 * side * side)
    resizeBilinear(src, width: w, height: h, channels: channels, outWidth: ow, outHeight: oh,
                   into: &fast, target: PlanarTarget(side: side), rounding: .none, divisor: 1)
    let ref = resizeBilinearNaive(src, width: w, height: h, channels: channels, outWidth: ow, outHeight: oh)
    var worst = 0.0
    for c in 0..<3 {
      for y in 0..<oh {
        for x in 0..<ow {
          let a = Double(fast[c * side * side + y * side + x]), b = ref[c * ow * oh + y * ow + x]
          worst = max(worst, abs(a - b))
        }
      }
    }
    #expect(Tolerance.float32Sum.accepts(worst, 0), "max |Δ| \(worst)")
    if w == ow && h == oh {
      for i in 0..<(w * h) { #expect(fast[i] == Float(src[i * channels])) }
    }
  }

  @Test func roundingToBytesGivesLevels() throws {
    let src: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 255, 1, 1, 1, 255, 2, 2, 2, 255]
    var out = [Float](repeating: -1, count: 3 * 9)
    resizeBilinear(src, width: 2, height: 2, channels: 4, outWidth: 3, outHeight: 3,
                   into: &out, target: PlanarTarget(side: 3), rounding: .toByte, divisor: 1)
    #expect(out.allSatisfy { $0 == $0.rounded() && (0...255).contains($0) })
  }

  @Test func letterboxGeometryFollowsUltralytics() throws {
    let image = try RGBA8Image(width: 50, height: 30, fill: RGBA(200, 200, 200))
    let (t, g) = try ModelInput.letterbox(image, side: 64)
    #expect(t.count == 3 * 64 * 64)
    // r = min(64/30, 64/50) = 1.28 → 64×38, dh = 13 → top round(12.9) = 13.
    #expect(g.resizedWidth == 64 && g.resizedHeight == 38)
    #expect(g.left == 0 && g.top == 13)
    #expect(t[0] == Float(114) / 255)
    #expect(t[13 * 64] == Float(200) / 255)
    #expect(t[51 * 64] == Float(114) / 255)
    #expect(try ModelInput.letterbox(image, side: 64).planes == t)
  }

  @Test func stretchAndBadSides() throws {
    let white = try RGBA8Image(width: 4, height: 4, fill: RGBA(255, 255, 255))
    let t = try ModelInput.stretch(white, side: 8)
    #expect(t.count == 3 * 8 * 8 && t.allSatisfy { $0 == 1 })
    for side in [0, -3, ModelInput.maxSide + 1] {
      #expect(throws: ImageError.self) { _ = try ModelInput.stretch(white, side: side) }
      #expect(throws: ImageError.self) { _ = try ModelInput.letterbox(white, side: side) }
    }
  }

  /// An extreme aspect ratio still draws at least one column.
  @Test func thinImagesKeepOneColumn() throws {
    let image = try RGBA8Image(width: 1, height: 5000, fill: RGBA(0, 0, 0))
    let (t, g) = try ModelInput.letterbox(image, side: 64)
    #expect(g.resizedWidth == 1 && g.resizedHeight == 64)
    #expect(t[g.left] == 0)
  }
}
