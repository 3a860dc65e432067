/// How a run treats a photo's orientation tag: `apply` turns the stored pixels
/// upright first (what a person sees); `ignore` hands the stored buffer on as
/// is — seed 000's trap, where `UIImage.cgImage` goes to Vision without its
/// orientation and every position lands in the sensor's frame.
public enum OrientationSemantics: String, Sendable, Hashable, CaseIterable, Decodable {
  case apply, ignore

  /// The pixels a run under this semantics reads from `photo`; `threads` share the turn.
  /// `ignore` is the coded image as stored: a JPEG's or PNG's pixels without their
  /// EXIF turn, a HEIC's without its container's rotation and mirror.
  public func pixels(of photo: Photo, threads: Int = 1) throws(ImageError) -> RGBA8Image {
    self == .apply ? photo.upright(threads: threads) : try photo.coded()
  }
}

extension Orientation {
  /// The buffer a camera stores for `upright` when it tags it with this
  /// orientation: the inverse of `upright(_:)`, so `upright(stored(p)) == p`.
  public func stored(_ upright: RGBA8Image) -> RGBA8Image {
    guard self != .up else { return upright }
    return remap(upright, uprightWidth: upright.width, uprightHeight: upright.height, toStored: true)
  }

  /// `storedPoint` as an affine map `[a, b, c, d, e, f]`: upright (x, y) →
  /// stored (a·x + b·y + c, d·x + e·y + f), for a stored `width`×`height`.
  public func storedAffine(width w: Int, height h: Int) -> [Double] {
    let o = storedPoint(uprightX: 0, y: 0, width: w, height: h)
    let px = storedPoint(uprightX: 1, y: 0, width: w, height: h), py = storedPoint(uprightX: 0, y: 1, width: w, height: h)
    return [px.x - o.x, py.x - o.x, o.x, px.y - o.y, py.y - o.y, o.y]
  }
}

extension Exif {
  /// A minimal big-endian TIFF block holding only IFD0's orientation tag:
  /// what JPEG's APP1 (after `Exif\0\0`) and PNG's `eXIf` chunk carry.
  static func tiff(orientation: Orientation) -> [UInt8] {
    let v = UInt8(orientation.rawValue)
    return [0x4D, 0x4D, 0, 42, 0, 0, 0, 8,  // "MM", 42, IFD0 at offset 8
            0, 1,  // one entry
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, v, 0, 0,  // 0x0112 SHORT ×1, value inline
            0, 0, 0, 0]  // no next IFD
  }

  /// `png` with an `eXIf` chunk carrying `orientation` right after IHDR.
  static func tagged(png: [UInt8], orientation: Orientation) -> [UInt8] {
    let body = tiff(orientation: orientation)
    let type = Array("eXIf".utf8)
    let n = UInt32(body.count), crc = CRC32.checksum(type + body)
    let chunk = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + type + body
      + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    let afterIHDR = 8 + 8 + 13 + 4  // signature, IHDR header, its 13 bytes, CRC
    return Array(png[..<afterIHDR]) + chunk + Array(png[afterIHDR...])
  }

  /// `jpeg` with an `Exif` APP1 segment carrying `orientation` right after SOI.
  static func tagged(jpeg: [UInt8], orientation: Orientation) -> [UInt8] {
    let payload = Array("Exif".utf8) + [0, 0] + tiff(orientation: orientation)
    let length = payload.count + 2
    return Array(jpeg[..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
  }
}

/// The CRC-32 (ISO 3309) that PNG chunks end with.
enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// Shape: the checksum of `bytes`, as PNG stores it (big-endian on disk).
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
