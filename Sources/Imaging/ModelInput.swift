/// Images made into model inputs: NCHW planar RGB (`[3][side][side]`, batch 1)
/// as the detectors and classifiers read them. Callers wrap the floats in
/// their runtime's tensor type.
public enum ModelInput {
  /// The largest model input side accepted.
  public static let maxSide = 4096

  /// Ultralytics LetterBox: the image scaled by `Letterbox`'s gain into the
  /// centre of a `side`² input padded with gray 114, values divided by 255.
  /// `rounding: .toByte` rounds each channel to an 8-bit level first, like
  /// OpenCV's uint8 output (the archery detector); `.none` keeps the fraction
  /// (the card detector's reference).
  public static func letterbox(_ image: RGBA8Image, side: Int, rounding: ResizeRounding = .toByte) throws(ImageError) -> (planes: [Float], geometry: Letterbox) {
    try checkSide(side)
    let g = Letterbox(imageWidth: image.width, imageHeight: image.height, input: side)
    var out = [Float](repeating: 114.0 / 255.0, count: 3 * side * side)
    resizeBilinear(image.pixels, width: image.width, height: image.height, channels: 4,
                   outWidth: min(g.resizedWidth, side - g.left), outHeight: min(g.resizedHeight, side - g.top),
                   into: &out, target: PlanarTarget(side: side, x: g.left, y: g.top), rounding: rounding, divisor: 255)
    return (out, g)
  }

  /// The image stretched to `side`² ignoring its aspect ratio (Vision's
  /// `.scaleFill`), rounded to 8-bit levels, divided by 255.
  public static func stretch(_ image: RGBA8Image, side: Int) throws(ImageError) -> [Float] {
    try checkSide(side)
    var out = [Float](repeating: 0, count: 3 * side * side)
    resizeBilinear(image.pixels, width: image.width, height: image.height, channels: 4, outWidth: side, outHeight: side,
                   into: &out, target: PlanarTarget(side: side), rounding: .toByte, divisor: 255)
    return out
  }

  static func checkSide(_ side: Int) throws(ImageError) {
    guard (1...maxSide).contains(side) else {
      throw .parameterOutOfRange(name: "model input side", value: "\(side)", expected: "1...\(maxSide)")
    }
  }
}
