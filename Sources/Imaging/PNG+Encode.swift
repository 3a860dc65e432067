import Core
import CPNG

extension PNG {
  /// Encodes as 8-bit RGBA, non-interlaced, with no tIME/tEXt/zTXt/iTXt/pHYs chunks and
  /// fixed zlib level and filter: the same pixels always give the same bytes.
  public static func encode(_ image: RGBA8Image) throws(ImageError) -> [UInt8] {
    guard image.pixels.count == image.width * image.height * 4 else {
      throw .pixelCountMismatch(
        width: image.width, height: image.height, count: image.pixels.count)
    }
    var error = cpng_error()
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size = 0
    let status = image.pixels.withUnsafeBufferPointer { buffer in
      cpng_encode_rgba8(
        buffer.baseAddress, UInt32(image.width), UInt32(image.height), &out, &size, &error)
    }
    defer { cpng_free(out) }
    guard status == CPNG_OK, let out else {
      throw .pngEncodeFailed(detail: Self.message(&error))
    }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }

  /// Encodes and writes atomically: a temporary file in the same directory is written,
  /// fsynced and renamed over `path`, so `path` never holds a partial PNG.
  public static func write(_ image: RGBA8Image, to path: String) throws(ImageError) {
    let bytes = try encode(image)
    do { try AtomicFile.write(bytes, to: path) } catch {
      if case .io(_, let reason) = error { throw .cannotWrite(path: path, reason: reason) }
      throw .cannotWrite(path: path, reason: error.description)
    }
  }
}
