import CCairo

/// How stroke ends are drawn.
public enum LineCap: Sendable, Hashable { case butt, round, square }
/// How stroke corners are drawn.
public enum LineJoin: Sendable, Hashable { case miter, round, bevel }
/// Which regions of a self-intersecting path are inside.
public enum FillRule: Sendable, Hashable { case winding, evenOdd }
/// Edge antialiasing mode for shapes (text uses the context's font options).
enum Antialias: Sendable, Hashable { case `default`, none, gray, best }

extension Context {
  /// Sets a solid source colour.
  public func setSource(_ c: Color) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

  /// Uses `surface` as the source with its origin at (x, y) in user space, e.g. to
  /// composite an image: `setSource(s, x: 10, y: 20); paint()`.
  public func setSource(_ surface: Surface, x: Double = 0, y: Double = 0) {
    cairo_set_source_surface(cr, surface.pointer, x, y)
  }

  /// Sets a linear gradient source from (x0, y0) to (x1, y1); stops are (offset 0...1, colour).
  public func setLinearGradient(
    x0: Double, y0: Double, x1: Double, y1: Double, stops: [(Double, Color)]
  ) {
    setPattern(cairo_pattern_create_linear(x0, y0, x1, y1), stops: stops)
  }

  /// Sets a radial gradient source between two circles; stops are (offset 0...1, colour).
  public func setRadialGradient(
    cx0: Double, cy0: Double, r0: Double, cx1: Double, cy1: Double, r1: Double,
    stops: [(Double, Color)]
  ) {
    setPattern(cairo_pattern_create_radial(cx0, cy0, r0, cx1, cy1, r1), stops: stops)
  }

  /// Adds stops, installs the pattern as source and drops our reference (cairo keeps one).
  private func setPattern(_ pattern: OpaquePointer?, stops: [(Double, Color)]) {
    guard let pattern else { return }
    for (offset, c) in stops {
      cairo_pattern_add_color_stop_rgba(pattern, offset, c.r, c.g, c.b, c.a)
    }
    cairo_set_source(cr, pattern)
    cairo_pattern_destroy(pattern)
  }

  /// Fills the current path; `preserve` keeps the path for a following stroke.
  public func fill(preserve: Bool = false) {
    preserve ? cairo_fill_preserve(cr) : cairo_fill(cr)
  }

  /// Strokes the current path with the line settings; `preserve` keeps the path.
  public func stroke(preserve: Bool = false) {
    preserve ? cairo_stroke_preserve(cr) : cairo_stroke(cr)
  }

  /// Paints the source everywhere inside the clip, at `alpha` opacity.
  public func paint(alpha: Double = 1) {
    alpha >= 1 ? cairo_paint(cr) : cairo_paint_with_alpha(cr, alpha)
  }

  /// Intersects the clip with the current path and clears the path.
  public func clip() { cairo_clip(cr) }
  /// Removes all clipping.
  func resetClip() { cairo_reset_clip(cr) }

  /// Stroke width in user-space units.
  public func setLineWidth(_ w: Double) { cairo_set_line_width(cr, w) }

  /// Stroke end style.
  public func setLineCap(_ c: LineCap) {
    switch c {
    case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
    }
  }

  /// Stroke corner style.
  public func setLineJoin(_ j: LineJoin) {
    switch j {
    case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    }
  }

  /// Inside rule for `fill` and `clip`.
  public func setFillRule(_ r: FillRule) {
    switch r {
    case .winding: cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    case .evenOdd: cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    }
  }

  /// Alternating on/off dash lengths; an empty array turns dashing off.
  public func setDash(_ dashes: [Double], offset: Double = 0) {
    dashes.withUnsafeBufferPointer { buffer in
      cairo_set_dash(cr, buffer.baseAddress, Int32(buffer.count), offset)
    }
  }

  /// Shape antialiasing; `.none` gives hard pixel edges for exact pixel tests.
  func setAntialias(_ a: Antialias) {
    switch a {
    case .default: cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
    case .none: cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
    case .gray: cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
    case .best: cairo_set_antialias(cr, CAIRO_ANTIALIAS_BEST)
    }
  }
}
