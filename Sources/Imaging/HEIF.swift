import CHeif

/// HEIC (and other HEIF) decoding through libheif: the primary image, decoded
/// to RGBA with the container's own rotation and mirror (`irot`, `imir`)
/// applied, so the pixels come out upright as the phone showed them.
public enum HEIF {
  /// Decodes `bytes`; the primary image's size is checked against `limits`
  /// before anything is decoded.
  /// With `transformations` false the coded image comes out as stored, its
  /// rotation and mirror not applied (what `--orientation ignore` hands over).
  public static func decode(_ bytes: [UInt8], limits: ImageLimits = .default, transformations: Bool = true) throws(ImageError) -> RGBA8Image {
    let context = try Context()
    let read = bytes.withUnsafeBufferPointer { b in heif_context_read_from_memory(context.pointer, b.baseAddress, b.count, nil) }
    // libheif refuses sides past its own bound (32768) while reading the container; named here as the shared limit.
    if read.code != heif_error_Ok, read.subcode == heif_suberror_Security_limit_exceeded {
      throw .heifMalformed(detail: "its image is larger than this reads: expected each side 1...\(limits.maxSide)")
    }
    try check(read)
    var handlePointer: OpaquePointer?
    try check(heif_context_get_primary_image_handle(context.pointer, &handlePointer))
    guard let handlePointer else { throw .heifMalformed(detail: "no primary image") }
    let handle = Handle(handlePointer)
    try limits.validate(width: Int(heif_image_handle_get_width(handle.pointer)), height: Int(heif_image_handle_get_height(handle.pointer)))
    var imagePointer: OpaquePointer?
    guard let options = heif_decoding_options_alloc() else { throw .heifMalformed(detail: "the HEIF decoder could not start") }
    defer { heif_decoding_options_free(options) }
    options.pointee.ignore_transformations = transformations ? 0 : 1
    try check(heif_decode_image(handle.pointer, &imagePointer, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options))
    guard let imagePointer else { throw .heifMalformed(detail: "the decoder returned no image") }
    let image = Image(imagePointer)
    let w = Int(heif_image_get_width(image.pointer, heif_channel_interleaved))
    let h = Int(heif_image_get_height(image.pointer, heif_channel_interleaved))
    try limits.validate(width: w, height: h)
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane_readonly(image.pointer, heif_channel_interleaved, &stride), Int(stride) >= w * 4 else {
      throw .heifMalformed(detail: "the decoded image has no interleaved RGBA plane")
    }
    var pixels = [UInt8](repeating: 0, count: w * h * 4)
    pixels.withUnsafeMutableBufferPointer { out in
      for y in 0..<h {
        (out.baseAddress! + y * w * 4).update(from: plane + y * Int(stride), count: w * 4)
      }
    }
    return RGBA8Image(unchecked: w, height: h, pixels: pixels)
  }

  /// A libheif status as an `ImageError` (nothing on success).
  static func check(_ e: heif_error) throws(ImageError) {
    guard e.code != heif_error_Ok else { return }
    let text = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
    if e.code == heif_error_Invalid_input, e.subcode == heif_suberror_End_of_data {
      throw .heifTruncated(detail: text)
    }
    throw .heifMalformed(detail: text)
  }

  /// One `heif_context`, freed with the value.
  final class Context {
    let pointer: OpaquePointer
    init() throws(ImageError) {
      guard let p = heif_context_alloc() else { throw .heifMalformed(detail: "the HEIF decoder could not start") }
      pointer = p
    }
    deinit { heif_context_free(pointer) }
  }

  /// One `heif_image_handle`, released with the value.
  final class Handle {
    let pointer: OpaquePointer
    init(_ p: OpaquePointer) { pointer = p }
    deinit { heif_image_handle_release(pointer) }
  }

  /// One decoded `heif_image`, released with the value.
  final class Image {
    let pointer: OpaquePointer
    init(_ p: OpaquePointer) { pointer = p }
    deinit { heif_image_release(pointer) }
  }
}
