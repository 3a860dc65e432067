import Canvas

/// One row of a legend: how a thing is drawn (mark and colour) and what it means.
package struct LegendEntry: Sendable, Hashable {
  /// The swatch's shape, as the overlay draws the thing it stands for.
  package enum Mark: Sendable, Hashable { case box, dashedBox, dottedBox, disc, ring, dashedRing, line, tint }
  /// Swatch shape.
  package var mark: Mark
  /// Swatch colour, 0xRRGGBB.
  package var colour: UInt32
  /// What it means, a few words.
  package var meaning: String
}

/// The legends of every overlay, as data: one table per overlay, the same
/// table `docs/overlays.md` writes out. An overlay draws its table and a
/// facts line (rule, profile, semantics in force); nothing else decides colours.
package enum Legend {
  /// The archery run overlay (`overlay-<profile>.png`).
  package static let archery: [LegendEntry] = [
    LegendEntry(mark: .box, colour: 0xFF3B30, meaning: "detection, confidence ≥ 0.7"),
    LegendEntry(mark: .box, colour: 0xFF9500, meaning: "detection, confidence ≥ 0.5"),
    LegendEntry(mark: .box, colour: 0xFF5722, meaning: "detection, confidence < 0.5"),
    LegendEntry(mark: .disc, colour: 0x34C759, meaning: "manual marker"),
    LegendEntry(mark: .dashedRing, colour: 0xFFFFFF, meaning: "true impact (truth or marks)"),
    LegendEntry(mark: .line, colour: 0xFF2D95, meaning: "error: truth → detection"),
    LegendEntry(mark: .ring, colour: 0x00E5FF, meaning: "fitted target outline"),
    LegendEntry(mark: .line, colour: 0xAF52DE, meaning: "drag path"),
    LegendEntry(mark: .tint, colour: 0x34C759, meaning: "placement mode"),
  ]

  /// The ground-truth overlay (`synth --overlay`).
  package static let truth: [LegendEntry] = [
    LegendEntry(mark: .ring, colour: 0x00E676, meaning: "impact, scoring"),
    LegendEntry(mark: .ring, colour: 0xFFD700, meaning: "impact, X"),
    LegendEntry(mark: .ring, colour: 0x9E9E9E, meaning: "impact, miss"),
    LegendEntry(mark: .line, colour: 0x00E5FF, meaning: "outer scoring ring"),
  ]

  /// The Set-table overlay (`overlay-<n>.png`).
  package static let setcards: [LegendEntry] = [
    LegendEntry(mark: .box, colour: 0xFF0000, meaning: "card in the shown Set (Set n: palette n)"),
    LegendEntry(mark: .box, colour: 0x808080, meaning: "card outside the shown Set"),
    LegendEntry(mark: .box, colour: 0x44FF44, meaning: "the Set's crops"),
  ]

  /// The Set-table overlay under a profile that marks cards (`photos`): the
  /// seed's rows, then uncertain and off-table cards.
  package static let setcardsMarked: [LegendEntry] = setcards + [
    LegendEntry(mark: .dashedBox, colour: 0xFFB300, meaning: "uncertain card (? on its label), in no Set"),
    LegendEntry(mark: .dottedBox, colour: 0x808080, meaning: "off the table: thumbnail, box or edge strip"),
  ]

  /// The obstacle frame overlay (`frame-<n>.png`).
  package static let obstacles: [LegendEntry] = [
    LegendEntry(mark: .box, colour: 0x00E676, meaning: "YOLO box matched"),
    LegendEntry(mark: .box, colour: 0x00B8D4, meaning: "YOLO box kept"),
    LegendEntry(mark: .dashedBox, colour: 0x9E9E9E, meaning: "YOLO box dropped"),
    LegendEntry(mark: .dashedBox, colour: 0xFFD600, meaning: "Vision box"),
    LegendEntry(mark: .tint, colour: 0x2979FF, meaning: "Left zone"),
    LegendEntry(mark: .tint, colour: 0xFF9100, meaning: "Right zone"),
  ]

  /// Swatch and row geometry.
  static let rowHeight = 17.0, columnWidth = 250.0, fontSize = 11.0, swatch = 12.0

  /// Height of a legend band `width` wide: entries in columns, then one line per fact.
  package static func height(entries: [LegendEntry], facts: [String], width: Double) -> Double {
    let columns = max(1, Int(width / columnWidth))
    let rows = (entries.count + columns - 1) / columns
    return Double(rows + facts.count) * rowHeight + 8
  }

  /// Draws `entries` (in columns, row-major) and `facts` below them from (x, y), on a dark band.
  package static func draw(_ ctx: Context, entries: [LegendEntry], facts: [String], x: Double, y: Double, width: Double) {
    let h = height(entries: entries, facts: facts, width: width)
    ctx.setSource(Color(hex: 0x000000, alpha: 0.6))
    ctx.rectangle(x: x, y: y, width: width, height: h)
    ctx.fill()
    ctx.selectFont(family: "DejaVu Sans", bold: false)
    ctx.setFontSize(fontSize)
    let columns = max(1, Int(width / columnWidth))
    for (i, e) in entries.enumerated() {
      let ex = x + 6 + Double(i % columns) * columnWidth, ey = y + 4 + Double(i / columns) * rowHeight
      drawSwatch(ctx, e, x: ex, y: ey + 2)
      ctx.setSource(Color(hex: 0xFFFFFF))
      ctx.moveTo(ex + swatch + 6, ey + rowHeight - 5)
      ctx.showText(e.meaning)
    }
    let top = y + 4 + Double((entries.count + columns - 1) / columns) * rowHeight
    ctx.setSource(Color(hex: 0xFFFFFF))
    for (k, f) in facts.enumerated() {
      ctx.moveTo(x + 6, top + Double(k + 1) * rowHeight - 5)
      ctx.showText(f)
    }
  }

  /// A 12 px swatch drawn the way the overlay draws the thing.
  static func drawSwatch(_ ctx: Context, _ e: LegendEntry, x: Double, y: Double) {
    let s = swatch, c = Color(hex: e.colour)
    ctx.newPath()  // showText leaves a current point an arc would join
    ctx.setSource(c)
    ctx.setLineWidth(2)
    switch e.mark {
    case .box, .dashedBox, .dottedBox:
      ctx.setDash(e.mark == .dashedBox ? [3, 2] : e.mark == .dottedBox ? [1, 2] : [])
      ctx.rectangle(x: x + 1, y: y + 1, width: s - 2, height: s - 2)
      ctx.stroke()
    case .disc:
      ctx.arc(cx: x + s / 2, cy: y + s / 2, radius: s / 2, from: 0, to: 2 * .pi)
      ctx.fill()
    case .ring, .dashedRing:
      ctx.setDash(e.mark == .dashedRing ? [3, 2] : [])
      ctx.arc(cx: x + s / 2, cy: y + s / 2, radius: s / 2 - 1, from: 0, to: 2 * .pi)
      ctx.stroke()
    case .line:
      ctx.moveTo(x, y + s / 2)
      ctx.lineTo(x + s, y + s / 2)
      ctx.stroke()
    case .tint:
      ctx.setSource(Color(hex: e.colour, alpha: 0.5))
      ctx.rectangle(x: x, y: y, width: s, height: s)
      ctx.fill()
    }
    ctx.setDash([])
  }
}
