import CPNG

/// PNG coding for `RGBA8Image`, backed by libpng through the CPNG shim.
/// Decoding accepts every standard PNG format; encoding always writes 8-bit RGBA
/// with fixed settings so equal pixels give byte-identical files.
public enum PNG {
  /// Maps a failed shim status and its message to the matching `ImageError`.
  static func error(_ status: cpng_status, _ error: inout cpng_error) -> ImageError {
    let message = message(&error)
    switch status {
    case CPNG_BAD_SIGNATURE: return .pngBadSignature(detail: message)
    case CPNG_TRUNCATED: return .pngTruncated(detail: message)
    case CPNG_CRC: return .pngChecksumMismatch(detail: message)
    default: return .pngMalformed(detail: message)
    }
  }

  /// The shim's NUL-terminated message buffer as a Swift string.
  static func message(_ error: inout cpng_error) -> String {
    withUnsafeBytes(of: &error.message) { raw in
      String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
  }
}
