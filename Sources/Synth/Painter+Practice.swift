import Canvas
import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is printed on a realistic face besides the rings: score numerals in
/// the rings, square markers in the sheet's corners (practice faces), and the
/// stains of a worn one.
extension Painter {
  /// Each ring's score printed in it, left and right of the centre (and above
  /// and below on a practice face), in the ring's contrasting colour.
  func paintNumerals(_ real: RealisticLook, _ g: inout SeededGenerator) {
    guard real.printed == .practice || g.chance(0.3) else { return }
    ctx.selectFont(family: "DejaVu Sans", bold: true)
    for s in face.spots {
      var inner = 0.0
      for (i, zone) in face.zones.enumerated() {
        defer { inner = zone.radius }
        guard !zone.isX else { continue }
        let mid = (inner + zone.radius) / 2 * s.radius, band = (zone.radius - inner) * s.radius
        let px = band * camera.pixelsPerUnit(u: s.x, v: s.y)
        guard px >= 5 else { continue }
        let ink = printed(zone, index: i).line
        ctx.setSource(ink)
        ctx.setFontSize(px * 0.6)
        let places = real.printed == .practice ? [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] : [(1.0, 0.0), (-1.0, 0.0)]
        for (dx, dy) in places {
          let p = camera.project(u: s.x + dx * mid, v: s.y + dy * mid)
          let e = ctx.textExtents(zone.label)
          ctx.moveTo(p.x - e.width / 2 - e.xBearing, p.y - e.height / 2 - e.yBearing)
          ctx.showText(zone.label)
        }
      }
    }
  }

  /// Four square markers in the sheet's corners: a black square with a 4×4
  /// pattern of white cells inside a one-cell border, as fiducial markers are.
  func paintMarkers(_ real: RealisticLook, _ g: inout SeededGenerator) {
    guard real.printed == .practice else { return }
    let side = 0.16, cell = side / 6, at = sheetHalf - 0.03 - side / 2
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
      let cx = sx * at, cy = sy * at, x0 = cx - side / 2, y0 = cy - side / 2
      fillPolygon(outline([(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]), color(0x111111))
      for row in 1...4 {
        for col in 1...4 where g.chance(0.5) {
          let u = x0 + Double(col) * cell, v = y0 + Double(row) * cell
          fillPolygon(outline([(u, v), (u + cell, v), (u + cell, v + cell), (u, v + cell)]), color(0xF4F4F0))
        }
      }
    }
  }

  /// A worn face's water and dirt stains: soft brown blobs on the sheet.
  func paintStains(_ real: RealisticLook, _ g: inout SeededGenerator) {
    guard real.printed == .worn else { return }
    for _ in 0..<g.int(3...8) {
      let cx = g.uniform(-1...1), cy = g.uniform(-1...1), r = g.uniform(0.05...0.25), n = 12
      let pts: [(Double, Double)] = (0..<n).map { i in
        let t = Double(i) / Double(n) * 2 * .pi, rr = r * g.uniform(0.7...1.2)
        return (cx + rr * cos(t), cy + rr * sin(t))
      }
      fillPolygon(outline(pts), color(g.pick([0x7A6040, 0x5C5040, 0x9A8A6A] as [UInt32]), g.uniform(0.08...0.22)))
    }
  }
}
