import Testing

@testable import Canvas

@Suite("text rendering")
struct TextTests {
  static func render(_ text: String, family: String) throws -> RGBA8Image {
    let surface = try Surface(width: 160, height: 48)
    let cr = try Context(surface)
    cr.setSource(Color(hex: 0xFFFFFF))
    cr.paint()
    cr.selectFont(family: family, bold: true)
    cr.setFontSize(24)
    cr.setSource(Color(hex: 0x102030))
    cr.moveTo(4, 32)
    cr.showText(text)
    try cr.check()
    return surface.image()
  }

  @Test("drawing the same text twice gives identical pixels",
        arguments: [("Score 10.9", "DejaVu Sans"), ("靶心 得分", "WenQuanYi Micro Hei")])
  func deterministicText(text: String, family: String) throws {
    let a = try Self.render(text, family: family)
    let b = try Self.render(text, family: family)
    #expect(a == b)
    let white = try RGBA8Image(width: 160, height: 48, fill: RGBA(255, 255, 255))
    #expect(a != white)  // glyphs were actually drawn
    // Gray antialiasing: some partially covered pixels exist.
    let grays = Set(stride(from: 0, to: a.pixels.count, by: 4).map { a.pixels[$0] })
    #expect(grays.count > 2)
  }

  @Test("text extents are positive and proportional to font size")
  func extents() throws {
    let cr = try Context(try Surface(width: 8, height: 8))
    cr.selectFont(family: "DejaVu Sans")
    cr.setFontSize(10)
    let small = cr.textExtents("Hello")
    cr.setFontSize(20)
    let large = cr.textExtents("Hello")
    #expect(small.width > 0 && small.height > 0 && small.yBearing < 0)
    #expect(abs(large.xAdvance - 2 * small.xAdvance) < 1e-6)
    #expect(small.yAdvance == 0)
  }
}
