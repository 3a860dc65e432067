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
  /// A HEIC file's bytes, kept so `coded()` can decode it again without its
  /// container's rotation and mirror (nil for other formats).
  let heic: [UInt8]?
  /// The limits the file was read under.
  let limits: ImageLimits
  /// What was read in a way the user may not expect (an EXIF orientation outside
  /// 1...8), one line each, for the caller to show as warnings.
  public let notes: [String]

  init(stored: RGBA8Image, orientation: Orientation, format: ImageFormat, heic: [UInt8]? = nil, limits: ImageLimits = .default,
       notes: [String] = []) {
    self.stored = stored; self.orientation = orientation; self.format = format; self.heic = heic; self.limits = limits
    self.notes = notes
  }

  /// The pixels as the file codes them, before any turn: for HEIC the coded
  /// image without its container's `irot`/`imir` (decoded again, only when
  /// asked: seed 000's trap hands these to the detector), otherwise `stored`.
  public func coded() throws(ImageError) -> RGBA8Image { try codedTurn().image }

  /// `coded()` and the orientation that turns it upright: the EXIF tag's for
  /// JPEG and PNG. For HEIC, libheif 1.15 neither reports `irot`/`imir` nor
  /// applies the clean-aperture crop (`clap`) without them, so the coded image
  /// is decoded raw and matched against the displayed one: each of the eight
  /// orientations, the crop at the origin or centred, the best kept. The two
  /// decodes differ by chroma rounding (the turn happens before the colour
  /// conversion), so the match is close, not exact. Marks given upright are
  /// taken into the coded frame with the orientation found.
  public func codedTurn() throws(ImageError) -> (image: RGBA8Image, orientation: Orientation) {
    guard format == .heic, let heic else { return (stored, orientation) }
    let raw = try HEIF.decode(heic, limits: limits, transformations: false)
    var best: (image: RGBA8Image, o: Orientation, d: Double)?
    for o in Orientation.allCases {
      let w = o.swapsSides ? stored.height : stored.width, h = o.swapsSides ? stored.width : stored.height
      guard raw.width >= w, raw.height >= h else { continue }
      for (x, y) in Set([[0, 0], [(raw.width - w) / 2, (raw.height - h) / 2]]).sorted(by: { $0.lexicographicallyPrecedes($1) }).map({ ($0[0], $0[1]) }) {
        let cut = raw.width == w && raw.height == h ? raw : try raw.cropped(x: x, y: y, width: w, height: h)
        let d = Self.meanDifference(stored, cut, o)
        if best == nil || d < best!.d { best = (cut, o, d) }
      }
    }
    guard let best, best.d <= Self.turnTolerance else {
      throw .heifMalformed(detail: "the coded image is no turn or mirror of the displayed one")
    }
    return (best.image, best.o)
  }

  /// Mean absolute level difference a coded image turned by the right orientation keeps.
  static let turnTolerance = 6.0

  /// Mean absolute RGB difference between `upright` and `raw` read through `o`,
  /// over a grid of at most about 64×64 points (enough to tell the eight apart).
  static func meanDifference(_ upright: RGBA8Image, _ raw: RGBA8Image, _ o: Orientation) -> Double {
    let stepX = max(1, upright.width / 64), stepY = max(1, upright.height / 64)
    var sum = 0, n = 0
    for y in stride(from: 0, to: upright.height, by: stepY) {
      for x in stride(from: 0, to: upright.width, by: stepX) {
        let p = o.storedPixel(uprightX: x, y: y, width: raw.width, height: raw.height)
        let a = (y * upright.width + x) * 4, b = (p.y * raw.width + p.x) * 4
        for c in 0..<3 { sum += abs(Int(upright.pixels[a + c]) - Int(raw.pixels[b + c])) }
        n += 3
      }
    }
    return Double(sum) / Double(max(1, n))
  }

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
      let (o, note) = Exif.resolve(Exif.orientation(png: bytes))
      return Photo(stored: try PNG.decode(bytes, limits: limits), orientation: o, format: .png, notes: note.map { [$0] } ?? [])
    case .jpeg:
      let (o, note) = Exif.resolve(Exif.orientation(jpeg: bytes))
      return Photo(stored: try JPEG.decode(bytes, limits: limits), orientation: o, format: .jpeg, notes: note.map { [$0] } ?? [])
    case .heic:
      return Photo(stored: try HEIF.decode(bytes, limits: limits), orientation: .up, format: .heic, heic: bytes, limits: limits)
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
