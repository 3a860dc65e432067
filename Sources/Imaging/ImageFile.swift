/// The formats a photo may come in, told apart by their first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  case png, jpeg, heic

  /// The format of `bytes` by content (never by file name); nil when unknown.
  public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    // ISO BMFF: size, "ftyp", a HEIF brand.
    if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
      let brand = String(decoding: bytes[8..<12], as: UTF8.self)
      if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) { return .heic }
    }
    return nil
  }
}

/// A photo as read from a file: its stored pixels and the orientation the
/// file asks for. HEIC's rotation and mirror are applied while decoding (the
/// container's own, never also an EXIF tag), so a HEIC photo reads `.up`.
public struct Photo: Sendable, Hashable {
  /// The pixels as stored.
  public let stored: RGBA8Image
  /// How to turn them upright (EXIF tag 1...8; `.up` when absent).
  public let orientation: Orientation
  /// What the file was.
  public let format: ImageFormat

  /// The picture a person sees: the stored pixels turned by `orientation`.
  public var upright: RGBA8Image { orientation.upright(stored) }

  /// The same, the turn shared by `threads` (the same bytes at any count).
  public func upright(threads: Int) -> RGBA8Image { orientation.upright(stored, threads: threads) }
}

/// Reads photos in any supported format, chosen by content.
public enum ImageFile {
  /// Decodes `bytes`; `limits` are checked before pixels are allocated.
  public static func decode(_ bytes: [UInt8], limits: ImageLimits = .default) throws(ImageError) -> Photo {
    switch ImageFormat.sniff(bytes) {
    case .png:
      return Photo(stored: try PNG.decode(bytes, limits: limits), orientation: Exif.orientation(png: bytes) ?? .up, format: .png)
    case .jpeg:
      return Photo(stored: try JPEG.decode(bytes, limits: limits), orientation: Exif.orientation(jpeg: bytes) ?? .up, format: .jpeg)
    case .heic:
      return Photo(stored: try HEIF.decode(bytes, limits: limits), orientation: .up, format: .heic)
    case nil:
      throw .unknownFormat(found: describe(bytes))
    }
  }

  /// Reads and decodes the file at `path`; errors name the file.
  public static func read(path: String, limits: ImageLimits = .default) throws(ImageError) -> Photo {
    let bytes = try FileRead.all(path: path)
    do { return try decode(bytes, limits: limits) } catch {
      if case .cannotRead = error { throw error }
      throw .cannotRead(path: path, reason: error.description)
    }
  }

  /// What unknown bytes start with, for the error: empty, text, or hex.
  static func describe(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "an empty file" }
    let head = bytes.prefix(8)
    if head.allSatisfy({ (0x20...0x7E).contains($0) }) {
      return "text starting '\(String(decoding: head, as: UTF8.self))'"
    }
    return "bytes " + head.map { b in let s = String(b, radix: 16); return s.count == 1 ? "0" + s : s }.joined(separator: " ")
  }
}
