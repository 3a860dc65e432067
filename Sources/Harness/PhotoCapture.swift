import Core
import Imaging
import Pipelines
import Synth

/// How a scenario's rendered (upright) picture reaches the app as a phone
/// would save it: the sensor's buffer turned by the inverse of an EXIF
/// orientation, encoded as PNG or JPEG with that tag, then read back through
/// the same readers a user's photo goes through.
///
/// Shape (YAML): `photo: {format: jpeg, quality: 92, exif_orientation: 6}`.
struct PhotoSpec: Sendable, Decodable {
  var format: ImageFormat = .png
  var quality: Int = 92
  var exifOrientation: Orientation = .up

  enum CodingKeys: String, CodingKey, CaseIterable { case format, quality, exifOrientation = "exif_orientation" }

  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let name = try c.decodeIfPresent(String.self, forKey: .format) ?? "png"
    guard let f = ImageFormat(rawValue: name), f != .heic else {
      throw DecodingError.dataCorruptedError(forKey: .format, in: c, debugDescription: "photo format '\(name)' is unknown: expected png or jpeg")
    }
    format = f
    quality = try c.decodeIfPresent(Int.self, forKey: .quality) ?? 92
    guard (1...100).contains(quality) else {
      throw DecodingError.dataCorruptedError(forKey: .quality, in: c, debugDescription: "photo quality \(quality) is out of range: expected 1...100")
    }
    let tag = try c.decodeIfPresent(Int.self, forKey: .exifOrientation) ?? 1
    guard let o = Orientation(rawValue: tag) else {
      throw DecodingError.dataCorruptedError(forKey: .exifOrientation, in: c, debugDescription: "exif_orientation \(tag) is out of range: expected 1...8")
    }
    exifOrientation = o
  }

  /// The photo's file bytes for the rendered picture `upright`.
  func encode(_ upright: RGBA8Image) throws(ImageError) -> [UInt8] {
    let stored = exifOrientation.stored(upright)
    return format == .jpeg ? try JPEG.encode(stored, quality: quality, orientation: exifOrientation)
      : try PNG.encode(stored, orientation: exifOrientation)
  }

  /// What the app sees under `semantics`: the pixels it reads, and the truth
  /// in those pixels' frame (marks are given upright and converted).
  func capture(_ upright: RGBA8Image, truth: GroundTruth, semantics: OrientationSemantics) throws(PipelineError) -> (image: RGBA8Image, truth: GroundTruth, json: JSONValue) {
    let photo: Photo
    do { photo = try ImageFile.decode(try encode(upright)) } catch { throw PipelineError("photo (\(format.rawValue)): \(error)") }
    guard photo.orientation == exifOrientation else {
      throw PipelineError("photo: its orientation tag read back as \(photo.orientation.rawValue), written as \(exifOrientation.rawValue)")
    }
    let image: RGBA8Image
    do { image = try semantics.pixels(of: photo) } catch { throw PipelineError("photo (\(format.rawValue)): \(error)") }
    let inStored = semantics == .ignore && exifOrientation != .up
    let t = inStored ? truth.inFrame(PixelFrame(exifOrientation.storedAffine(width: image.width, height: image.height)),
                                     width: image.width, height: image.height) : truth
    var fields: [String: JSONValue] = [
      "format": .string(format.rawValue), "exif_orientation": .int(exifOrientation.rawValue),
      "orientation": .string(semantics.rawValue), "frame": .string(inStored ? "stored" : "upright"),
      "width": .int(image.width), "height": .int(image.height),
    ]
    if inStored {
      // The trap's cost on screen: the app draws each mark at its stored-frame
      // position over the upright picture the user sees, this far from the arrow.
      fields["marks_off_by_px"] = .array(zip(truth.arrows, t.arrows).map { u, s in
        .double(((s.pixelX - u.pixelX) * (s.pixelX - u.pixelX) + (s.pixelY - u.pixelY) * (s.pixelY - u.pixelY)).squareRoot())
      })
    }
    let json: JSONValue = .object(fields)
    return (image, t, json)
  }
}
