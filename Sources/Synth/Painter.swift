import Canvas
import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws one resolved scene into a cairo context, back to front. Everything on
/// the face plane goes through the camera, so tilt is projective, not affine.
struct Painter {
  let scene: Scene
  let ctx: Context
  var camera: Camera { scene.camera }
  var face: Face { scene.face }

  /// Face units per metre on the sheet.
  var unitsPerMetre: Double { scene.unitsPerMetre }

  /// Half-size of the paper sheet in face units.
  var sheetHalf: Double { face.spots.count == 1 ? 1.06 : 1.05 }

  func color(_ hex: UInt32, _ alpha: Double = 1) -> Color { Color(hex: hex, alpha: alpha) }

  /// Projects a closed outline given in face units.
  func outline(_ pts: [(Double, Double)]) -> [(Double, Double)] {
    pts.map { let p = camera.project(u: $0.0, v: $0.1); return (p.x, p.y) }
  }

  /// A circle on the face as a projected polygon, finely enough sampled that
  /// its edges are within a small fraction of a pixel of the true conic.
  func circle(cx: Double, cy: Double, r: Double) -> [(Double, Double)] {
    let px = r * camera.pixelsPerUnit(u: cx, v: cy)
    return camera.projectCircle(cx: cx, cy: cy, r: r, points: max(48, min(1440, Int(px * 1.5))))
  }

  func fillPolygon(_ pts: [(Double, Double)], _ c: Color) {
    ctx.setSource(c)
    ctx.polygon(pts)
    ctx.fill()
  }

  /// A ring line: the band between two circles, filled even-odd, so its width
  /// follows the perspective like the printed line does.
  func annulus(cx: Double, cy: Double, inner: Double, outer: Double, _ c: Color) {
    ctx.setSource(c)
    ctx.setFillRule(.evenOdd)
    ctx.polygon(circle(cx: cx, cy: cy, r: outer))
    ctx.polygon(circle(cx: cx, cy: cy, r: max(0, inner)))
    ctx.fill()
    ctx.setFillRule(.winding)
  }

  /// Paints the whole scene.
  func paint(_ g: inout SeededGenerator) {
    var bg = g.fork("background")
    var paper = g.fork("paper")
    var holes = g.fork("old-holes")
    // A realistic scene's own draws: one generator from its look, never the classic streams.
    var real = SeededGenerator(seed: scene.realistic?.paintSeed ?? 0)
    if let r = scene.realistic {
      paintBackdrop(r, &real)
      paintGrass(r, &real)
      paintMountBehind(r, &real)
    } else {
      paintBackground(&bg)
    }
    paintBoss(&bg)
    if let r = scene.realistic { paintBossPatches(r, &real) }
    paintSheet(&paper)
    for spot in face.spots { paintSpot(spot) }
    if let r = scene.realistic {
      paintStains(r, &real)
      paintNumerals(r, &real)
      paintMarkers(r, &real)
    }
    paintOldHoles(&holes)
    if scene.look.tornCentre { paintTornCentres(&paper) }
    paintPins(&paper)
    if let r = scene.realistic { paintStandFront(r, &real) }
    paintArrows()
  }

  func paintSpot(_ s: Spot) {
    let pxPerUnit = camera.pixelsPerUnit(u: s.x, v: s.y)
    // WA lines are at most 2 mm; keep them at least ~0.8 px so they survive blur.
    let line = max(face.lineWidth(diameterCm: scene.diameterCm) * s.radius, 0.8 / pxPerUnit)
    for (i, zone) in face.zones.enumerated().reversed() {
      fillPolygon(circle(cx: s.x, cy: s.y, r: zone.radius * s.radius), printed(zone, index: i).fill)
    }
    for (i, zone) in face.zones.enumerated() {
      let r = zone.radius * s.radius
      annulus(cx: s.x, cy: s.y, inner: r - line / 2, outer: r + line / 2, printed(zone, index: i).line)
    }
    // The small centre cross printed on WA faces.
    let arm = 0.012 * s.radius
    ctx.setSource(Color(hex: 0x202020, alpha: 0.8))
    ctx.setLineWidth(max(0.6, line * pxPerUnit * 0.5))
    for (a, b) in [((s.x - arm, s.y), (s.x + arm, s.y)), ((s.x, s.y - arm), (s.x, s.y + arm))] {
      let p = camera.project(u: a.0, v: a.1), q = camera.project(u: b.0, v: b.1)
      ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y)
    }
    ctx.stroke()
  }

  func paintSheet(_ g: inout SeededGenerator) {
    let h = sheetHalf
    // A soft shadow under the sheet, then the sheet with one dog-eared corner.
    let shadow = outline([(-h + 0.02, -h + 0.03), (h + 0.02, -h + 0.03), (h + 0.02, h + 0.03), (-h + 0.02, h + 0.03)])
    fillPolygon(shadow, Color(hex: 0x000000, alpha: 0.18))
    let fold = g.uniform(0.04...0.12)
    let corner = g.int(0...3)
    var pts: [(Double, Double)] = [(-h, -h), (h, -h), (h, h), (-h, h)]
    let c = pts[corner], sx = c.0 > 0 ? -1.0 : 1.0, sy = c.1 > 0 ? -1.0 : 1.0
    let a = (c.0 + sx * fold, c.1), b = (c.0, c.1 + sy * fold)
    pts.replaceSubrange(corner...corner, with: corner % 2 == 0 ? [b, a] : [a, b])
    fillPolygon(outline(pts), color(scene.look.paper))
    fillPolygon(outline([a, b, (c.0 + sx * fold * 0.9, c.1 + sy * fold * 0.9)]), Color(hex: 0xD8D4C8))
  }

  func paintPins(_ g: inout SeededGenerator) {
    let h = sheetHalf - 0.035
    let pinColors: [UInt32] = [0xE02020, 0x2060E0, 0x20A040, 0xF0C000, 0xF0F0F0]
    for (x, y) in [(-h, -h), (h, -h), (h, h), (-h, h)] {
      let jx = x + g.uniform(-0.01...0.01), jy = y + g.uniform(-0.01...0.01)
      fillPolygon(circle(cx: jx + 0.006, cy: jy + 0.008, r: 0.022), Color(hex: 0, alpha: 0.3))
      fillPolygon(circle(cx: jx, cy: jy, r: 0.02), color(g.pick(pinColors)))
      fillPolygon(circle(cx: jx - 0.006, cy: jy - 0.006, r: 0.006), Color(hex: 0xFFFFFF, alpha: 0.6))
    }
  }

  func paintOldHoles(_ g: inout SeededGenerator) {
    for _ in 0..<scene.look.oldHoles {
      let spot = face.spots[g.int(0...(face.spots.count - 1))]
      let r = min(1.2, abs(g.gaussian()) * 0.45) * spot.radius
      let t = g.uniform(0...(2 * .pi))
      let x = spot.x + r * cos(t), y = spot.y + r * sin(t)
      let holeR = g.uniform(2.0...4.5) / 1000 * unitsPerMetre
      fillPolygon(circle(cx: x, cy: y, r: holeR * 1.5), Color(hex: 0x8A8070, alpha: 0.35))
      fillPolygon(circle(cx: x, cy: y, r: holeR), Color(hex: 0x241E18, alpha: 0.9))
    }
  }

  func paintTornCentres(_ g: inout SeededGenerator) {
    for spot in face.spots {
      let base = g.uniform(0.03...0.09) * spot.radius
      let n = 40
      let pts: [(Double, Double)] = (0..<n).map { i in
        let t = Double(i) / Double(n) * 2 * .pi
        let r = base * g.uniform(0.6...1.35)
        return (spot.x + r * cos(t), spot.y + r * sin(t))
      }
      fillPolygon(outline(pts.map { ($0.0 + 0.004, $0.1 + 0.004) }), Color(hex: 0x3A3128, alpha: 0.5))
      fillPolygon(outline(pts), color(scene.look.bossColor))
    }
  }
}

extension Color {
  /// A face paint from the scoring table.
  init(_ c: RGB8) { self.init(RGBA(c.r, c.g, c.b)) }
}
