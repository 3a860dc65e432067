/// A drawing colour with channels in 0...1 (straight alpha), as cairo takes them.
public struct Color: Sendable, Hashable {
  /// Red, 0...1.
  public var r: Double
  /// Green, 0...1.
  public var g: Double
  /// Blue, 0...1.
  public var b: Double
  /// Alpha (straight), 0 transparent ... 1 opaque.
  public var a: Double

  /// Channels in 0...1; alpha defaults to opaque.
  public init(r: Double, g: Double, b: Double, a: Double = 1) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// From `0xRRGGBB`; bits above 24 are ignored.
  public init(hex: UInt32, alpha: Double = 1) {
    self.init(
      r: Double((hex >> 16) & 0xFF) / 255,
      g: Double((hex >> 8) & 0xFF) / 255,
      b: Double(hex & 0xFF) / 255,
      a: alpha)
  }

  /// The colour of an 8-bit pixel (each channel divided by 255).
  public init(_ pixel: RGBA) {
    self.init(
      r: Double(pixel.r) / 255, g: Double(pixel.g) / 255, b: Double(pixel.b) / 255,
      a: Double(pixel.a) / 255)
  }
}
