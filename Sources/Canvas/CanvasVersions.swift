import CCairo
import CPNG

/// Runtime versions of the native libraries, for provenance records and bug reports.
public enum CanvasVersions {
  /// cairo's runtime version, e.g. "1.16.0".
  public static var cairo: String { String(cString: cairo_version_string()) }
  /// libpng's runtime version, e.g. "1.6.39".
  public static var libpng: String { String(cString: cpng_libpng_version()) }
  /// pixman's runtime version (cairo's rasterizer), e.g. "0.42.2".
  public static var pixman: String? {
    guard let text = pixman_version_string() else { return nil }
    return String(cString: text)
  }

  /// FreeType's runtime version (glyph rasteriser behind cairo's text), e.g. "2.12.1".
  public static var freetype: String? {
    var lib: FT_Library?
    guard FT_Init_FreeType(&lib) == 0, let lib else { return nil }
    defer { FT_Done_FreeType(lib) }
    var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
    FT_Library_Version(lib, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }
}
