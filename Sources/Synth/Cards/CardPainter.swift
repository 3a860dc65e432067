import SetCards
import Canvas

/// Draws one Set card in its own frame: origin at the card centre, portrait,
/// height `h`. Geometry from the anchor notes: width 0.64 h, corner radius
/// h/28, symbol width 0.68 × card width at aspect 2.133:1, symbol centres at
/// 0 / ±0.142 h / 0 and ±0.287 h, stripe pitch h/69, outline h/92.
struct CardPainter {
  let ctx: Context
  let h: Double
  /// Faint printing, 0...1: lightens outlines and stripes of empty and striped symbols.
  let faint: Double
  /// Inks, stock and strokes.
  var print = CardPrint.classic

  /// This print's ink for a colour.
  func ink(_ c: CardColor) -> Color {
    switch c {
    case .red: return print.inks[0]
    case .green: return print.inks[1]
    case .purple: return print.inks[2]
    }
  }

  var width: Double { h * SetTable.aspect }

  func paint(_ card: Card) {
    let w = width, r = h / 28
    roundedRect(x: -w / 2, y: -h / 2, w: w, h: h, r: r)
    ctx.setSource(print.stock)
    ctx.fill(preserve: true)
    ctx.setSource(Color(r: 0.45, g: 0.45, b: 0.42, a: 0.45))
    ctx.setLineWidth(max(0.6, h / 300))
    ctx.stroke()

    let symW = 0.68 * w, symH = symW / 2.133
    let offsets: [Double] = switch card.number {
    case .one: [0]
    case .two: [-0.142 * h, 0.142 * h]
    case .three: [-0.287 * h, 0, 0.287 * h]
    }
    let ink = ink(card.color)
    for dy in offsets { symbol(card.shape, fill: card.fill, ink: ink, cy: dy, w: symW, sh: symH) }
  }

  func symbol(_ shape: CardShape, fill: CardFill, ink: Color, cy: Double, w: Double, sh: Double) {
    let outlineAlpha = fill == .solid ? 1 : 1 - 0.3 * faint
    switch fill {
    case .solid:
      path(shape, cy: cy, w: w, h: sh)
      ctx.setSource(ink)
      ctx.fill()
    case .striped:
      ctx.save()
      path(shape, cy: cy, w: w, h: sh)
      ctx.clip()
      let pitch = h * print.stripePitch
      var x = -w / 2
      while x < w / 2 {
        ctx.rectangle(x: x, y: cy - sh / 2 - 1, width: pitch * print.stripeDuty, height: sh + 2)
        x += pitch
      }
      ctx.setSource(Color(r: ink.r, g: ink.g, b: ink.b, a: 1 - 0.45 * faint))
      ctx.fill()
      ctx.restore()
    case .empty:
      break
    }
    path(shape, cy: cy, w: w, h: sh)
    ctx.setSource(Color(r: ink.r, g: ink.g, b: ink.b, a: outlineAlpha))
    ctx.setLineWidth(h * print.outline)
    ctx.setLineJoin(print.sharpDiamond && shape == .diamond ? .miter : .round)
    ctx.stroke()
  }

  /// The symbol outline centred at (0, cy), `w` wide and `h` tall.
  func path(_ shape: CardShape, cy: Double, w: Double, h sh: Double) {
    ctx.newPath()
    switch shape {
    case .diamond:
      ctx.polygon([(-w / 2, cy), (0, cy - sh / 2), (w / 2, cy), (0, cy + sh / 2)])
    case .oval:
      let r = sh / 2
      ctx.newSubPath()
      ctx.arc(cx: w / 2 - r, cy: cy, radius: r, from: -.pi / 2, to: .pi / 2)
      ctx.arc(cx: -w / 2 + r, cy: cy, radius: r, from: .pi / 2, to: 3 * .pi / 2)
      ctx.closePath()
    case .squiggle:
      // A closed Catmull–Rom "bean" through points symmetric under a half turn
      // (unit box: x, y in −1...1), as Bézier segments.
      let top: [(Double, Double)] = print.tilde ? Self.tildeTop : [(-0.95, 0.55), (-0.45, -0.95), (0.2, -0.45), (0.8, -0.95)]
      let pts = (top + top.map { (-$0.0, -$0.1) }).map { (w / 2 * $0.0, cy + sh / 2 * $0.1) }
      let n = pts.count
      ctx.moveTo(pts[0].0, pts[0].1)
      for i in 0..<n {
        let p0 = pts[(i + n - 1) % n], p1 = pts[i], p2 = pts[(i + 1) % n], p3 = pts[(i + 2) % n]
        ctx.curveTo(p1.0 + (p2.0 - p0.0) / 6, p1.1 + (p2.1 - p0.1) / 6,
                    p2.0 - (p3.0 - p1.0) / 6, p2.1 - (p3.1 - p1.1) / 6, p2.0, p2.1)
      }
      ctx.closePath()
    }
  }

  /// The printed squiggle's upper half: the left end hangs low, the right end
  /// rises, both wider than the waist (a thick tilde; the other half is its half turn).
  static let tildeTop: [(Double, Double)] = [(-1.0, 0.2), (-0.8, -0.55), (-0.45, -0.78), (-0.05, -0.45),
                                             (0.35, -0.15), (0.75, -0.45), (0.97, -0.88)]

  func roundedRect(x: Double, y: Double, w: Double, h: Double, r: Double) {
    ctx.newPath()
    ctx.newSubPath()
    ctx.arc(cx: x + w - r, cy: y + r, radius: r, from: -.pi / 2, to: 0)
    ctx.arc(cx: x + w - r, cy: y + h - r, radius: r, from: 0, to: .pi / 2)
    ctx.arc(cx: x + r, cy: y + h - r, radius: r, from: .pi / 2, to: .pi)
    ctx.arc(cx: x + r, cy: y + r, radius: r, from: .pi, to: 3 * .pi / 2)
    ctx.closePath()
  }
}
