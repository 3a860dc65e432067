import CTurboJPEG

/// JPEG decoding through libjpeg-turbo's TurboJPEG API: one decompressor
/// handle per call, its failures mapped to `ImageError`. Warnings (a file that
/// ends early, a corrupt scan) are failures too: a half-decoded photo must not
/// be scored.
public enum JPEG {
  /// Decodes `bytes` (baseline or progressive, any subsampling, gray or colour)
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
