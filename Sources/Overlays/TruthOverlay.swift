import Canvas
import Synth
import Scoring

/// A review picture of the ground truth: the scoring outline of every spot,
/// each arrow's impact point with its score, and the end total.
package enum TruthOverlay {
  /// Draws the truth over `image`.
  package static func draw(_ truth: GroundTruth, on image: RGBA8Image) throws(SynthError) -> RGBA8Image {
    do {
      let scale = Double(max(truth.width, truth.height)) / 1280
      let probe = try Context(try Surface(width: 1, height: 1))
      let lay = layout(truth, probe)
      let margin = LabelDrawing.marginWidth(probe, lay.rows, style: marginStyle(scale))
      let facts = ["rule inclusive (the seed's camera path) · face \(truth.scene.face.id) · no profile: the scene's truth"]
      let legendHeight = Legend.height(entries: Legend.truth, facts: facts, width: Double(image.width) + margin)
      let rowsHeight = Double(lay.rows.count + 1) * 18 * scale
      let fullHeight = Int(max(Double(image.height), rowsHeight).rounded(.up) + legendHeight)
      let surface = try Surface(width: image.width + Int(margin.rounded(.up)), height: fullHeight)
      let ctx = try Context(surface)
      ctx.setSource(Color(hex: 0x1C1C1E)); ctx.paint()
      ctx.setSource(try Surface(image: image)); ctx.rectangle(x: 0, y: 0, width: Double(image.width), height: Double(image.height)); ctx.fill()
      // Outer scoring ring of each spot, projected.
      ctx.setSource(Color(hex: 0x00E5FF, alpha: 0.9))
      ctx.setLineWidth(2 * scale)
      for s in truth.scene.face.spots {
        ctx.polygon(truth.projectCircle(cx: s.x, cy: s.y, r: s.radius, points: 360))
        ctx.stroke()
      }
      for a in truth.arrows {
        let r = a.inclusive
        let tier = r.isMiss ? 0x9E9E9E : (r.isX ? 0xFFD700 : 0x00E676) as UInt32
        ctx.setSource(Color(hex: 0x000000, alpha: 0.6))
        ctx.arc(cx: a.pixelX, cy: a.pixelY, radius: 9 * scale, from: 0, to: 2 * .pi)
        ctx.setLineWidth(5 * scale)
        ctx.stroke()
        ctx.setSource(Color(hex: tier))
        ctx.arc(cx: a.pixelX, cy: a.pixelY, radius: 9 * scale, from: 0, to: 2 * .pi)
        ctx.setLineWidth(2.5 * scale)
        ctx.stroke()
      }
      LabelDrawing.draw(ctx, texts: lay.texts, points: lay.points, placements: lay.placements, style: style(scale))
      LabelDrawing.drawMargin(ctx, lay.rows, x: Double(image.width) + 6, y: 0, lineHeight: 18 * scale, style: marginStyle(scale))
      let total = truth.arrows.reduce(0) { $0 + $1.inclusive.score }
      let header = "\(truth.scene.face.id) · \(truth.arrows.count) arrows · total \(total) (inclusive)"
      ctx.selectFont(family: "DejaVu Sans", bold: true)
      ctx.setFontSize(20 * scale)
      label(ctx, header, x: nil, y: 30 * scale, scale: scale)
      Legend.draw(ctx, entries: Legend.truth, facts: facts, x: 0, y: Double(fullHeight) - legendHeight, width: Double(image.width) + margin)
      try ctx.check()
      return surface.image()
    } catch { throw .canvas(error) }
  }

  /// Score labels: 18 px at 1280 px, on a dark plate.
  package static func style(_ scale: Double) -> LabelStyle { LabelStyle(size: 18 * scale, pad: 4 * scale) }
  static func marginStyle(_ scale: Double) -> LabelStyle { LabelStyle(size: 14 * scale, pad: 0) }
  /// Radius labels keep off each impact: the ring and its dark edge.
  package static func pointRadius(_ scale: Double) -> Double { 12 * scale }
  /// Label bounds: the picture below the header band.
  package static func bounds(_ truth: GroundTruth) -> LabelRect {
    let scale = Double(max(truth.width, truth.height)) / 1280
    return LabelRect(x: 0, y: 44 * scale, width: Double(truth.width), height: Double(truth.height) - 44 * scale)
  }

  /// Each arrow's score label, placed; the callout rows for the margin.
  package static func layout(_ truth: GroundTruth, _ probe: Context)
    -> (points: [(x: Double, y: Double)], texts: [String], placements: [Placement], rows: [String])
  {
    let scale = Double(max(truth.width, truth.height)) / 1280
    let points = truth.arrows.map { (x: $0.pixelX, y: $0.pixelY) }
    let texts = truth.arrows.map(\.inclusive.label)
    let st = style(scale)
    let placements = LabelLayout.place(
      points: points, labelSizes: st.sizes(probe, texts), bounds: bounds(truth), pointRadius: pointRadius(scale),
      calloutSize: st.sizes(probe, ["88"])[0])
    let rows = placements.indices.compactMap { i in placements[i].callout.map { ($0, "\($0)  \(texts[i])") } }
      .sorted { $0.0 < $1.0 }.map(\.1)
    return (points, texts, placements, rows)
  }

  /// White text on a dark box, centred at x (or left-aligned at the margin).
  static func label(_ ctx: Context, _ text: String, x: Double?, y: Double, scale: Double) {
    let e = ctx.textExtents(text)
    let left = x.map { $0 - e.width / 2 } ?? 12 * scale
    ctx.setSource(Color(hex: 0x000000, alpha: 0.65))
    ctx.rectangle(x: left - 4 * scale, y: y + e.yBearing - 4 * scale, width: e.width + 8 * scale, height: e.height + 8 * scale)
    ctx.fill()
    ctx.setSource(Color(hex: 0xFFFFFF))
    ctx.moveTo(left - e.xBearing, y)
    ctx.showText(text)
  }
}
