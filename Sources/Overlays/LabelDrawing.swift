import Canvas

/// How a set of labels looks: font, plate padding and colours. Measuring and
/// drawing go through the same style so the layout's plates are the drawn ones.
package struct LabelStyle: Sendable {
  /// fontconfig family.
  package var family = "DejaVu Sans"
  /// Bold face.
  package var bold = true
  /// Font size in pixels.
  package var size: Double
  /// Clear space around the ink inside the plate.
  package var pad: Double
  /// Plate colour and alpha.
  package var plate: UInt32 = 0x000000, plateAlpha = 0.65
  /// Text colour.
  package var ink: UInt32 = 0xFFFFFF
  /// Leader-line colour.
  package var leader: UInt32 = 0xFFFFFF

  /// A style of `size` px text with `pad` px around it.
  package init(size: Double, pad: Double) {
    self.size = size
    self.pad = pad
  }

  /// Sets the context's font to this style.
  package func apply(_ ctx: Context) {
    ctx.selectFont(family: family, bold: bold)
    ctx.setFontSize(size)
  }

  /// The plate size of each text: cairo's ink extents plus padding.
  package func sizes(_ ctx: Context, _ texts: [String]) -> [(width: Double, height: Double)] {
    apply(ctx)
    return texts.map { t in
      let e = ctx.textExtents(t)
      return (e.width + 2 * pad, max(e.height, size * 0.75) + 2 * pad)
    }
  }
}

/// Draws labels where `LabelLayout.place` put them: plates with text, leader
/// lines from the point to the plate's nearest edge, callout numbers; returns
/// the margin list ("k  text", in number order) the caller draws in its margin.
package enum LabelDrawing {
  /// Draws `texts` for `points` per `placements`; returns the callout rows.
  @discardableResult
  package static func draw(
    _ ctx: Context, texts: [String], points: [(x: Double, y: Double)], placements: [Placement], style: LabelStyle
  ) -> [String] {
    style.apply(ctx)
    var margin: [(Int, String)] = []
    for (i, p) in placements.enumerated() {
      let text = p.callout.map(String.init) ?? texts[i]
      if let k = p.callout { margin.append((k, "\(k)  \(texts[i])")) }
      guard let r = p.rect else { continue }
      if p.leader {
        let e = r.nearestEdgePoint(to: points[i].x, points[i].y)
        ctx.setSource(Color(hex: style.leader, alpha: 0.9))
        ctx.setLineWidth(1)
        ctx.moveTo(points[i].x, points[i].y)
        ctx.lineTo(e.x, e.y)
        ctx.stroke()
      }
      plate(ctx, text, in: r, style: style)
    }
    return margin.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// One plate with its text, the ink's box centred in `r`.
  package static func plate(_ ctx: Context, _ text: String, in r: LabelRect, style: LabelStyle) {
    ctx.setSource(Color(hex: style.plate, alpha: style.plateAlpha))
    ctx.rectangle(x: r.x, y: r.y, width: r.width, height: r.height)
    ctx.fill()
    let e = ctx.textExtents(text)
    ctx.setSource(Color(hex: style.ink))
    ctx.moveTo(r.x + (r.width - e.width) / 2 - e.xBearing, r.y + (r.height - e.height) / 2 - e.yBearing)
    ctx.showText(text)
  }

  /// Width of a margin column holding `rows` in `style` (0 when there are none).
  package static func marginWidth(_ ctx: Context, _ rows: [String], style: LabelStyle) -> Double {
    guard !rows.isEmpty else { return 0 }
    return (style.sizes(ctx, rows).map(\.width).max() ?? 0) + 12
  }

  /// The margin list, one row per callout from (x, y) down; `lineHeight` apart.
  package static func drawMargin(_ ctx: Context, _ rows: [String], x: Double, y: Double, lineHeight: Double, style: LabelStyle) {
    style.apply(ctx)
    ctx.setSource(Color(hex: style.ink))
    for (i, row) in rows.enumerated() {
      ctx.moveTo(x, y + Double(i + 1) * lineHeight)
      ctx.showText(row)
    }
  }
}
