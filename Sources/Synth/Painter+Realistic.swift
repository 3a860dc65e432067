import Canvas
import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a realistic scene draws besides the classic one. Every draw here comes
/// from the look's own `paintSeed`, so classic scenes are untouched.
extension Painter {
  /// A zone's fill and line as printed: the face's colours, grey on
  /// a practice face (each zone at its luma, as an office printer prints it), or faded on a worn one.
  func printed(_ zone: Zone, index: Int) -> (fill: Color, line: Color) {
    guard let real = scene.realistic else { return (Color(zone.fill), Color(zone.line)) }
    switch real.printed {
    case .colour:
      return (Color(zone.fill), Color(zone.line))
    case .practice:
      // A practice face printed on an office printer: the colour face in grey, each zone at its own luma.
      func grey(_ c: RGB8) -> Color {
        let l = (0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)) / 255
        return Color(r: l, g: l, b: l)
      }
      return (grey(zone.fill), grey(zone.line))
    case .worn:
      let paper = color(scene.look.paper), f = Color(zone.fill), k = 0.35
      let faded = Color(r: f.r + (paper.r - f.r) * k, g: f.g + (paper.g - f.g) * k, b: f.b + (paper.b - f.b) * k)
      return (faded, Color(zone.line))
    }
  }

  /// Behind the boss: a block wall, a hedge under a pale sky, or a dark hall.
  func paintBackdrop(_ real: RealisticLook, _ g: inout SeededGenerator) {
    let w = Double(camera.width), h = Double(camera.height)
    switch real.backdrop {
    case .wall:
      let base = g.pick([0xA8A39A, 0x8F8A80, 0xB7AE9E, 0x9C9486] as [UInt32])
      ctx.setSource(color(base)); ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
      let bw = w * g.uniform(0.08...0.16), bh = bw * 0.5
      var y = 0.0, row = 0
      while y < h {
        var x = row % 2 == 0 ? 0 : -bw / 2
        while x < w {
          ctx.setSource(color(base, 1).shaded(g.uniform(-0.07...0.07)))
          ctx.rectangle(x: x + 1.5, y: y + 1.5, width: bw - 3, height: bh - 3); ctx.fill()
          x += bw
        }
        y += bh; row += 1
      }
    case .hedge:
      ctx.setLinearGradient(x0: 0, y0: 0, x1: 0, y1: h, stops: [(0, color(0xC9D3DC)), (0.25, color(0x3E5A32)), (1, color(0x2C4424))])
      ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
      let leaves: [UInt32] = [0x4F7A3A, 0x2F4A22, 0x6A8F45, 0x1F3318]
      for _ in 0..<Int(w * h / 500) {
        let x = g.unit() * w, y = h * 0.2 + g.unit() * h * 0.8
        ctx.setSource(color(g.pick(leaves), 0.7))
        ctx.arc(cx: x, cy: y, radius: g.uniform(1...4), from: 0, to: 2 * .pi); ctx.fill()
      }
    case .hall:
      ctx.setLinearGradient(x0: 0, y0: 0, x1: 0, y1: h, stops: [(0, color(0x2A2C30)), (0.7, color(0x45474B)), (1, color(0x6B665E))])
      ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
    }
  }

  /// Grass over the bottom of the picture: a green band and thousands of blades.
  func paintGrass(_ real: RealisticLook, _ g: inout SeededGenerator) {
    guard real.grass > 0 else { return }
    let w = Double(camera.width), h = Double(camera.height), top = h * (1 - real.grass)
    ctx.setSource(color(g.pick([0x4E6B2E, 0x5F7A35, 0x6E7F3C] as [UInt32])))
    ctx.rectangle(x: 0, y: top, width: w, height: h - top); ctx.fill()
    let blades: [UInt32] = [0x3B5522, 0x7E9A48, 0x9DB060, 0x2E441A, 0xB7B26A]
    ctx.setLineCap(.round)
    for _ in 0..<Int(w * (h - top) / 60) {
      let x = g.unit() * w, y = top + g.unit() * (h - top)
      let len = g.uniform(4...16) * (0.5 + (y - top) / max(1, h - top)), lean = g.uniform(-0.5...0.5)
      ctx.setLineWidth(g.uniform(0.8...2.2))
      ctx.setSource(color(g.pick(blades), 0.8))
      ctx.moveTo(x, y); ctx.lineTo(x + lean * len, y - len); ctx.stroke()
    }
    ctx.setLineCap(.butt)
  }

  /// The boss's outline in pixels (the square the classic boss fills).
  var bossCorners: [(Double, Double)] {
    let b = sheetHalf * 1.38
    return outline([(-b, -b), (b, -b), (b, b), (-b, b)])
  }

  /// What holds the boss: an aluminium stand (legs behind, a bolted bar in
  /// front, drawn by `paintStandFront`) or a wooden post beside it.
  func paintMountBehind(_ real: RealisticLook, _ g: inout SeededGenerator) {
    let c = bossCorners, h = Double(camera.height)
    let topY = min(c[0].1, c[1].1)
    let span = abs(c[1].0 - c[0].0), width = max(3, span * 0.04)
    switch real.mount {
    case .stand:
      let apexX = (c[0].0 + c[1].0) / 2 + g.uniform(-0.1...0.1) * span, apexY = topY - span * g.uniform(0.05...0.25)
      for (footX, shade) in [(c[3].0 - span * 0.25, 0.0), (c[2].0 + span * 0.25, -0.1)] {
        let metal = color(0xB9BEC4).shaded(shade)
        ctx.setSource(metal); ctx.setLineWidth(width)
        ctx.moveTo(apexX, apexY); ctx.lineTo(footX, h + width); ctx.stroke()
        ctx.setSource(color(0xFFFFFF, 0.35)); ctx.setLineWidth(width * 0.25)
        ctx.moveTo(apexX - width * 0.2, apexY); ctx.lineTo(footX - width * 0.2, h + width); ctx.stroke()
      }
    case .post:
      let side = g.chance(0.5) ? -1.0 : 1.0
      let x = (side < 0 ? min(c[0].0, c[3].0) : max(c[1].0, c[2].0)) + side * span * g.uniform(-0.05...0.2)
      let pw = span * g.uniform(0.12...0.25)
      ctx.setSource(color(g.pick([0x7A5A3A, 0x6B4F33, 0x8C6C48] as [UInt32])))
      ctx.rectangle(x: x - pw / 2, y: 0, width: pw, height: h); ctx.fill()
      for _ in 0..<Int(pw / 3) {
        let gx = x - pw / 2 + g.unit() * pw
        ctx.setSource(color(0x3E2A18, 0.35)); ctx.setLineWidth(g.uniform(0.6...1.6))
        ctx.moveTo(gx, 0); ctx.lineTo(gx + g.uniform(-4...4), h); ctx.stroke()
      }
    case .none:
      break
    }
  }

  /// The stand's front bar under the boss with its bolts: small round dark
  /// heads with a bright rim, the things detectors took for arrows.
  func paintStandFront(_ real: RealisticLook, _ g: inout SeededGenerator) {
    guard real.mount == .stand else { return }
    let c = bossCorners, span = abs(c[1].0 - c[0].0), width = max(3, span * 0.05)
    let y0 = c[3].1 + width * 0.2, y1 = c[2].1 + width * 0.2
    ctx.setSource(color(0xAEB3B9)); ctx.setLineWidth(width)
    ctx.moveTo(c[3].0 - span * 0.1, y0); ctx.lineTo(c[2].0 + span * 0.1, y1); ctx.stroke()
    for k in 0..<g.int(3...6) {
      let t = (Double(k) + 0.5) / 6
      let x = c[3].0 + (c[2].0 - c[3].0) * t, y = y0 + (y1 - y0) * t
      let r = width * g.uniform(0.22...0.4)
      ctx.setSource(color(0x2A2A2A)); ctx.arc(cx: x, cy: y, radius: r, from: 0, to: 2 * .pi); ctx.fill()
      ctx.setSource(color(0xF0F0F0, 0.7)); ctx.arc(cx: x - r * 0.3, cy: y - r * 0.3, radius: r * 0.35, from: 0, to: 2 * .pi); ctx.fill()
    }
  }

  /// Paint daubs and sewn-in foam patches on the boss (the sheet covers some).
  func paintBossPatches(_ real: RealisticLook, _ g: inout SeededGenerator) {
    let b = sheetHalf * 1.38
    // Patches stay on the boss.
    ctx.save()
    ctx.polygon(bossCorners); ctx.clip()
    defer { ctx.restore() }
    let paints: [UInt32] = [0xC8322A, 0x2F5FA8, 0xE6C229, 0xF2F2EE, 0x1E1E1E, 0x3D8A4A]
    for _ in 0..<real.paintPatches {
      let cx = g.uniform(-b...b), cy = g.uniform(-b...b), r = g.uniform(0.06...0.3)
      let n = g.int(7...13)
      let pts: [(Double, Double)] = (0..<n).map { i in
        let t = Double(i) / Double(n) * 2 * .pi, rr = r * g.uniform(0.55...1.3)
        return (cx + rr * cos(t), cy + rr * sin(t))
      }
      fillPolygon(outline(pts), color(g.pick(paints), g.uniform(0.5...0.9)))
    }
    for _ in 0..<real.foamPatches {
      let cx = g.uniform(-b...b), cy = g.uniform(-b...b), hw = g.uniform(0.1...0.35), hh = g.uniform(0.1...0.35)
      let quad = outline([(cx - hw, cy - hh), (cx + hw, cy - hh), (cx + hw, cy + hh), (cx - hw, cy + hh)])
      fillPolygon(quad, color(real.bossColor).shaded(g.uniform(-0.15...0.15)))
      ctx.setSource(color(0x000000, 0.4)); ctx.setLineWidth(1.2); ctx.polygon(quad); ctx.stroke()
    }
  }
}

extension Color {
  /// Lighter (amount > 0) or darker (amount < 0) by that share of the way to white or black.
  func shaded(_ amount: Double) -> Color {
    // Towards white: keep (1 − amount) of the gap to 1; towards black: keep (1 + amount) of the value.
    let keep: Double = amount >= 0 ? 1 - amount : 1 + amount, target: Double = amount >= 0 ? 1 : 0
    func mix(_ v: Double) -> Double { target + (v - target) * keep }
    return Color(r: mix(r), g: mix(g), b: mix(b), a: a)
  }
}
