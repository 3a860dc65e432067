import Imaging

/// Classifier input preparation, as the reference does it: crop the
/// int-truncated box, resize to 224×224 bilinear (aspect not kept), scale to
/// [0, 1], normalise with ImageNet statistics, lay out as NCHW.
public enum CardPreprocess {
  /// Classifier input side.
  static let side = 224
  /// ImageNet channel means (R, G, B).
  static let mean: [Float] = [0.485, 0.456, 0.406]
  /// ImageNet channel standard deviations (R, G, B).
  static let std: [Float] = [0.229, 0.224, 0.225]

  /// The crop of `box` (truncated toward zero, clamped to the image, at least
  /// 1×1) as interleaved RGB bytes with its width and height.
  public static func crop(_ image: RGBA8Image, box: Box) -> (rgb: [UInt8], width: Int, height: Int) {
    let t = box.truncated
    let x1 = min(max(t[0], 0), image.width - 1), y1 = min(max(t[1], 0), image.height - 1)
    let x2 = min(max(t[2], x1 + 1), image.width), y2 = min(max(t[3], y1 + 1), image.height)
    let w = x2 - x1, h = y2 - y1
    var rgb = [UInt8](repeating: 0, count: w * h * 3)
    for y in 0..<h {
      for x in 0..<w {
        let s = ((y1 + y) * image.width + x1 + x) * 4, d = (y * w + x) * 3
        rgb[d] = image.pixels[s]
        rgb[d + 1] = image.pixels[s + 1]
        rgb[d + 2] = image.pixels[s + 2]
      }
    }
    return (rgb, w, h)
  }

  /// Planar RGB in 0...255 → `(v/255 − mean) / std` per channel, in place.
  static func normalize(_ planes: inout [Float], plane: Int) {
    for c in 0..<3 {
      let m = mean[c], s = std[c]
      for i in 0..<plane { planes[c * plane + i] = (planes[c * plane + i] / 255 - m) / s }
    }
  }

  /// The classifier tensor `[1, 3, 224, 224]` for one detected box.
  static func classifierInput(_ image: RGBA8Image, box: Box) -> [Float] {
    let c = crop(image, box: box)
    var planes = [Float](repeating: 0, count: 3 * side * side)
    resizeBilinear(c.rgb, width: c.width, height: c.height, channels: 3, outWidth: side, outHeight: side,
                   into: &planes, target: PlanarTarget(side: side), rounding: .none, divisor: 1)
    normalize(&planes, plane: side * side)
    return planes
  }

  /// The detector tensor `[1, 3, n, n]` (RGB in 0...1): the image resized by the
  /// frame's gain and centred on grey 114 padding, as Ultralytics letterboxes;
  /// values keep their fraction (no 8-bit rounding), as the card reference does.
  static func detectorInput(_ image: RGBA8Image, frame: ModelFrame) throws(ImageError) -> [Float] {
    try ModelInput.letterbox(image, side: frame.inputSize, rounding: .none).planes
  }
}
