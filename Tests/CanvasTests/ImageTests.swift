import Testing

@testable import Canvas

@Suite("RGBA8Image, Color, versions")
struct ImageTests {
  @Test("init validates sizes and pixel count")
  func validation() throws {
    #expect(throws: CanvasError.dimensionOutOfRange(dimension: "width", value: 0, maxSide: 16384)) {
      try RGBA8Image(width: 0, height: 1, pixels: [])
    }
    #expect(throws: CanvasError.dimensionOutOfRange(dimension: "height", value: 20000, maxSide: 16384)) {
      try RGBA8Image(width: 1, height: 20000, fill: RGBA(0, 0, 0))
    }
    #expect(throws: CanvasError.pixelCountMismatch(width: 2, height: 2, count: 15)) {
      try RGBA8Image(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15))
    }
    #expect(CanvasError.dimensionOutOfRange(dimension: "width", value: 0, maxSide: 16384).description
      == "image width 0 is out of range: expected 1...16384")
  }

  @Test("subscript reads and writes one pixel, row-major")
  func subscriptAccess() throws {
    var image = try RGBA8Image(width: 3, height: 2, fill: RGBA(1, 2, 3))
    image[2, 1] = RGBA(10, 20, 30, 40)
    #expect(image[2, 1] == RGBA(10, 20, 30, 40))
    #expect(Array(image.pixels[20..<24]) == [10, 20, 30, 40])
    #expect(image[0, 0] == RGBA(1, 2, 3, 255))
  }

  @Test("Color(hex:) splits channels")
  func hexColor() {
    #expect(Color(hex: 0xFF8000, alpha: 0.5) == Color(r: 1, g: 128.0 / 255, b: 0, a: 0.5))
  }

  @Test("library versions are reported")
  func versions() {
    #expect(CanvasVersions.cairo.hasPrefix("1."))
    #expect(CanvasVersions.libpng.hasPrefix("1.6"))
    #expect(CanvasVersions.pixman?.hasPrefix("0.") == true)
  }
}
