import Detection
import Imaging
import Inference

/// The detector's second, closer look at a face that fills little of the photo
/// (`PlatformProfile.zoom`). At the model's 640 input a face a quarter of a
/// 1280-pixel photo wide is 160 pixels across and its shafts are a pixel
/// wide; the detector learned faces several times that size.
public struct ZoomSettings: Sendable, Hashable {
  /// The region is the face box times this on each side (room for impacts
  /// just off the face and for the shafts that lead to them).
  public var margin: Double
  /// The look is taken only when the region's side is at most this share of
  /// the photo's, so that it is markedly closer than the first look.
  public var maximumShare: Double
  /// What a refiner window is measured in after a closer look.
  public var windows: WindowScale

  /// The pixels a refiner window's side is counted in.
  public enum WindowScale: String, Sendable, Hashable, CaseIterable {
    /// The whole photo's (48 model-input pixels of the first look).
    case photo
    /// The closer look's region (48 of its model-input pixels: fewer photo
    /// pixels, enlarged to the refiner's crop).
    case region
  }

  /// What `best` uses (chosen on the selection photos, seeds 7100000…).
  public static let shipped = ZoomSettings(margin: 1.3, maximumShare: 0.75, windows: .region)

  /// A region `margin` times the face box, looked at when at most `maximumShare` of the photo.
  public init(margin: Double, maximumShare: Double, windows: WindowScale = .region) {
    self.margin = margin
    self.maximumShare = maximumShare
    self.windows = windows
  }
}

/// A rectangle of the photo in whole pixels.
struct PixelRegion: Sendable, Hashable {
  var x: Int, y: Int, width: Int, height: Int
}

extension ArcheryPipeline {
  /// The photo rectangle the closer look reads: the face box times the margin,
  /// in the photo's aspect (so the letterbox pads as on the whole photo), at
  /// least `input` pixels on its long side (the photo is never enlarged: the
  /// detector never saw blown-up pixels), moved inside the photo. Nil when that
  /// would not be closer than `maximumShare` of the photo.
  static func zoomRegion(face: PixelBox, imageWidth: Int, imageHeight: Int, input: Int, settings z: ZoomSettings) -> PixelRegion? {
    let W = Double(imageWidth), H = Double(imageHeight)
    guard face.width > 0, face.height > 0 else { return nil }
    let aspect = W / H
    var w = max(face.width * z.margin, face.height * z.margin * aspect)
    var h = w / aspect
    let long = max(w, h)
    if long < Double(input) {
      w *= Double(input) / long
      h *= Double(input) / long
    }
    guard w <= W * z.maximumShare, h <= H * z.maximumShare else { return nil }
    let wi = min(imageWidth, Int(w.rounded(.up))), hi = min(imageHeight, Int(h.rounded(.up)))
    let x = min(max(Int((face.centerX - w / 2).rounded()), 0), imageWidth - wi)
    let y = min(max(Int((face.centerY - h / 2).rounded()), 0), imageHeight - hi)
    return PixelRegion(x: x, y: y, width: wi, height: hi)
  }

  /// The arrows of the closer look at the face box `face`, in the whole
  /// photo's pixels, and the region it read; nil when the profile takes none or the face already fills
  /// the photo.
  static func closerLook(_ r: RunRequest, face: PixelBox, model: InferenceModel, name: String) throws -> (arrows: [Detection], region: PixelRegion, crop: RGBA8Image)? {
    guard let z = r.profile.zoom,
          let region = zoomRegion(face: face, imageWidth: r.image.width, imageHeight: r.image.height, input: r.profile.inputSize, settings: z)
    else { return nil }
    let crop = try r.image.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
    let near = DetectionStage.run(try run(model, name: name, image: crop, r),
                                  settings: detectionSettings(r, mapping: r.profile.mapping(width: region.width, height: region.height)))
    return (near.arrows.map { shifted($0, by: region, sign: 1) }, region, crop)
  }

  /// The refiner's answer for `arrows` (the photo's pixels). Windows are
  /// measured in the photo's pixels, or, after a closer look under
  /// `windows: .region`, in the region's: the region's crop is refined and the
  /// answers moved back.
  static func refine(_ arrows: [Detection], _ r: RunRequest, refiner: ArrowRefiner, look: (region: PixelRegion, crop: RGBA8Image)?) throws -> [Detection] {
    let fallback = r.profile.gateFallback.map { (gate: $0, confidence: r.profile.confidence) }
    guard r.profile.zoom?.windows == .region, let (region, crop) = look else {
      return try ArrowRefinement.run(arrows, image: r.image, refiner: refiner, threads: r.threads, fallback: fallback)
    }
    return try ArrowRefinement.run(arrows.map { shifted($0, by: region, sign: -1) }, image: crop, refiner: refiner, threads: r.threads,
                                   fallback: fallback)
      .map { shifted($0, by: region, sign: 1) }
  }

  /// `d` moved from the region's pixels into the photo's (`sign` 1) or back (-1).
  static func shifted(_ d: Detection, by region: PixelRegion, sign: Double) -> Detection {
    let dx = sign * Double(region.x), dy = sign * Double(region.y)
    var m = d
    m.box.x += dx; m.box.y += dy
    m.centerX = Float(Double(d.centerX) + dx); m.centerY = Float(Double(d.centerY) + dy)
    return m
  }
}
