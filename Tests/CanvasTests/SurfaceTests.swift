import Testing

@testable import Canvas

@Suite("cairo surface and context")
struct SurfaceTests {
  @Test("new surface is fully transparent")
  func transparent() throws {
    let image = try Surface(width: 4, height: 3).image()
    #expect(image == (try RGBA8Image(width: 4, height: 3, fill: RGBA(0, 0, 0, 0))))
  }

  @Test("filling a rectangle reads back exact pixels inside and untouched outside")
  func fillRectangle() throws {
    let surface = try Surface(width: 10, height: 8)
    let cr = try Context(surface)
    cr.setSource(Color(hex: 0x3366CC))
    cr.rectangle(x: 2, y: 1, width: 5, height: 4)
    cr.fill()
    try cr.check()
    let image = surface.image()
    for y in 0..<8 {
      for x in 0..<10 {
        let inside = (2..<7).contains(x) && (1..<5).contains(y)
        #expect(image[x, y] == (inside ? RGBA(0x33, 0x66, 0xCC, 255) : RGBA(0, 0, 0, 0)))
      }
    }
  }

  @Test("a 50% alpha fill un-premultiplies back to the source colour")
  func halfAlpha() throws {
    let surface = try Surface(width: 4, height: 4)
    let cr = try Context(surface)
    cr.setSource(Color(r: 1, g: 0, b: 0, a: 0.5))
    cr.rectangle(x: 0, y: 0, width: 2, height: 4)
    cr.fill()
    cr.setSource(Color(r: 0.2, g: 0.6, b: 1, a: 0.5))
    cr.rectangle(x: 2, y: 0, width: 2, height: 4)
    cr.fill()
    let image = surface.image()
    #expect(image[0, 0] == RGBA(255, 0, 0, 128))
    // cairo stores premultiplied 8-bit values by truncating its 16-bit colour (>> 8):
    // g = 0.6 * 0.5 * 65535 + 0.5 = 19661 -> 76; un-premultiplied (76 * 255 + 64) / 128 = 151.
    // r: 6554 -> 25 -> 50. Pinned exactly: any rounding change must be noticed.
    #expect(image[3, 3] == RGBA(50, 151, 255, 128))
  }

  @Test("Surface(image:) then image() is exact for opaque and transparent pixels")
  func imageRoundTrip() throws {
    var source = try RGBA8Image(width: 5, height: 5, fill: RGBA(12, 34, 56))
    source[1, 1] = RGBA(0, 0, 0, 0)
    source[2, 3] = RGBA(255, 128, 1, 255)
    #expect(try Surface(image: source).image() == source)
  }

  @Test("Surface(image:) premultiplies: an alpha pixel composites as straight alpha")
  func premultiplies() throws {
    var source = try RGBA8Image(width: 2, height: 1, fill: RGBA(0, 0, 0, 0))
    source[0, 0] = RGBA(200, 100, 50, 255)
    source[1, 0] = RGBA(255, 255, 255, 51)  // 20% white
    let surface = try Surface(image: source)
    let out = surface.image()
    #expect(out[0, 0] == RGBA(200, 100, 50, 255))
    #expect(out[1, 0] == RGBA(255, 255, 255, 51))
    // Paint it over opaque black: 20% white over black is 51 gray.
    let target = try Surface(width: 2, height: 1)
    let cr = try Context(target)
    cr.setSource(Color(r: 0, g: 0, b: 0))
    cr.paint()
    cr.setSource(surface)
    cr.paint()
    try cr.check()
    #expect(target.image()[1, 0] == RGBA(51, 51, 51, 255))
  }

  @Test("surface sizes outside 1...16384 throw", arguments: [(0, 10), (10, 0), (20000, 10), (10, 20000), (-1, 5)])
  func surfaceLimits(width: Int, height: Int) {
    #expect {
      try Surface(width: width, height: height)
    } throws: { error in
      if case .dimensionOutOfRange(_, let value, 16384) = error as? CanvasError {
        return value == (width == 10 ? height : width)
      }
      return false
    }
  }

  @Test("antialias none gives hard edges on a diagonal polygon")
  func antialiasNone() throws {
    let surface = try Surface(width: 16, height: 16)
    let cr = try Context(surface)
    cr.setAntialias(.none)
    cr.setSource(Color(r: 0, g: 1, b: 0))
    cr.polygon([(0, 0), (16, 0), (0, 16)])
    cr.fill()
    let alphas = Set(stride(from: 3, to: surface.image().pixels.count, by: 4).map { surface.image().pixels[$0] })
    #expect(alphas == [0, 255])
  }
}
