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
    redHue: -10...14, greenHue: 100...150, purpleHue: 248...288,
    inkSaturation: 0.62...1.0, inkValue: 0.78...1.08, whiteBalance: -0.7...0.7,
    contrast: 0.68...1.0, exposure: 0.9...1.12, outline: 0.015...0.03,
    stripePitch: 1.0 / 80...1.0 / 56, stripeDuty: 0.28...0.5, cardWidth: 55...190,
    blur: 0.3...1.5, noise: 1...7, motion: 1.5...5, jpegQuality: 55...92,
    glareChance: 0.35, motionChance: 0.3, thumbnailChance: 0.35, boxChance: 0.25, landscapeChance: 0.2)

  /// What `realism-holdout` draws from: beyond `training` on the side real
  /// photos stray to (more orange reds, yellower greens, bluer purples, cooler
  /// light, more washed out, thinner outlines, finer stripes, more blur and noise);
  /// ink saturation and value stay in training's lower part, so a person can still read every card.
  static let holdout = RealismRanges(
    redHue: 14...18, greenHue: 92...100, purpleHue: 241...248,
    inkSaturation: 0.62...0.75, inkValue: 0.78...0.9, whiteBalance: -0.9...(-0.7),
    contrast: 0.6...0.68, exposure: 1.12...1.18, outline: 0.012...0.015,
    stripePitch: 1.0 / 88...1.0 / 80, stripeDuty: 0.22...0.28, cardWidth: 80...200,
    blur: 1.5...1.9, noise: 7...9, motion: 5...6.5, jpegQuality: 50...55,
    glareChance: 0.35, motionChance: 0.3, thumbnailChance: 0.35, boxChance: 0.25, landscapeChance: 0.2)
}
