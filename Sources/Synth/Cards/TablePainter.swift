import SetCards
import Canvas
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paints the flat table (surface, shadows, cards) before the photo effects.
struct TablePainter {
  let table: SetTable
  let ctx: Context
  /// Flat canvas size: the image plus the perspective margins.
  var flatWidth: Int { table.width + 2 * table.marginX }

  func paint(_ g: inout SeededGenerator) {
    switch table.look.table {
    case .wood: wood(&g)
    case .cloth: cloth(&g)
    case .laminate: laminate(&g)
    case .mat: mat(&g)
    }
    let a = table.look.lightAngleDeg * .pi / 180
    if let box = table.gameBox { gameBox(box, dx: -cos(a), dy: -sin(a)) }
    for p in table.thumbnails + table.cards {
      shadow(p, dx: -cos(a), dy: -sin(a))
      ctx.save()
      ctx.translate(p.x, p.y)
      ctx.rotate(p.rotationDeg * .pi / 180)
      CardPainter(ctx: ctx, h: p.heightPx, faint: table.look.faint, print: table.look.print).paint(p.card)
      ctx.restore()
    }
    if let glare = table.look.realism?.glare { self.glare(glare) }
  }

  /// Soft shadow: stacked translucent card outlines, growing and offset away from the light.
  func shadow(_ p: SetTable.PlacedCard, dx: Double, dy: Double) {
    let strength = table.look.shadow
    guard strength > 0 else { return }
    let off = p.heightPx * 0.025
    for k in 0..<5 {
      let grow = p.heightPx * 0.006 * Double(k)
      ctx.save()
      ctx.translate(p.x + dx * off, p.y + dy * off)
      ctx.rotate(p.rotationDeg * .pi / 180)
      let painter = CardPainter(ctx: ctx, h: p.heightPx, faint: 0)
      let w = painter.width + 2 * grow, hh = p.heightPx + 2 * grow
      painter.roundedRect(x: -w / 2, y: -hh / 2, w: w, h: hh, r: p.heightPx / 28 + grow)
      ctx.setSource(Color(r: 0.05, g: 0.03, b: 0.02, a: 0.075 * strength))
      ctx.fill()
      ctx.restore()
    }
  }

  func shade(_ base: Color, _ k: Double, alpha: Double = 1) -> Color {
    Color(r: min(1, base.r * k), g: min(1, base.g * k), b: min(1, base.b * k), a: alpha)
  }

  /// Horizontal boards with wavy grain lines, a few knots and dark seams.
  func wood(_ g: inout SeededGenerator) {
    let W = Double(flatWidth), H = Double(table.height)
    let base = Color(hex: table.look.tableColor)
    var y = -g.uniform(0...H / 5)
    while y < H {
      let board = H * g.uniform(0.16...0.26)
      ctx.rectangle(x: 0, y: y, width: W, height: board)
      ctx.setSource(shade(base, g.uniform(0.88...1.1)))
      ctx.fill()
      for _ in 0..<Int(board / 3) {
        var gy = y + g.uniform(0...board)
        let amp = g.uniform(0.5...board * 0.04), period = g.uniform(W / 6...W / 2)
        ctx.moveTo(0, gy)
        var x = 0.0
        while x < W {
          let nx = x + period / 2, ny = gy + g.uniform(-amp...amp)
          ctx.curveTo(x + period / 6, gy, nx - period / 6, ny, nx, ny)
          x = nx
          gy = ny
        }
        ctx.setSource(shade(base, g.uniform(0.55...0.8), alpha: g.uniform(0.12...0.35)))
        ctx.setLineWidth(g.uniform(0.5...2.2))
        ctx.stroke()
      }
      if g.chance(0.5) {
        let kx = g.uniform(0...W), ky = y + g.uniform(0.2...0.8) * board
        for ring in 1...4 {
          ctx.save()
          ctx.translate(kx, ky)
          ctx.scale(3, 1)
          ctx.newSubPath()
          ctx.arc(cx: 0, cy: 0, radius: board * 0.04 * Double(ring), from: 0, to: 2 * .pi)
          ctx.restore()
          ctx.setSource(shade(base, 0.6, alpha: 0.25))
          ctx.setLineWidth(1.2)
          ctx.stroke()
        }
      }
      ctx.rectangle(x: 0, y: y + board - 1.5, width: W, height: 1.5)
      ctx.setSource(shade(base, 0.35, alpha: 0.8))
      ctx.fill()
      y += board
    }
  }

  /// Fills the flat table with its base colour; returns its width, height and that colour.
  func paintBase() -> (Double, Double, Color) {
    let W = Double(flatWidth), H = Double(table.height)
    let base = Color(hex: table.look.tableColor)
    ctx.rectangle(x: 0, y: 0, width: W, height: H)
    ctx.setSource(base)
    ctx.fill()
    return (W, H, base)
  }

  /// Felt or tablecloth: base colour, blotchy light, a fine two-way weave.
  func cloth(_ g: inout SeededGenerator) {
    let (W, H, base) = paintBase()
    for _ in 0..<14 {
      let cx = g.uniform(0...W), cy = g.uniform(0...H), r = g.uniform(0.1...0.4) * max(W, H)
      let tint = shade(base, g.uniform(0.8...1.2), alpha: 0.18)
      ctx.setRadialGradient(cx0: cx, cy0: cy, r0: 0, cx1: cx, cy1: cy, r1: r,
                            stops: [(0, tint), (1, Color(r: tint.r, g: tint.g, b: tint.b, a: 0))])
      ctx.rectangle(x: 0, y: 0, width: W, height: H)
      ctx.fill()
    }
    let pitch = 2.0
    var v = 0.0
    while v < H {
      ctx.rectangle(x: 0, y: v, width: W, height: 0.8)
      v += pitch
    }
    ctx.setSource(shade(base, 0.6, alpha: 0.18))
    ctx.fill()
    v = 0
    while v < W {
      ctx.rectangle(x: v, y: 0, width: 0.8, height: H)
      v += pitch
    }
    ctx.setSource(shade(base, 1.4, alpha: 0.12))
    ctx.fill()
  }
}
