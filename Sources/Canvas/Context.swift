import CCairo

/// One cairo drawing context (`cairo_t`) targeting a `Surface`, destroyed in `deinit`.
/// Created with deterministic font options so text renders identically run to run.
public final class Context {
  /// The target; held so it outlives the context.
  public let surface: Surface
  let cr: OpaquePointer  // cairo_t *

  /// A context on `surface` with hint style none, hint metrics off, gray antialiasing.
  public init(_ surface: Surface) throws(CanvasError) {
    guard let cr = cairo_create(surface.pointer) else {
      throw .cairo(operation: "create", code: -1, message: "returned null")
    }
    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_destroy(cr)
      throw CairoStatus.error(status, operation: "create")
    }
    self.surface = surface
    self.cr = cr
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_set_font_options(cr, options)
    cairo_font_options_destroy(options)
  }

  deinit {
    cairo_destroy(cr)
  }

  /// Throws the context's error status (cairo errors are sticky: the first one wins).
  public func check() throws(CanvasError) {
    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw CairoStatus.error(status, operation: "drawing")
    }
  }

  /// Pushes the graphics state (source, transform, clip, line and font settings).
  public func save() { cairo_save(cr) }
  /// Pops the state pushed by the matching `save()`.
  public func restore() { cairo_restore(cr) }

  /// Moves the user-space origin.
  public func translate(_ x: Double, _ y: Double) { cairo_translate(cr, x, y) }
  /// Scales user-space axes.
  public func scale(_ sx: Double, _ sy: Double) { cairo_scale(cr, sx, sy) }
  /// Rotates user space; positive angles turn from +x towards +y.
  public func rotate(_ radians: Double) { cairo_rotate(cr, radians) }
}
