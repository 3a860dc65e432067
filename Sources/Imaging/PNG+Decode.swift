import CPNG

extension PNG {
  /// Decodes any PNG (bit depth 1–16; gray, gray+alpha, palette with tRNS, RGB, RGBA;
  /// interlaced or not) to 8-bit straight-alpha RGBA. The header is checked against
  /// `limits` before any pixel memory is allocated, so decompression bombs fail fast.
  /// The IHDR's sides checked by our own reading before libpng sees them (its
  /// own refusal of sides past 2^31 − 1 would not name the limit), and a file
  /// too short to hold them refused as truncated: deflate packs at most about
  /// 1032:1, so even a 1-bit image needs height · (1 + ⌈width / 8⌉) / 1032
  /// bytes (a 74-byte file claiming 16384² would otherwise cost a gigabyte).
  static func precheck(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) {
    guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return }
    func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    let width = be32(16), height = be32(20)
    try limits.validate(width: width, height: height)
    let least = height * (1 + (width + 7) / 8) / 1032
    guard bytes.count >= least else {
      throw .pngTruncated(detail: "\(bytes.count) bytes cannot hold a \(width)x\(height) image: expected at least \(least)")
    }
  }

  public static func decode(
    _ bytes: [UInt8], limits: ImageLimits = .default
  ) throws(ImageError) -> RGBA8Image {
    try precheck(bytes, limits: limits)
    var error = cpng_error()
    var header = cpng_header()
    let headerStatus = bytes.withUnsafeBufferPointer { buffer in
      cpng_read_header(buffer.baseAddress, buffer.count, &header, &error)
    }
    guard headerStatus == CPNG_OK else { throw Self.error(headerStatus, &error) }

    let width = Int(header.width)
    let height = Int(header.height)
    try limits.validate(width: width, height: height)

    var status = CPNG_OK
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      status = bytes.withUnsafeBufferPointer { input in
        cpng_decode_rgba8(
          input.baseAddress, input.count, header.width, header.height,
          out.baseAddress, out.count, &error)
      }
      if status != CPNG_OK { out.initialize(repeating: 0) }  // keep the buffer defined
      count = out.count
    }
    guard status == CPNG_OK else { throw Self.error(status, &error) }
    return RGBA8Image(unchecked: width, height: height, pixels: pixels)
  }

  /// Reads and decodes the PNG file at `path`.
  public static func read(
    path: String, limits: ImageLimits = .default
  ) throws(ImageError) -> RGBA8Image {
    try decode(FileRead.all(path: path), limits: limits)
  }
}
