import CCairo

extension Context {
  /// Clears the current path (and the current point).
  public func newPath() { cairo_new_path(cr) }
  /// Starts a new sub-path without a current point, so the next arc does not connect.
  public func newSubPath() { cairo_new_sub_path(cr) }
  /// Starts a sub-path at (x, y).
  public func moveTo(_ x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
  /// Adds a straight segment to (x, y).
  public func lineTo(_ x: Double, _ y: Double) { cairo_line_to(cr, x, y) }

  /// Adds a cubic Bézier with control points (x1, y1), (x2, y2) ending at (x3, y3).
  public func curveTo(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double
  ) {
    cairo_curve_to(cr, x1, y1, x2, y2, x3, y3)
  }

  /// Closes the current sub-path with a segment back to its start.
  public func closePath() { cairo_close_path(cr) }

  /// Adds a circular arc around (cx, cy) from angle `a1` to `a2` (radians, increasing).
  public func arc(cx: Double, cy: Double, radius: Double, from a1: Double, to a2: Double) {
    cairo_arc(cr, cx, cy, radius, a1, a2)
  }

  /// Adds a closed axis-aligned rectangle sub-path.
  public func rectangle(x: Double, y: Double, width: Double, height: Double) {
    cairo_rectangle(cr, x, y, width, height)
  }

  /// Adds a closed polygon: move to the first point, line to the rest, close.
  /// Fewer than one point adds nothing.
  public func polygon(_ points: [(Double, Double)]) {
    guard let first = points.first else { return }
    cairo_move_to(cr, first.0, first.1)
    for point in points.dropFirst() { cairo_line_to(cr, point.0, point.1) }
    cairo_close_path(cr)
  }
}
