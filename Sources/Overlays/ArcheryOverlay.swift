import Adjustment
import Canvas
import Pipelines
import Scoring
import Synth

#if canImport(Glibc)
  import Glibc
#endif

/// The review picture of one profile's run: the photo with detected boxes,
/// ghost truth markers and error vectors; the seed's target face with the
/// confirmed markers, drag paths and the placement-mode tint; and the score table.
package enum ArcheryOverlay {
  static let panel = 400.0
  static let tierColors: [String: UInt32] = ["red": 0xFF3B30, "orange": 0xFF9500, "deep-orange": 0xFF5722, "green": 0x34C759]

  /// The overlay of `result` (run under `profile`) on `image`, with `truth` as
  /// ghost markers (or `marks`, the points a person marked on a photo, in the
  /// image's pixels); `id` titles it.
  package static func draw(_ result: RunResult, profile: String, truth: GroundTruth?, marks: [[Double]] = [], image: RGBA8Image, id: String) throws -> RGBA8Image {
    let r = result
    // Where the arrows really are: the synthesized truth, a person's marks, or nothing (a user's photo).
    let truthArrows: [(pixelX: Double, pixelY: Double)] = truth.map { $0.arrows.map { ($0.pixelX, $0.pixelY) } } ?? marks.map { ($0[0], $0[1]) }
    let scale = min(1, panel / Double(image.height))
    let pw = Double(image.width) * scale, ph = Double(image.height) * scale
    // Labels first: their callouts decide the margin column's width and the panels' height.
    let labels = try Labels(result: r, scale: scale, pw: pw, ph: ph)
    let panels = max(ph, panel, labels.marginHeight)
    let width = Int(pw + panel + 30 + labels.marginWidth)
    let table = ScoreTable(arrows: r.confirmed?.count ?? 0, width: Double(width))
    let facts = legendFacts(r, profile: profile)
    let base = panels + 40 + 150 + table.extraHeight
    let legendHeight = Legend.height(entries: Legend.archery, facts: facts, width: Double(width) - 20)
    let height = Int(base + legendHeight + 10)
    // Every detection gets a label and every confirmed arrow a table row, so a
    // detector firing everywhere asks for a picture no reader could open.
    if height > ImageLimits.default.maxSide || width > ImageLimits.default.maxSide {
      throw CanvasError.parameterOutOfRange(
        name: "overlay size", value: "\(width)x\(height) px for \(r.detections.count) detections and \(r.confirmed?.count ?? 0) confirmed arrows",
        expected: "sides of at most \(ImageLimits.default.maxSide) (the overlay labels every detection; a detector that fires everywhere cannot be drawn)")
    }
    let surface = try Surface(width: width, height: height)
    let ctx = try Context(surface)
    ctx.setSource(Color(hex: 0x1C1C1E)); ctx.paint()
    ctx.selectFont(family: "DejaVu Sans", bold: true)
    ctx.setFontSize(14)
    ctx.setSource(Color(hex: 0xFFFFFF)); ctx.moveTo(10, 22)
    let phase = r.adjustment.final.phase
    ctx.showText("\(id) · \(profile) · \(r.detections.count) detected · \(r.confirmed?.count ?? 0) confirmed · \(phaseText(phase))")

    // Left: the photo, detections and truth.
    let photo = try Surface(image: image)
    ctx.save(); ctx.translate(10, 34); ctx.scale(scale, scale); ctx.setSource(photo); ctx.paint(); ctx.restore()
    func toPanel(_ x: Double, _ y: Double) -> (Double, Double) { (10 + x * scale, 34 + y * scale) }
    if let t = r.target {
      let pts = (0..<120).map { i -> (Double, Double) in
        let a = Double(i) * .pi / 60
        let p = t.ellipse.denormalize(cos(a), sin(a))
        return toPanel(p.0, p.1)
      }
      ctx.setSource(Color(hex: 0x00E5FF, alpha: 0.8)); ctx.setLineWidth(1.5); ctx.polygon(pts); ctx.stroke()
    }
    for a in truthArrows {  // ghost markers: where the arrows really are
      let p = toPanel(a.pixelX, a.pixelY)
      ctx.setSource(Color(hex: 0xFFFFFF, alpha: 0.9)); ctx.setLineWidth(1.5); ctx.setDash([3, 2])
      ctx.arc(cx: p.0, cy: p.1, radius: 7, from: 0, to: 2 * .pi); ctx.stroke(); ctx.setDash([])
    }
    for d in r.detections {
      let tier = EditableArrow(id: d.id, x: 0, y: 0, isManual: false, confidence: d.confidence).tier
      ctx.setSource(Color(hex: tierColors[tier] ?? 0xFF3B30)); ctx.setLineWidth(2)
      let o = toPanel(d.box.x, d.box.y)
      ctx.rectangle(x: o.0, y: o.1, width: d.box.width * scale, height: d.box.height * scale); ctx.stroke()
      // Error vector from the nearest true impact to the detection.
      if let t = truthArrows.min(by: { hypot($0.pixelX - Double(d.pixelX), $0.pixelY - Double(d.pixelY)) < hypot($1.pixelX - Double(d.pixelX), $1.pixelY - Double(d.pixelY)) }) {
        let a = toPanel(t.pixelX, t.pixelY), b = toPanel(Double(d.pixelX), Double(d.pixelY))
        ctx.setSource(Color(hex: 0xFF2D95)); ctx.setLineWidth(1.5); ctx.moveTo(a.0, a.1); ctx.lineTo(b.0, b.1); ctx.stroke()
      }
    }

    labels.drawPhoto(ctx)

    // Right: the seed's flat target face with confirmed markers.
    let fx = pw + 20, fy = 34.0, radius = panel / 2 - 10, cx = fx + panel / 2, cy = fy + panel / 2
    drawFace(ctx, face: r.request.face, cx: cx, cy: cy, radius: radius)
    if r.adjustment.final.isPlacementMode {
      ctx.setSource(Color(hex: 0x34C759, alpha: 0.18)); ctx.arc(cx: cx, cy: cy, radius: radius, from: 0, to: 2 * .pi); ctx.fill()
    }
    for path in r.adjustment.dragPaths where path.points.count > 1 {
      ctx.setSource(Color(hex: 0xAF52DE)); ctx.setLineWidth(2)
      ctx.moveTo(cx + path.points[0].x * radius, cy + path.points[0].y * radius)
      for p in path.points.dropFirst() { ctx.lineTo(cx + p.x * radius, cy + p.y * radius) }
      ctx.stroke()
    }
    for a in r.adjustment.final.arrows {
      let x = cx + a.x * radius, y = cy + a.y * radius
      ctx.setSource(Color(hex: tierColors[a.tier] ?? 0xFF3B30)); ctx.arc(cx: x, cy: y, radius: faceMarkerRadius, from: 0, to: 2 * .pi); ctx.fill()
      ctx.setSource(Color(hex: 0xFFFFFF)); ctx.arc(cx: x, cy: y, radius: 4, from: 0, to: 2 * .pi); ctx.fill()
    }
    labels.drawFace(ctx)
    labels.drawMargin(ctx, x: pw + panel + 30)

    // Bottom: the confirmed score table and the end total.
    let ty = panels + 60
    ctx.setFontSize(14); ctx.setSource(Color(hex: 0xFFFFFF))
    for g in 0..<table.groupsUsed {
      for (c, title) in ScoreTable.titles.enumerated() {
        ctx.moveTo(table.x(group: g, cell: c), ty); ctx.showText(title)
      }
    }
    for (i, c) in (r.confirmed ?? []).enumerated() {
      let cells = ["\(i + 1)", "\(c.score)", c.isX ? "X" : "-", c.wasAdjusted ? "yes" : "no", c.isManual ? "yes" : "no"]
      for (k, text) in cells.enumerated() {
        ctx.moveTo(table.x(group: i % table.groups, cell: k), ty + 20 + Double(i / table.groups) * ScoreTable.rowHeight)
        ctx.showText(text)
      }
    }
    let total = r.confirmed.map { $0.reduce(0) { $0 + $1.score } }
    ctx.setFontSize(18); ctx.moveTo(10, base - 12)
    ctx.showText(total.map { "End total \($0)" } ?? "Not confirmed")
    Legend.draw(ctx, entries: Legend.archery, facts: facts, x: 10, y: base, width: Double(width) - 20)
    try ctx.check()
    return surface.image()
  }

  /// The legend's facts: the scoring rule, the profile's settings and the semantics in force.
  static func legendFacts(_ r: RunResult, profile: String) -> [String] {
    let q = r.request, p = q.profile
    return [
      "rule \(q.rule.rawValue) · face \(q.face.id) · profile \(profile): \(p.preprocess), confidence ≥ \(p.confidence), NMS \(p.nms.rawValue) IoU \(p.iou), drag \(p.drag.rawValue)",
      "semantics: detection \(q.precision.rawValue), confirm \(q.confirmPrecision.rawValue), spots \(q.spots.rawValue) · boxes numbered as the score table's rows",
    ]
  }

  static func phaseText(_ p: Phase) -> String {
    switch p {
    case .adjusting: return "adjusting"
    case .confirmed: return "confirmed"
    case .cancelled: return "cancelled"
    case .error(let m): return "error: \(m)"
    }
  }

  /// The face as the seed's `TargetRingsView` draws it: fills outside in,
  /// a 1-pt black stroke on every ring, and the X ring.
  static func drawFace(_ ctx: Context, face: Face, cx: Double, cy: Double, radius: Double) {
    for s in face.spots {
      let sx = cx + s.x * radius, sy = cy + s.y * radius, sr = s.radius * radius
      for z in face.zones.reversed() {
        ctx.setSource(Color(RGBA(z.fill.r, z.fill.g, z.fill.b))); ctx.arc(cx: sx, cy: sy, radius: z.radius * sr, from: 0, to: 2 * .pi); ctx.fill()
      }
      ctx.setLineWidth(1)
      for z in face.zones {
        ctx.setSource(Color(hex: z.fill == RGB8(hex: 0) ? 0xFFFFFF : 0x000000))
        ctx.arc(cx: sx, cy: sy, radius: z.radius * sr, from: 0, to: 2 * .pi); ctx.stroke()
      }
    }
  }
}

/// Where the score table's cells go: as many groups of columns side by side as
/// the picture is wide, each with its own header, rows below; the picture grows
/// when an end has more arrows than five rows hold.
struct ScoreTable {
  static let titles = ["arrow", "score", "X", "adjusted", "manual"]
  /// Cell offsets within a group, wide enough for each title in 14-pt DejaVu Sans Bold.
  static let offsets: [Double] = [0, 54, 108, 136, 214]
  static let groupWidth = 300.0, rowHeight = 18.0, rowsInBase = 5
  let arrows: Int, groups: Int

  init(arrows: Int, width: Double) {
    self.arrows = arrows
    groups = max(1, Int((width - 20) / Self.groupWidth))
  }

  var rows: Int { (arrows + groups - 1) / groups }
  /// Groups with at least one arrow (one header when there are none).
  var groupsUsed: Int { max(1, min(groups, arrows)) }
  var extraHeight: Double { Double(max(0, rows - Self.rowsInBase)) * Self.rowHeight }
  func x(group: Int, cell: Int) -> Double { 10 + Double(group) * Self.groupWidth + Self.offsets[cell] }
}
