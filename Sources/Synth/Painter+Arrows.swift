import Canvas

extension Painter {
  /// Holes first (under everything), then shafts from the farthest nock to the
  /// nearest so crossing shafts occlude each other correctly.
  func paintArrows() {
    for a in scene.arrows {
      let r = a.shaftMM / 2000 * unitsPerMetre
      fillPolygon(circle(cx: a.x, cy: a.y, r: r * 1.45), Color(hex: 0x6E6455, alpha: 0.45))
      fillPolygon(circle(cx: a.x, cy: a.y, r: r), Color(hex: 0x15110D))
    }
    for s in scene.shaftsInPaintOrder { paintShaft(s) }
  }

  func paintShaft(_ s: ShaftGeometry) {
    let a = s.arrow
    if let q = scene.silhouette(s) {
      // Cylinder shading across the shaft: dark rims, a highlight off-centre.
      let base = color(a.shaftColor)
      let lit = Color(r: min(1, base.r + 0.35), g: min(1, base.g + 0.35), b: min(1, base.b + 0.35))
      let dark = Color(r: base.r * 0.5, g: base.g * 0.5, b: base.b * 0.5)
      let mx = (q.p0.0 + q.p1.0) / 2, my = (q.p0.1 + q.p1.1) / 2, mw = (q.w0 + q.w1) / 2
      ctx.setLinearGradient(x0: mx - q.nx * mw, y0: my - q.ny * mw, x1: mx + q.nx * mw, y1: my + q.ny * mw,
                            stops: [(0, dark), (0.35, lit), (0.6, base), (1, dark)])
      ctx.polygon(q.quad)
      ctx.fill()
    }
    for v in scene.vanes(s) {
      fillPolygon(v.pixels, color(a.fletchColor, 0.92))
      ctx.setSource(Color(hex: 0x000000, alpha: 0.35))
      ctx.setLineWidth(0.8)
      ctx.polygon(v.pixels)
      ctx.stroke()
    }
    // Nock: a short coloured cylinder end.
    let n = scene.nockDisc(s)
    ctx.setSource(color(a.nockColor))
    ctx.arc(cx: n.x, cy: n.y, radius: n.r, from: 0, to: 2 * .pi)
    ctx.fill()
  }
}
