import CTurboJPEG

extension JPEG {
  /// Encodes `image` as a baseline 4:2:0 JPEG at `quality` (1...100) with the
  /// accurate integer DCT (the same bytes on every machine with the same
  /// libjpeg-turbo), tagged with `orientation` in an EXIF APP1 segment unless it is `.up`.
  public static func encode(_ image: RGBA8Image, quality: Int, orientation: Orientation = .up) throws(ImageError) -> [UInt8] {
    guard (1...100).contains(quality) else { throw .parameterOutOfRange(name: "JPEG quality", value: "\(quality)", expected: "1...100") }
    guard image.pixels.count == image.width * image.height * 4 else {
      throw .pixelCountMismatch(width: image.width, height: image.height, count: image.pixels.count)
    }
    guard let handle = tjInitCompress() else { throw .jpegMalformed(detail: "the JPEG encoder could not start") }
    defer { tjDestroy(handle) }
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size: UInt = 0
    let status = image.pixels.withUnsafeBufferPointer { p in
      tjCompress2(handle, p.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                  &out, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_ACCURATEDCT)
    }
    defer { if let out { tjFree(out) } }
    guard status == 0, let out else {
      throw .jpegMalformed(detail: "encoding: " + (tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"))
    }
    let bytes = Array(UnsafeBufferPointer(start: out, count: Int(size)))
    return orientation == .up ? bytes : Exif.tagged(jpeg: bytes, orientation: orientation)
  }
}

extension PNG {
  /// `encode(_:)` with an `eXIf` chunk carrying `orientation` (none for `.up`).
  public static func encode(_ image: RGBA8Image, orientation: Orientation) throws(ImageError) -> [UInt8] {
    let bytes = try encode(image)
    return orientation == .up ? bytes : Exif.tagged(png: bytes, orientation: orientation)
  }
}
