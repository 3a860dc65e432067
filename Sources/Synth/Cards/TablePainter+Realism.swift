import SetCards
import Canvas
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Surfaces and things in frame that only realistic styles draw.
extension TablePainter {
  /// White or light-grey laminate: faint speckle and a broad sheen.
  func laminate(_ g: inout SeededGenerator) {
    let (W, H, base) = paintBase()
    for _ in 0..<Int(W * H / 900) {
      ctx.rectangle(x: g.uniform(0...W), y: g.uniform(0...H), width: 1.2, height: 1.2)
      ctx.setSource(shade(base, g.uniform(0.8...0.95), alpha: g.uniform(0.2...0.5)))
      ctx.fill()
    }
    let y = g.uniform(0...H)
    ctx.setLinearGradient(x0: 0, y0: y - H / 3, x1: 0, y1: y + H / 3,
                          stops: [(0, Color(r: 1, g: 1, b: 1, a: 0)), (0.5, Color(r: 1, g: 1, b: 1, a: 0.12)), (1, Color(r: 1, g: 1, b: 1, a: 0))])
    ctx.rectangle(x: 0, y: 0, width: W, height: H)
    ctx.fill()
  }

  /// A play mat: a base colour with a repeating pattern of dots or diamonds in a second tone.
  func mat(_ g: inout SeededGenerator) {
    let (W, H, base) = paintBase()
    let pitch = g.uniform(18...60), r = pitch * g.uniform(0.12...0.3), dots = g.chance(0.5)
    ctx.setSource(shade(base, g.chance(0.5) ? 0.7 : 1.3, alpha: g.uniform(0.3...0.7)))
    var y = pitch / 2, row = 0
    while y < H + pitch {
      var x = row % 2 == 0 ? pitch / 2 : pitch
      while x < W + pitch {
        if dots {
          ctx.newSubPath()
          ctx.arc(cx: x, cy: y, radius: r, from: 0, to: 2 * .pi)
        } else {
          ctx.polygon([(x - r, y), (x, y - r * 1.4), (x + r, y), (x, y + r * 1.4)])
        }
        x += pitch
      }
      y += pitch * 0.87
      row += 1
    }
    ctx.fill()
  }

  /// The game box: a rounded box with a white lid, a violet band and the three
  /// symbols (no lettering: text would depend on the machine's fonts).
  func gameBox(_ b: SetTable.BoxPlacement, dx: Double, dy: Double) {
    ctx.save()
    ctx.translate(b.x + dx * b.height * 0.04, b.y + dy * b.height * 0.04)
    ctx.rotate(b.rotationDeg * .pi / 180)
    let painter = CardPainter(ctx: ctx, h: b.height, faint: 0, print: table.look.print)
    painter.roundedRect(x: -b.width / 2, y: -b.height / 2, w: b.width, h: b.height, r: b.height / 20)
    ctx.setSource(Color(r: 0.05, g: 0.03, b: 0.02, a: 0.3 * table.look.shadow))
    ctx.fill()
    ctx.restore()
    ctx.save()
    ctx.translate(b.x, b.y)
    ctx.rotate(b.rotationDeg * .pi / 180)
    painter.roundedRect(x: -b.width / 2, y: -b.height / 2, w: b.width, h: b.height, r: b.height / 20)
    ctx.setSource(Color(hex: 0xF4F2EE))
    ctx.fill()
    ctx.rectangle(x: -b.width / 2, y: -b.height * 0.18, width: b.width, height: b.height * 0.36)
    ctx.setSource(Color(hex: 0x4A2C82))
    ctx.fill()
    let shapes: [CardShape] = [.diamond, .squiggle, .oval]
    let colors: [CardColor] = [.red, .green, .purple]
    for i in 0..<3 {
      let sw = b.width * 0.22, sh = sw / 2.133, x = (Double(i) - 1) * b.width * 0.28
      ctx.save()
      ctx.translate(x, -b.height * 0.34)
      painter.path(shapes[i], cy: 0, w: sw, h: sh)
      ctx.setSource(painter.ink(colors[i]))
      ctx.fill()
      ctx.restore()
    }
    ctx.restore()
  }

  /// A soft specular highlight: centre and radius as shares of the flat table, strength.
  func glare(_ v: [Double]) {
    let W = Double(flatWidth), H = Double(table.height)
    let cx = v[0] * W, cy = v[1] * H, r = v[2] * max(W, H)
    ctx.setRadialGradient(cx0: cx, cy0: cy, r0: 0, cx1: cx, cy1: cy, r1: r,
                          stops: [(0, Color(r: 1, g: 1, b: 0.98, a: v[3])), (0.45, Color(r: 1, g: 1, b: 0.98, a: v[3] * 0.5)),
                                  (1, Color(r: 1, g: 1, b: 1, a: 0))])
    ctx.rectangle(x: 0, y: 0, width: W, height: H)
    ctx.fill()
  }
}
