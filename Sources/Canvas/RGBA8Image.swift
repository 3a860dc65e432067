/// Size limits for images; checked before any pixel memory is allocated.
public struct ImageLimits: Sendable, Hashable {
  /// Largest allowed width or height.
  public var maxSide: Int
  /// Largest allowed `width * height`.
  public var maxPixels: Int

  /// 16384 per side, 16384² pixels in total.
  public static let `default` = ImageLimits(maxSide: 16384, maxPixels: 16384 * 16384)

  /// Explicit limits; both should be positive.
  public init(maxSide: Int, maxPixels: Int) {
    self.maxSide = maxSide
    self.maxPixels = maxPixels
  }

  /// Throws unless `1...maxSide` holds for both sides and the area fits `maxPixels`.
  public func validate(width: Int, height: Int) throws(CanvasError) {
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
  public init(width: Int, height: Int, pixels: [UInt8]) throws(CanvasError) {
    try ImageLimits.default.validate(width: width, height: height)
    guard pixels.count == width * height * 4 else {
      throw .pixelCountMismatch(width: width, height: height, count: pixels.count)
    }
    self.init(unchecked: width, height: height, pixels: pixels)
  }

  /// A uniformly filled image; throws on sizes outside `ImageLimits.default`.
  public init(width: Int, height: Int, fill: RGBA) throws(CanvasError) {
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
  init(unchecked width: Int, height: Int, pixels: [UInt8]) {
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
