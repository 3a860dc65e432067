import Canvas
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Painter {
  /// The wall or field behind the boss.
  func paintBackground(_ g: inout SeededGenerator) {
    let w = Double(camera.width), h = Double(camera.height)
    let walls: [UInt32] = [0x6E7B5A, 0x8C8577, 0x4F5A44, 0x9AA3A8, 0x5B4A3A]
    let base = g.pick(walls)
    switch scene.look.background {
    case .plain:
      ctx.setSource(color(base))
      ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
    case .gradient:
      ctx.setLinearGradient(x0: 0, y0: 0, x1: w * g.uniform(0...1), y1: h,
                            stops: [(0, color(base)), (1, color(g.pick(walls)))])
      ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
    case .straw:
      ctx.setSource(color(0xB89A5E))
      ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
      strands(count: Int(w * h / 900), in: (0, 0, w, h), &g)
    }
  }

  /// Short straw strokes in image space (background) — cheap texture.
  func strands(count: Int, in r: (Double, Double, Double, Double), _ g: inout SeededGenerator) {
    let tones: [UInt32] = [0xD9BF7E, 0x9C7E45, 0xE8D59A, 0x7D6436]
    ctx.setLineWidth(1.2)
    for _ in 0..<count {
      let x = r.0 + g.unit() * r.2, y = r.1 + g.unit() * r.3
      let len = g.uniform(6...28), a = g.uniform(-0.6...0.6) + (g.chance(0.5) ? 0 : .pi / 2)
      ctx.setSource(color(g.pick(tones), 0.55))
      ctx.moveTo(x, y); ctx.lineTo(x + len * cos(a), y + len * sin(a)); ctx.stroke()
    }
  }

  /// The boss the face is pinned to: straw strands or foam speckles drawn on
  /// the face plane, so they tilt with it.
  func paintBoss(_ g: inout SeededGenerator) {
    let b = sheetHalf * 1.38
    let corners = outline([(-b, -b), (b, -b), (b, b), (-b, b)])
    fillPolygon(corners, color(scene.look.bossColor))
    let n = scene.look.boss == .straw ? 900 : 1400
    let tones: [UInt32] = scene.look.boss == .straw
      ? [0xE3C98C, 0x9F8048, 0xF0DDA6, 0x806539] : [0xBFC2BA, 0xEFEDE6, 0xA9ADA4]
    ctx.setLineWidth(scene.look.boss == .straw ? 1.3 : 2.0)
    ctx.setLineCap(.round)
    for _ in 0..<n {
      let x = g.uniform(-b...b), y = g.uniform(-b...b)
      let len = scene.look.boss == .straw ? g.uniform(0.03...0.12) : 0.002
      let a = g.uniform(-0.5...0.5) + (g.chance(0.5) ? 0 : .pi / 2)
      let p = camera.project(u: x, v: y), q = camera.project(u: x + len * cos(a), v: y + len * sin(a))
      ctx.setSource(color(g.pick(tones), 0.6))
      ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y); ctx.stroke()
    }
    ctx.setLineCap(.butt)
  }
}
