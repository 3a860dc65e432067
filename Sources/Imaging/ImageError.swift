/// Every failure of images: sizes, PNG coding, file I/O, and the cairo status
/// codes `Canvas` maps here (`Canvas.CanvasError` is this type), so one error
/// type serves reading, drawing and writing.
/// `description` is one sentence naming the offending value and what was expected.
public enum ImageError: Error, Equatable, CustomStringConvertible {
  /// A width or height outside `1...maxSide`; `dimension` is "width" or "height".
  case dimensionOutOfRange(dimension: String, value: Int, maxSide: Int)
  /// Both sides fit but their product exceeds `maxPixels`.
  case tooManyPixels(width: Int, height: Int, maxPixels: Int)
  /// A pixel buffer whose byte count is not `width * height * 4`.
  case pixelCountMismatch(width: Int, height: Int, count: Int)
  /// The data does not start with the 8-byte PNG signature.
  case pngBadSignature(detail: String)
  /// The PNG data ended early (includes empty input).
  case pngTruncated(detail: String)
  /// A PNG chunk's CRC did not match its contents.
  case pngChecksumMismatch(detail: String)
  /// Any other malformed PNG (bad header fields, bad zlib stream, ...).
  case pngMalformed(detail: String)
  /// The JPEG data ended early.
  case jpegTruncated(detail: String)
  /// Any other malformed JPEG.
  case jpegMalformed(detail: String)
  /// The HEIF data ended early.
  case heifTruncated(detail: String)
  /// Any other malformed or unsupported HEIF file.
  case heifMalformed(detail: String)
  /// Bytes that are none of PNG, JPEG or HEIC; `found` names what they start with.
  case unknownFormat(found: String)
  /// libpng failed while encoding.
  case pngEncodeFailed(detail: String)
  /// A file could not be read.
  case cannotRead(path: String, reason: String)
  /// A file could not be written; nothing was left at `path`.
  case cannotWrite(path: String, reason: String)
  /// A model-input parameter (input side, window centre or side) outside what it can be.
  case parameterOutOfRange(name: String, value: String, expected: String)
  /// A cairo call left a non-success status; `code` is the raw `cairo_status_t` value.
  case cairo(operation: String, code: Int, message: String)

  /// One sentence: what value was wrong and what was expected.
  public var description: String {
    switch self {
    case .dimensionOutOfRange(let dimension, let value, let maxSide):
      return "image \(dimension) \(value) is out of range: expected 1...\(maxSide)"
    case .tooManyPixels(let width, let height, let maxPixels):
      return "image \(width)x\(height) has \(width * height) pixels: expected at most \(maxPixels)"
    case .pixelCountMismatch(let width, let height, let count):
      return "pixel buffer has \(count) bytes: expected \(width)x\(height)x4 = \(width * height * 4)"
    case .pngBadSignature(let detail):
      return "PNG data has a bad signature: \(detail)"
    case .pngTruncated(let detail):
      return "PNG data is truncated: \(detail)"
    case .pngChecksumMismatch(let detail):
      return "PNG data has a CRC mismatch: \(detail)"
    case .pngMalformed(let detail):
      return "PNG data is malformed: \(detail)"
    case .jpegTruncated(let detail):
      return "JPEG data is truncated: \(detail)"
    case .jpegMalformed(let detail):
      return "JPEG data is malformed: \(detail)"
    case .heifTruncated(let detail):
      return "HEIC data is truncated: \(detail)"
    case .heifMalformed(let detail):
      return "HEIC data is malformed: \(detail)"
    case .unknownFormat(let found):
      return "the data is not an image this reads: found \(found), expected PNG, JPEG or HEIC"
    case .pngEncodeFailed(let detail):
      return "PNG encoding failed: \(detail)"
    case .cannotRead(let path, let reason):
      return "cannot read '\(path)': \(reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)': \(reason)"
    case .parameterOutOfRange(let name, let value, let expected):
      return "\(name) \(value) is out of range: expected \(expected)"
    case .cairo(let operation, let code, let message):
      return "cairo \(operation) failed with status \(code): \(message)"
    }
  }
}
