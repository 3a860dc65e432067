/// How a Set table photo looks. `classic` is the synthesizer's first look (its
/// scenarios and goldens pin it); `realism` adds what real phone photos of the
/// game show (issue notes: palette as phones record it, thin outlines, small
/// JPEG'd cards, other tables and things in frame); `realism-holdout` draws the
/// same things from ranges outside `realism`'s, for a test set no model was
/// trained on.
public enum CardStyle: String, Sendable, Hashable, Decodable, CaseIterable {
  /// Fixed inks and strokes, wood or cloth, the grid fitted to the frame.
  case classic
  /// Domain randomization for training on users' photos.
  case realism
  /// Like `realism`, every range moved beyond `realism`'s (never used in training).
  case realismHoldout = "realism-holdout"

  /// The ranges this style draws from; nil for `classic`.
  var ranges: RealismRanges? {
    switch self {
    case .classic: return nil
    case .realism: return .training
    case .realismHoldout: return .holdout
    }
  }
}

/// Every range a realistic table draws from, as one table so training and
/// holdout can be compared side by side (and a test can check they differ).
/// Hues in degrees, saturation and value in 0...1.
struct RealismRanges: Sendable, Hashable {
  /// Red ink: orange-red to crimson as phones record it.
  var redHue: ClosedRange<Double>
  /// Green ink: bright yellowish to bluish green.
  var greenHue: ClosedRange<Double>
  /// Purple ink: violet to a blue-violet close to blue.
  var purpleHue: ClosedRange<Double>
  /// Ink saturation, scaled per ink from its printed value.
  var inkSaturation: ClosedRange<Double>
  /// Ink brightness, scaled per ink.
  var inkValue: ClosedRange<Double>
  /// White balance: −1 cool (blue) … +1 warm (orange).
  var whiteBalance: ClosedRange<Double>
  /// Contrast after exposure: 1 unchanged, lower is washed out toward grey.
  var contrast: ClosedRange<Double>
  /// Exposure gain.
  var exposure: ClosedRange<Double>
  /// Outline of empty and striped symbols, as a share of the card width.
  var outline: ClosedRange<Double>
  /// Stripe pitch as a share of the card height.
  var stripePitch: ClosedRange<Double>
  /// Share of each stripe period that is ink.
  var stripeDuty: ClosedRange<Double>
  /// Card short side in pixels per 1280 px of image width.
  var cardWidth: ClosedRange<Double>
  /// Soft focus sigma (px) and sensor noise sigma (8-bit units).
  var blur: ClosedRange<Double>, noise: ClosedRange<Double>
  /// Motion blur length in pixels when the photo has it.
  var motion: ClosedRange<Double>
  /// JPEG quality the photo is saved at.
  var jpegQuality: ClosedRange<Double>
  /// Chances of a glare spot, motion blur, a strip of thumbnail cards, the game box in frame, landscape cards.
  var glareChance: Double, motionChance: Double, thumbnailChance: Double, boxChance: Double, landscapeChance: Double

  /// What `realism` (the training default) draws from.
  static let training = RealismRanges(
    redHue: -14...16, greenHue: 95...155, purpleHue: 244...292,
    inkSaturation: 0.55...1.0, inkValue: 0.75...1.1, whiteBalance: -0.85...0.85,
    contrast: 0.6...1.0, exposure: 0.88...1.15, outline: 0.013...0.032,
    stripePitch: 1.0 / 84...1.0 / 54, stripeDuty: 0.22...0.5, cardWidth: 55...190,
    blur: 0.3...1.7, noise: 1...8, motion: 1.5...6, jpegQuality: 50...92,
    glareChance: 0.35, motionChance: 0.3, thumbnailChance: 0.35, boxChance: 0.25, landscapeChance: 0.2)

  /// What `realism-holdout` draws from: just beyond `training` on the side real
  /// photos stray to (more orange reds, yellower greens, bluer purples, cooler
  /// light, more washed out, thinner outlines, finer stripes, more blur, noise and
  /// JPEG loss), every one of those at once; ink saturation and value stay inside
  /// training's, so a person can still read every card.
  static let holdout = RealismRanges(
    redHue: 16...19, greenHue: 91...95, purpleHue: 241...244,
    inkSaturation: 0.6...0.8, inkValue: 0.8...0.95, whiteBalance: -0.95...(-0.85),
    contrast: 0.55...0.6, exposure: 1.15...1.2, outline: 0.011...0.013,
    stripePitch: 1.0 / 90...1.0 / 84, stripeDuty: 0.2...0.22, cardWidth: 80...200,
    blur: 1.7...2.0, noise: 8...10, motion: 6...7, jpegQuality: 45...50,
    glareChance: 0.35, motionChance: 0.3, thumbnailChance: 0.35, boxChance: 0.25, landscapeChance: 0.2)
}
