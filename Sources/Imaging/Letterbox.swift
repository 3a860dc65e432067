/// How an image of `imageWidth`×`imageHeight` sits in a square model input of
/// side `input` under Ultralytics' `LetterBox(center=True)`: scaled by the
/// smaller ratio, the scaled size rounded half-even, the padding split with
/// round(p − 0.1) before and round(p + 0.1) after. Every letterbox in the
/// product (archery detector, card detector, the conformance vectors) reads
/// its numbers from here.
public struct Letterbox: Sendable, Hashable {
  /// Source image size.
  public let imageWidth: Int, imageHeight: Int
  /// Square model input side.
  public let input: Int
  /// min(input / height, input / width).
  public let gain: Double
  /// Size of the scaled image inside the padding (at least 1×1).
  public let resizedWidth: Int, resizedHeight: Int
  /// Padding drawn before the image: round(dw − 0.1), round(dh − 0.1).
  public let left: Int, top: Int
  /// The fractional padding (dw, dh), which the naive back-transform reuses.
  public let rawPadX: Double, rawPadY: Double
  /// `scale_boxes`'s padding: recomputed from the gain, rounded as drawn.
  public let backPadX: Double, backPadY: Double

  /// The geometry for an image of `imageWidth`×`imageHeight` in an `input`² model input.
  public init(imageWidth: Int, imageHeight: Int, input: Int) {
    self.imageWidth = imageWidth
    self.imageHeight = imageHeight
    self.input = input
    let s = Double(input), w = Double(imageWidth), h = Double(imageHeight)
    gain = min(s / h, s / w)
    resizedWidth = max(1, Int((w * gain).rounded(.toNearestOrEven)))
    resizedHeight = max(1, Int((h * gain).rounded(.toNearestOrEven)))
    rawPadX = Double(input - resizedWidth) / 2
    rawPadY = Double(input - resizedHeight) / 2
    left = Int((rawPadX - 0.1).rounded(.toNearestOrEven))
    top = Int((rawPadY - 0.1).rounded(.toNearestOrEven))
    backPadX = ((s - w * gain) / 2 - 0.1).rounded(.toNearestOrEven)
    backPadY = ((s - h * gain) / 2 - 0.1).rounded(.toNearestOrEven)
  }
}
