import Imaging

/// How an image was fitted into the square model input, and how boxes go back.
public enum InputMapping: Sendable, Hashable {
  /// Vision `.scaleFill`: the image stretched to the input; boxes come back as
  /// Vision observations (normalized, origin bottom-left) and are flipped to
  /// top-left pixels exactly as seed 000 does.
  case stretch(imageWidth: Int, imageHeight: Int, input: Int)
  /// Ultralytics letterbox on gray 114, with the padding rounded as
  /// `scale_boxes` does (pad = round(p − 0.1)); `roundedPadding: false` is the
  /// naive variant that keeps the fractional padding.
  case letterbox(imageWidth: Int, imageHeight: Int, input: Int, roundedPadding: Bool)

  /// Maps a model-input box to image pixels (top-left origin), clamped to the
  /// image for the letterbox as Ultralytics' `clip_boxes` does.
  func toImage(_ b: RawBox) -> PixelBox {
    switch self {
    case .stretch: return stretched(b)
    case .letterbox(let w, let h, _, _):
      var (x1, y1, x2, y2) = toImageCorners(b)
      x1 = min(max(x1, 0), Double(w)); x2 = min(max(x2, 0), Double(w))
      y1 = min(max(y1, 0), Double(h)); y2 = min(max(y2, 0), Double(h))
      return PixelBox(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }
  }

  /// A model-input box's corners `(x1, y1, x2, y2)` in image pixels, not
  /// clamped: the arithmetic alone, which the conformance `map_to_image` stage checks.
  public func toImageCorners(_ b: RawBox) -> (Double, Double, Double, Double) {
    switch self {
    case .stretch:
      let p = stretched(b)
      return (p.x, p.y, p.x + p.width, p.y + p.height)
    case .letterbox(let w, let h, let input, let rounded):
      let g = Letterbox(imageWidth: w, imageHeight: h, input: input)
      let px = rounded ? g.backPadX : g.rawPadX, py = rounded ? g.backPadY : g.rawPadY
      return ((b.cx - b.w / 2 - px) / g.gain, (b.cy - b.h / 2 - py) / g.gain,
              (b.cx + b.w / 2 - px) / g.gain, (b.cy + b.h / 2 - py) / g.gain)
    }
  }

  /// Stretch: the box becomes a Vision observation (normalized, origin
  /// bottom-left), then seed 000's flip brings it to pixels.
  func stretched(_ b: RawBox) -> PixelBox {
    guard case .stretch(let w, let h, let input) = self else { return PixelBox(x: 0, y: 0, width: 0, height: 0) }
    let s = Double(input)
    let ox = (b.cx - b.w / 2) / s, ow = b.w / s, oh = b.h / s
    let oy = 1 - (b.cy + b.h / 2) / s
    return visionToPixels(x: ox, y: oy, width: ow, height: oh, imageWidth: w, imageHeight: h)
  }
}

/// A Vision bounding box (normalized, origin bottom-left) in image pixels with
/// the origin top-left, as seed 000 converts it: `y = (1 − oy − h) · H`.
/// `flipped: false` is the classic bug of forgetting the flip (`y = oy · H`).
public func visionToPixels(x: Double, y: Double, width: Double, height: Double, imageWidth: Int, imageHeight: Int,
                           flipped: Bool = true) -> PixelBox {
  let W = Double(imageWidth), H = Double(imageHeight)
  let top = flipped ? (1.0 - y - height) * H : y * H
  return PixelBox(x: x * W, y: top, width: width * W, height: height * H)
}

extension InputMapping {
  /// Maps an image-pixel box into model-input pixels, where the model sees it
  /// (the letterbox uses the pad actually drawn).
  public func toInput(_ b: PixelBox, confidence: Double, classID: Int) -> RawBox {
    switch self {
    case .stretch(let w, let h, let input):
      let sx = Double(input) / Double(w), sy = Double(input) / Double(h)
      return RawBox(cx: b.centerX * sx, cy: b.centerY * sy, w: b.width * sx, h: b.height * sy, confidence: confidence, classID: classID)
    case .letterbox(let w, let h, let input, _):
      let g = Letterbox(imageWidth: w, imageHeight: h, input: input)
      return RawBox(cx: b.centerX * g.gain + Double(g.left), cy: b.centerY * g.gain + Double(g.top),
                    w: b.width * g.gain, h: b.height * g.gain, confidence: confidence, classID: classID)
    }
  }
}
