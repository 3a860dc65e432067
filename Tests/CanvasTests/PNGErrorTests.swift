import Testing

@testable import Canvas

@Suite("PNG errors")
struct PNGErrorTests {
  /// A valid 8x8 RGBA PNG from our own encoder.
  static func validPNG() throws -> [UInt8] {
    var image = try RGBA8Image(width: 8, height: 8, fill: RGBA(1, 2, 3, 4))
    image[5, 5] = RGBA(200, 100, 50, 255)
    return try PNG.encode(image)
  }

  @Test("truncated data throws pngTruncated")
  func truncated() throws {
    let png = try Self.validPNG()
    for cut in [png.count / 2, png.count - 1, 20, 9] {
      #expect {
        try PNG.decode(Array(png.prefix(cut)))
      } throws: { error in
        guard case .pngTruncated = error as? CanvasError else { return false }
        return (error as! CanvasError).description.hasPrefix("PNG data is truncated: ")
      }
    }
  }

  @Test("zero-length data throws pngTruncated")
  func empty() {
    #expect(throws: CanvasError.pngTruncated(
      detail: "got 0 bytes, expected at least the 8-byte signature")) {
      try PNG.decode([])
    }
  }

  @Test("bad signature throws pngBadSignature")
  func badSignature() throws {
    var png = try Self.validPNG()
    png[1] = UInt8(ascii: "J")
    #expect {
      try PNG.decode(png)
    } throws: { error in
      if case .pngBadSignature = error as? CanvasError { return true }
      return false
    }
  }

  @Test("a flipped CRC byte in any chunk throws pngChecksumMismatch")
  func flippedCRC() throws {
    let png = try Self.validPNG()
    // CRC bytes: IHDR's last CRC byte is at 8 + 4 + 4 + 13 + 3 = 32; also the IDAT's and IEND's.
    var crcOffsets: [Int] = []
    var i = 8
    while i + 8 <= png.count {
      let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
      crcOffsets.append(i + 8 + length + 3)
      i += 12 + length
    }
    #expect(crcOffsets.count == 3)
    for offset in crcOffsets {
      var broken = png
      broken[offset] ^= 0x01
      #expect {
        try PNG.decode(broken)
      } throws: { error in
        if case .pngChecksumMismatch = error as? CanvasError { return true }
        return false
      }
    }
  }

  @Test("a 100000x100000 header fails on limits before allocating")
  func decompressionBomb() {
    let png = PNGBuilder(width: 100_000, height: 100_000, colorType: .gray, bitDepth: 1) { _, _ in [0] }
    // Only the header matters: hand-build IHDR + an empty IDAT instead of 10^10 pixels.
    var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    bytes += PNGBuilder.chunk("IHDR", be32(UInt32(png.width)) + be32(UInt32(png.height)) + [1, 0, 0, 0, 0])
    bytes += PNGBuilder.chunk("IDAT", [0x78, 0x01])
    bytes += PNGBuilder.chunk("IEND", [])
    let error = CanvasError.dimensionOutOfRange(dimension: "width", value: 100_000, maxSide: 16384)
    #expect(throws: error) { try PNG.decode(bytes) }
    #expect(error.description == "image width 100000 is out of range: expected 1...16384")
  }

  /// Sides libpng itself refuses (past 2^31 − 1) are named by the shared limit,
  /// and a file far too short for its sides is truncated before any allocation.
  @Test("headers read before libpng: the limit named, impossible sizes truncated")
  func headerPrecheck() {
    func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
      var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
      bytes += PNGBuilder.chunk("IHDR", be32(w) + be32(h) + [8, 6, 0, 0, 0])
      bytes += PNGBuilder.chunk("IDAT", [0x78, 0x01])
      return bytes + PNGBuilder.chunk("IEND", [])
    }
    #expect(throws: CanvasError.dimensionOutOfRange(dimension: "width", value: 4_294_967_295, maxSide: 16384)) {
      try PNG.decode(header(.max, 1))
    }
    #expect {
      try PNG.decode(header(16384, 16384))
    } throws: { error in
      guard case .pngTruncated(let detail) = error as? CanvasError else { return false }
      return detail.contains("16384x16384")
    }
    // Small sides stay libpng's to judge: an honest tiny image still decodes.
    #expect(throws: Never.self) { try PNG.decode(try PNG.encode(try RGBA8Image(width: 300, height: 2, fill: RGBA(1, 2, 3)))) }
  }

  @Test("custom limits: total pixel cap")
  func pixelCap() throws {
    let png = try PNG.encode(try RGBA8Image(width: 40, height: 30, fill: RGBA(0, 0, 0)))
    let limits = ImageLimits(maxSide: 100, maxPixels: 1000)
    #expect(throws: CanvasError.tooManyPixels(width: 40, height: 30, maxPixels: 1000)) {
      try PNG.decode(png, limits: limits)
    }
    #expect(try PNG.decode(png, limits: ImageLimits(maxSide: 40, maxPixels: 1200)).width == 40)
  }

  @Test("corrupt zlib stream throws pngMalformed")
  func corruptStream() {
    var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    bytes += PNGBuilder.chunk("IHDR", be32(4) + be32(4) + [8, 6, 0, 0, 0])
    bytes += PNGBuilder.chunk("IDAT", [0x78, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    bytes += PNGBuilder.chunk("IEND", [])
    #expect {
      try PNG.decode(bytes)
    } throws: { error in
      if case .pngMalformed = error as? CanvasError { return true }
      return false
    }
  }
}
