import Testing

@testable import Canvas

/// Deterministic test pattern: distinct values across x and y.
private func sample(_ x: Int, _ y: Int, _ c: Int, max: Int) -> UInt16 {
  UInt16((x * 7 + y * 13 + c * 29) % (max + 1))
}

@Suite("PNG decode")
struct PNGDecodeTests {
  @Test("16-bit RGBA strips to the high byte")
  func sixteenBit() throws {
    let png = PNGBuilder(width: 5, height: 3, colorType: .rgba, bitDepth: 16) { x, y in
      (0..<4).map { c in UInt16(x * 5000 + y * 300 + c * 11) }
    }.build()
    let image = try PNG.decode(png)
    #expect(image.width == 5 && image.height == 3)
    for y in 0..<3 {
      for x in 0..<5 {
        let v = (0..<4).map { c in UInt8((x * 5000 + y * 300 + c * 11) >> 8) }
        #expect(image[x, y] == RGBA(v[0], v[1], v[2], v[3]))
      }
    }
  }

  @Test("gray at 1, 2, 4, 8 bits expands to opaque RGB", arguments: [1, 2, 4, 8])
  func gray(bitDepth: Int) throws {
    let maxValue = (1 << bitDepth) - 1
    let png = PNGBuilder(width: 11, height: 4, colorType: .gray, bitDepth: bitDepth) { x, y in
      [sample(x, y, 0, max: maxValue)]
    }.build()
    let image = try PNG.decode(png)
    for y in 0..<4 {
      for x in 0..<11 {
        let g = UInt8(Int(sample(x, y, 0, max: maxValue)) * 255 / maxValue)
        #expect(image[x, y] == RGBA(g, g, g, 255))
      }
    }
  }

  @Test("gray+alpha becomes RGBA with the same alpha")
  func grayAlpha() throws {
    let png = PNGBuilder(width: 4, height: 4, colorType: .grayAlpha, bitDepth: 8) { x, y in
      [UInt16(x * 60), UInt16(y * 80)]
    }.build()
    let image = try PNG.decode(png)
    #expect(image[3, 2] == RGBA(180, 180, 180, 160))
    #expect(image[0, 0] == RGBA(0, 0, 0, 0))
  }

  @Test("palette with tRNS maps indices and alpha; entries past tRNS are opaque")
  func paletteWithTransparency() throws {
    let plte: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
    let png = PNGBuilder(
      width: 8, height: 2, colorType: .palette, bitDepth: 2, palette: plte,
      transparency: [0, 128]
    ) { x, y in [UInt16((x + y) % 4)] }.build()
    let image = try PNG.decode(png)
    let expected = [RGBA(255, 0, 0, 0), RGBA(0, 255, 0, 128), RGBA(0, 0, 255), RGBA(10, 20, 30)]
    for y in 0..<2 {
      for x in 0..<8 { #expect(image[x, y] == expected[(x + y) % 4]) }
    }
  }

  @Test("RGB gets opaque alpha")
  func rgb() throws {
    let png = PNGBuilder(width: 3, height: 3, colorType: .rgb, bitDepth: 8) { x, y in
      [UInt16(x * 100), UInt16(y * 100), 7]
    }.build()
    let image = try PNG.decode(png)
    #expect(image[2, 1] == RGBA(200, 100, 7, 255))
  }

  @Test("Adam7 interlaced decodes to the same pixels as non-interlaced")
  func interlaced() throws {
    var builder = PNGBuilder(width: 13, height: 9, colorType: .rgba, bitDepth: 8) { x, y in
      (0..<4).map { c in sample(x, y, c, max: 255) }
    }
    let plainBytes = builder.build()
    let plain = try PNG.decode(plainBytes)
    builder.interlaced = true
    let adam7 = builder.build()
    #expect(adam7[28] == 1 && adam7 != plainBytes)  // IHDR interlace byte really set
    let image = try PNG.decode(adam7)
    #expect(image == plain)
    #expect(image[12, 8] == RGBA(UInt8(sample(12, 8, 0, max: 255)), UInt8(sample(12, 8, 1, max: 255)),
                                  UInt8(sample(12, 8, 2, max: 255)), UInt8(sample(12, 8, 3, max: 255))))
  }
}
