/// Size limits for images; checked before any pixel memory is allocated.
public struct ImageLimits: Sendable, Hashable {
  /// Largest allowed width or height.
  public var maxSide: Int
  /// Largest allowed `width * height`.
  var maxPixels: Int

  /// 16384 per side, 16384² pixels in total.
  public static let `default` = ImageLimits(maxSide: 16384, maxPixels: 16384 * 16384)

  /// Explicit limits; both should be positive.
  public init(maxSide: Int, maxPixels: Int) {
    self.maxSide = maxSide
    self.maxPixels = maxPixels
  }

  /// Throws unless `1...maxSide` holds for both sides and the area fits `maxPixels`.
  public func validate(width: Int, height: Int) throws(ImageError) {
    guard (1...max(1, maxSide)).contains(width) else {
      throw .dimensionOutOfRange(dimension: "width", value: width, maxSide: maxSide)
    }
    guard (1...max(1, maxSide)).contains(height) else {
      throw .dimensionOutOfRange(dimension: "height", value: height, maxSide: maxSide)
    }
    let (area, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, area <= maxPixels else {
      throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
    }
  }
}

/// A CPU-side image: row-major RGBA bytes with straight (not premultiplied) alpha.
/// This is the exchange format between PNG files and cairo surfaces.
public struct RGBA8Image: Sendable, Hashable {
  /// Columns, 1...maxSide.
  public let width: Int
  /// Rows, 1...maxSide.
  public let height: Int
  /// `width * height * 4` bytes, row-major, R G B A per pixel.
  public var pixels: [UInt8]

  /// Wraps existing bytes; throws on sizes outside `ImageLimits.default` or a wrong count.
  public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
    try ImageLimits.default.validate(width: width, height: height)
    guard pixels.count == width * height * 4 else {
      throw .pixelCountMismatch(width: width, height: height, count: pixels.count)
    }
    self.init(unchecked: width, height: height, pixels: pixels)
  }

  /// A uniformly filled image; throws on sizes outside `ImageLimits.default`.
  public init(width: Int, height: Int, fill: RGBA) throws(ImageError) {
    try ImageLimits.default.validate(width: width, height: height)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    bytes.withUnsafeMutableBufferPointer { buffer in
      var i = 0
      while i < buffer.count {
        buffer[i] = fill.r
        buffer[i + 1] = fill.g
        buffer[i + 2] = fill.b
        buffer[i + 3] = fill.a
        i += 4
      }
    }
    self.init(unchecked: width, height: height, pixels: bytes)
  }

  /// For callers that already validated sizes against their own limits.
  package init(unchecked width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The pixel at column `x`, row `y`; traps when out of bounds, like an array index.
  public subscript(x: Int, y: Int) -> RGBA {
    get {
      let i = offset(x, y)
      return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
    set {
      let i = offset(x, y)
      pixels[i] = newValue.r
      pixels[i + 1] = newValue.g
      pixels[i + 2] = newValue.b
      pixels[i + 3] = newValue.a
    }
  }

  private func offset(_ x: Int, _ y: Int) -> Int {
    precondition(x >= 0 && x < width && y >= 0 && y < height,
                 "pixel (\(x), \(y)) is outside \(width)x\(height)")
    return (y * width + x) * 4
  }
}

/// An 8-bit straight-alpha pixel, the unit of `RGBA8Image`.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
  /// Red, 0...255.
  public var r: UInt8
  /// Green, 0...255.
  public var g: UInt8
  /// Blue, 0...255.
  public var b: UInt8
  /// Alpha (straight, not premultiplied), 0 transparent ... 255 opaque.
  public var a: UInt8

  /// Channels in 0...255; alpha defaults to opaque.
  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// `RGBA(r, g, b, a)`, for readable test failures.
  public var description: String { "RGBA(\(r), \(g), \(b), \(a))" }
}
