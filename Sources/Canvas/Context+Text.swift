import CCairo

/// Ink and advance metrics of a string in user-space units (cairo_text_extents_t).
public struct TextExtents: Sendable, Hashable {
  /// Offset from the reference point to the ink's left edge.
  public var xBearing: Double
  /// Offset from the baseline to the ink's top edge (negative above the baseline).
  public var yBearing: Double
  /// Ink width.
  public var width: Double
  /// Ink height.
  public var height: Double
  /// Horizontal distance the current point moves after showing the text.
  var xAdvance: Double
  /// Vertical distance the current point moves after showing the text.
  var yAdvance: Double

  /// Memberwise.
  init(
    xBearing: Double, yBearing: Double, width: Double, height: Double, xAdvance: Double,
    yAdvance: Double
  ) {
    self.xBearing = xBearing
    self.yBearing = yBearing
    self.width = width
    self.height = height
    self.xAdvance = xAdvance
    self.yAdvance = yAdvance
  }
}

extension Context {
  /// Selects a font through cairo's toy API (fontconfig family name, e.g. "DejaVu Sans").
  public func selectFont(family: String, bold: Bool = false) {
    cairo_select_font_face(
      cr, family, CAIRO_FONT_SLANT_NORMAL,
      bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
  }

  /// Font size in user-space units (the em height).
  public func setFontSize(_ s: Double) { cairo_set_font_size(cr, s) }

  /// Draws UTF-8 text with its baseline origin at the current point, then advances it.
  public func showText(_ s: String) { cairo_show_text(cr, s) }

  /// Measures `s` with the current font without drawing.
  public func textExtents(_ s: String) -> TextExtents {
    var e = cairo_text_extents_t()
    cairo_text_extents(cr, s, &e)
    return TextExtents(
      xBearing: e.x_bearing, yBearing: e.y_bearing, width: e.width, height: e.height,
      xAdvance: e.x_advance, yAdvance: e.y_advance)
  }
}
