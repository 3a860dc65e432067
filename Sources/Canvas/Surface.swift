import CCairo

/// One cairo ARGB32 image surface (premultiplied, native-endian 32-bit pixels),
/// owned by this object and destroyed in `deinit`.
public final class Surface {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  let height: Int
  let pointer: OpaquePointer  // cairo_surface_t *

  /// A fully transparent surface; sizes must fit `ImageLimits.default`.
  public init(width: Int, height: Int) throws(CanvasError) {
    try ImageLimits.default.validate(width: width, height: height)
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { throw .cairo(operation: "image_surface_create", code: -1, message: "returned null") }
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      throw CairoStatus.error(status, operation: "image_surface_create")
    }
    self.width = width
    self.height = height
    self.pointer = surface
  }

  /// A surface holding `image`, premultiplied with exact rounding (`c * a / 255`).
  public convenience init(image: RGBA8Image) throws(CanvasError) {
    try self.init(width: image.width, height: image.height)
    cairo_surface_flush(pointer)
    let stride = Int(cairo_image_surface_get_stride(pointer))
    let base = UnsafeMutableRawPointer(cairo_image_surface_get_data(pointer)!)
    image.pixels.withUnsafeBufferPointer { src in
      for y in 0..<height {
        let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
        var i = y * width * 4
        for x in 0..<width {
          let a = UInt32(src[i + 3])
          let r = Self.premultiply(UInt32(src[i]), a)
          let g = Self.premultiply(UInt32(src[i + 1]), a)
          let b = Self.premultiply(UInt32(src[i + 2]), a)
          row[x] = (a << 24) | (r << 16) | (g << 8) | b
          i += 4
        }
      }
    }
    cairo_surface_mark_dirty(pointer)
  }

  deinit {
    cairo_surface_destroy(pointer)
  }

  /// Flushes pending drawing and returns straight-alpha RGBA. Un-premultiplying uses
  /// `(c * 255 + a / 2) / a` (clamped); fully transparent pixels become (0, 0, 0, 0).
  public func image() -> RGBA8Image {
    cairo_surface_flush(pointer)
    let stride = Int(cairo_image_surface_get_stride(pointer))
    let base = UnsafeRawPointer(cairo_image_surface_get_data(pointer)!)
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      for y in 0..<height {
        let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
        var i = y * width * 4
        for x in 0..<width {
          let p = row[x]
          let a = p >> 24
          out[i] = Self.unpremultiply((p >> 16) & 0xFF, a)
          out[i + 1] = Self.unpremultiply((p >> 8) & 0xFF, a)
          out[i + 2] = Self.unpremultiply(p & 0xFF, a)
          out[i + 3] = UInt8(a)
          i += 4
        }
      }
      count = out.count
    }
    return RGBA8Image(unchecked: width, height: height, pixels: pixels)
  }

  /// Throws if cairo put the surface into an error state.
  func check() throws(CanvasError) {
    let status = cairo_surface_status(pointer)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw CairoStatus.error(status, operation: "surface")
    }
  }

  /// round(c * a / 255) without division.
  @inline(__always)
  static func premultiply(_ c: UInt32, _ a: UInt32) -> UInt32 {
    let t = c * a + 128
    return (t + (t >> 8)) >> 8
  }

  @inline(__always)
  static func unpremultiply(_ c: UInt32, _ a: UInt32) -> UInt8 {
    if a == 0 { return 0 }
    return UInt8(min(255, (c * 255 + a / 2) / a))
  }
}

/// Turns `cairo_status_t` into `CanvasError.cairo`.
enum CairoStatus {
  static func error(_ status: cairo_status_t, operation: String) -> CanvasError {
    .cairo(
      operation: operation, code: Int(status.rawValue),
      message: String(cString: cairo_status_to_string(status)))
  }
}
