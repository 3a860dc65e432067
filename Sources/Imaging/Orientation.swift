import Dispatch

/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to
/// show the picture upright. Raw value = the tag's value 1...8.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
  /// 1: stored upright.
  case up = 1
  /// 2: mirrored left–right.
  case upMirrored = 2
  /// 3: rotated 180°.
  case down = 3
  /// 4: mirrored top–bottom.
  case downMirrored = 4
  /// 5: transposed (mirror across the main diagonal).
  case leftMirrored = 5
  /// 6: shown after a 90° clockwise turn (a portrait taken with the phone upright).
  case right = 6
  /// 7: transversed (mirror across the other diagonal).
  case rightMirrored = 7
  /// 8: shown after a 90° counter-clockwise turn.
  case left = 8

  /// True when the upright picture swaps width and height.
  public var swapsSides: Bool { rawValue >= 5 }

  /// The stored pixel that lands at upright pixel (`x`, `y`) of an image whose
  /// stored size is `width`×`height`.
  /// (The point mapping at the pixel's centre: one table for both.)
  public func storedPixel(uprightX x: Int, y: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
    let p = storedPoint(uprightX: Double(x) + 0.5, y: Double(y) + 0.5, width: w, height: h)
    return (Int(p.x), Int(p.y))
  }

  /// A point in the upright picture (continuous pixel coordinates, origin at
  /// the top-left corner) in the stored pixels' coordinates.
  public func storedPoint(uprightX x: Double, y: Double, width w: Int, height h: Int) -> (x: Double, y: Double) {
    let W = Double(w), H = Double(h)
    switch self {
    case .up: return (x, y)
    case .upMirrored: return (W - x, y)
    case .down: return (W - x, H - y)
    case .downMirrored: return (x, H - y)
    case .leftMirrored: return (y, x)
    case .right: return (y, H - x)
    case .rightMirrored: return (W - y, H - x)
    case .left: return (W - y, x)
    }
  }

  /// `image` (stored pixels) turned upright; `threads` split the rows (a pure
  /// copy: the same bytes at any count).
  public func upright(_ image: RGBA8Image, threads: Int = 1) -> RGBA8Image {
    guard self != .up else { return image }
    let ow = swapsSides ? image.height : image.width, oh = swapsSides ? image.width : image.height
    return remap(image, uprightWidth: ow, uprightHeight: oh, toStored: false, threads: threads)
  }

  /// Copies every pixel between an upright `uprightWidth`×`uprightHeight`
  /// picture and its stored buffer: into the upright picture from the stored
  /// `image`, or (`toStored`) into the stored buffer from the upright `image`.
  func remap(_ image: RGBA8Image, uprightWidth uw: Int, uprightHeight uh: Int, toStored: Bool, threads: Int = 1) -> RGBA8Image {
    let sw = swapsSides ? uh : uw, sh = swapsSides ? uw : uh
    // storedPixel is affine over whole pixels: the stored index of upright (x, y) is
    // base + x·stepX + y·stepY, so the loop walks it without per-pixel arithmetic.
    func index(_ x: Int, _ y: Int) -> Int { let p = storedPixel(uprightX: x, y: y, width: sw, height: sh); return p.y * sw + p.x }
    let base = index(0, 0), stepX = index(1, 0) - base, stepY = index(0, 1) - base
    // Every output pixel is written exactly once below, so the buffer starts uninitialised.
    let out = [UInt8](unsafeUninitializedCapacity: uw * uh * 4) { buffer, count in
      count = uw * uh * 4
      let dst = UnsafeMutableRawBufferPointer(buffer)
      image.pixels.withUnsafeBytes { src in
        // 64×64 tiles: a quarter turn walks one side by columns, and tiles keep both sides in cache.
        let tile = 64, bands = (uh + tile - 1) / tile
        // Bands of tile rows dealt out in turn: each output pixel is written by exactly one band.
        let parts = uw * uh >= 1 << 20 ? max(1, min(threads, bands)) : 1
        // Disjoint rows of one buffer per part: the pointers cross threads, the writes never overlap.
        let from = SharedBytes(src: src, dst: dst)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
          let src = from.src, dst = from.dst
          for ty in stride(from: part * tile, to: uh, by: parts * tile) {
            for tx in stride(from: 0, to: uw, by: tile) {
              for y in ty..<min(ty + tile, uh) {
                var si = base + y * stepY + tx * stepX, ui = y * uw + tx
                for _ in tx..<min(tx + tile, uw) {
                  let (from, to) = toStored ? (ui, si) : (si, ui)
                  dst.storeBytes(of: src.load(fromByteOffset: from * 4, as: UInt32.self), toByteOffset: to * 4, as: UInt32.self)
                  si += stepX; ui += 1
                }
              }
            }
          }
        }
      }
    }
    return RGBA8Image(unchecked: toStored ? sw : uw, height: toStored ? sh : uh, pixels: out)
  }
}

/// A source and a destination buffer handed to the parts of a parallel copy,
/// each of which writes its own rows only.
private struct SharedBytes: @unchecked Sendable {
  let src: UnsafeRawBufferPointer
  let dst: UnsafeMutableRawBufferPointer
}

/// The orientation tag of an EXIF (TIFF) block, as JPEG's APP1 and PNG's
/// `eXIf` chunk carry it: its raw value, nil when there is none.
enum Exif {
  /// The orientation a raw tag value asks for, and a note when the value is not
  /// 1...8: such a file is read as stored (value 1), as image viewers read it,
  /// and the note says so instead of turning the photo by a guess.
  static func resolve(_ value: Int?) -> (Orientation, note: String?) {
    guard let value else { return (.up, nil) }
    guard let o = Orientation(rawValue: value) else {
      return (.up, "EXIF orientation \(value) is not one of 1...8: read as 1 (the pixels as stored)")
    }
    return (o, nil)
  }

  /// Reads tag 0x0112 from IFD0 of a TIFF structure (`II*\0` or `MM\0*`).
  static func orientation(tiff b: ArraySlice<UInt8>) -> Int? {
    let s = b.startIndex
    guard b.count >= 8 else { return nil }
    let little: Bool
    switch (b[s], b[s + 1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ o: Int) -> Int? {
      guard o >= 0, o + 2 <= b.count else { return nil }
      let a = Int(b[s + o]), c = Int(b[s + o + 1])
      return little ? a | c << 8 : a << 8 | c
    }
    func u32(_ o: Int) -> Int? {
      guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
      return lo | hi << 16
    }
    guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
    for i in 0..<min(count, 512) {
      let entry = ifd + 2 + i * 12
      guard let tag = u16(entry) else { return nil }
      if tag == 0x0112 {
        guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }  // SHORT, value inline
        return value
      }
    }
    return nil
  }

  /// The orientation in a JPEG's first `Exif\0\0` APP1 segment.
  static func orientation(jpeg b: [UInt8]) -> Int? {
    var i = 2  // after SOI
    while i + 4 <= b.count, b[i] == 0xFF {
      let marker = b[i + 1]
      if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
      if marker == 0xDA || marker == 0xD9 { return nil }  // image data starts: no EXIF before it
      let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 2, i + 2 + length <= b.count else { return nil }
      let body = b[(i + 4)..<(i + 2 + length)]
      if marker == 0xE1, body.count > 6, Array(body.prefix(6)) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
        return orientation(tiff: body.dropFirst(6))
      }
      i += 2 + length
    }
    return nil
  }

  /// The orientation in a PNG's `eXIf` chunk.
  static func orientation(png b: [UInt8]) -> Int? {
    var i = 8
    while i + 12 <= b.count {
      let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 0, i + 12 + length <= b.count else { return nil }
      let type = Array(b[(i + 4)..<(i + 8)])
      if type == Array("eXIf".utf8) { return orientation(tiff: b[(i + 8)..<(i + 8 + length)]) }
      if type == Array("IEND".utf8) { return nil }
      i += 12 + length
    }
    return nil
  }
}
