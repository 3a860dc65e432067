import CTurboJPEG

/// JPEG decoding through libjpeg-turbo's TurboJPEG API: one decompressor
/// handle per call, its failures mapped to `ImageError`. Warnings (a file that
/// ends early, a corrupt scan) are failures too: a half-decoded photo must not
/// be scored.
public enum JPEG {
  /// Decodes `bytes` (baseline or progressive, any subsampling, gray, colour or CMYK)
  /// to opaque RGBA; the header is checked against `limits` before pixels are allocated.
  public static func decode(_ bytes: [UInt8], limits: ImageLimits = .default) throws(ImageError) -> RGBA8Image {
    let decoder = try Decompressor()
    var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
    let header = bytes.withUnsafeBufferPointer { b in
      tjDecompressHeader3(decoder.handle, b.baseAddress, UInt(b.count), &width, &height, &subsampling, &colorspace)
    }
    guard header == 0 else { throw decoder.error(header: true) }
    // libjpeg-turbo reports a header cut before its frame (SOF) marker as a 0x0 image.
    guard width > 0, height > 0 else { throw .jpegTruncated(detail: "no frame header (SOF) before the data ends: found \(bytes.count) bytes") }
    try limits.validate(width: Int(width), height: Int(height))
    let w = Int(width), h = Int(height)
    // Huffman coding spends at least one bit on every 8x8 block's DC value, so a file
    // can hold at most 8 · bytes blocks: a frame header claiming 16000² over a few
    // kilobytes would otherwise cost a gigabyte before "truncated" came.
    if isHuffmanCoded(bytes) {
      let blocks = ((w + 7) / 8) * ((h + 7) / 8), least = blocks / 8
      guard bytes.count >= least else {
        throw .jpegTruncated(detail: "\(bytes.count) bytes cannot hold a \(w)x\(h) image: expected at least \(least)")
      }
    }
    if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
      return try decodeCMYK(bytes, decoder, width: width, height: height)
    }
    var status: Int32 = 0
    let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
      status = bytes.withUnsafeBufferPointer { b in
        tjDecompress2(decoder.handle, b.baseAddress, UInt(b.count), out.baseAddress, width, 0, height,
                      Int32(TJPF_RGBA.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
      }
      if status != 0 { out.initialize(repeating: 0) }  // keep the buffer defined
      count = out.count
    }
    guard status == 0 else { throw decoder.error(header: false) }
    return RGBA8Image(unchecked: w, height: h, pixels: pixels)
  }

  /// Whether the frame header before the first scan is a Huffman one (SOF0–3, 5–7);
  /// arithmetic coding (SOF9–15) can spend less than a bit on a block.
  static func isHuffmanCoded(_ b: [UInt8]) -> Bool {
    var at = 2
    while at + 4 <= b.count, b[at] == 0xFF {
      let m = b[at + 1]
      if m == 0xFF { at += 1; continue }  // fill byte
      if m == 0x01 || (0xD0...0xD8).contains(m) { at += 2; continue }
      if (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC { return m < 0xC8 }
      if m == 0xDA { return false }
      at += 2 + (Int(b[at + 2]) << 8 | Int(b[at + 3]))
    }
    return false
  }

  /// A CMYK (or YCCK) JPEG, as print workflows save them: decoded to its
  /// four inks, then to RGB. Files with Adobe's APP14 marker (Photoshop's,
  /// PIL's) store the inks inverted, so a channel is ink × black / 255; others
  /// store them plain, (255 − ink)(255 − black) / 255. No colour profile is applied.
  static func decodeCMYK(_ bytes: [UInt8], _ decoder: Decompressor, width: Int32, height: Int32) throws(ImageError) -> RGBA8Image {
    let w = Int(width), h = Int(height)
    var status: Int32 = 0
    var inks = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
      status = bytes.withUnsafeBufferPointer { b in
        tjDecompress2(decoder.handle, b.baseAddress, UInt(b.count), out.baseAddress, width, 0, height,
                      Int32(TJPF_CMYK.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
      }
      if status != 0 { out.initialize(repeating: 0) }
      count = out.count
    }
    guard status == 0 else { throw decoder.error(header: false) }
    let inverted = hasAdobeMarker(bytes)
    inks.withUnsafeMutableBufferPointer { p in
      for i in stride(from: 0, to: p.count, by: 4) {
        let k = inverted ? Int(p[i + 3]) : 255 - Int(p[i + 3])
        for c in 0..<3 {
          let ink = inverted ? Int(p[i + c]) : 255 - Int(p[i + c])
          p[i + c] = UInt8((ink * k + 127) / 255)
        }
        p[i + 3] = 255
      }
    }
    return RGBA8Image(unchecked: w, height: h, pixels: inks)
  }

  /// Whether an APP14 "Adobe" segment comes before the scan.
  static func hasAdobeMarker(_ b: [UInt8]) -> Bool {
    var i = 2
    while i + 4 <= b.count, b[i] == 0xFF {
      let marker = b[i + 1], length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      if marker == 0xDA || length < 2 { return false }
      if marker == 0xEE, i + 9 <= b.count, Array(b[(i + 4)..<(i + 9)]) == Array("Adobe".utf8) { return true }
      i += 2 + length
    }
    return false
  }

  /// One `tjhandle`, destroyed with the value.
  final class Decompressor {
    let handle: tjhandle

    init() throws(ImageError) {
      guard let h = tjInitDecompress() else { throw .jpegMalformed(detail: "the JPEG decoder could not start") }
      handle = h
    }

    deinit { tjDestroy(handle) }

    /// The handle's last error as an `ImageError`.
    func error(header: Bool) -> ImageError {
      let text = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
      let lower = text.lowercased()
      if lower.contains("premature end") || lower.contains("truncated") || lower.contains("end of file") {
        return .jpegTruncated(detail: text)
      }
      return .jpegMalformed(detail: header ? "header: \(text)" : text)
    }
  }
}
