import Canvas
import Obstacles
import Synth

/// A review picture of one frame's decision: the three zones, every YOLO box
/// (matched, kept, or dropped), the Vision box, the distance category, and the
/// announcement or the reason there was none.
enum ObstacleOverlay {
  /// Draws `decision` over `image` (the rendered frame); `names[i]` is YOLO box i's
  /// class; `facts` the legend's line of semantics in force.
  static func draw(_ decision: FrameDecision, on image: RGBA8Image, names: [String], facts: [String]) throws(ObstacleError) -> RGBA8Image {
    do {
      let w = Double(image.width), h = Double(image.height), s = w / 640
      let legend = Legend.height(entries: Legend.obstacles, facts: facts, width: w)
      let surface = try Surface(width: image.width, height: image.height + Int(legend.rounded(.up)))
      let ctx = try Context(surface)
      ctx.setSource(Color(hex: 0x1C1C1E)); ctx.paint()
      ctx.setSource(try Surface(image: image)); ctx.rectangle(x: 0, y: 0, width: w, height: h); ctx.fill()
      drawZones(ctx, decision.zones, w: w, h: h, s: s)
      var tags: [Tag] = []
      for (i, b) in decision.detections.yolo.enumerated() {
        let status = decision.yoloStatus[i]
        let matched = decision.matchedYOLO == i
        let dropped = status != "kept" && !matched
        ctx.setSource(Color(hex: matched ? 0x00E676 : (dropped ? 0x9E9E9E : 0x00B8D4)))
        ctx.setLineWidth((matched ? 4 : 2) * s)
        ctx.setDash(dropped ? [6 * s, 4 * s] : [])
        rect(ctx, b.box, w, h)
        ctx.stroke()
        let note = dropped ? " (\(status.hasPrefix("suppressed") ? "suppressed" : "dropped"))" : ""
        let name = names.indices.contains(i) ? names[i] : "object"
        tags.append(Tag(text: "\(name) \(fixed(b.confidence, 2))\(note)", x: b.box.midX * w, y: b.box.y * h, size: 11))
      }
      ctx.setDash([])
      if let v = decision.visionBox, let name = decision.label, let conf = decision.confidence {
        ctx.setSource(Color(hex: 0xFFD600))
        ctx.setLineWidth(2 * s)
        ctx.setDash([3 * s, 3 * s])
        rect(ctx, v, w, h)
        ctx.stroke()
        ctx.setDash([])
        tags.append(Tag(text: "\(name) \(fixed(conf, 2)) (\(decision.source?.rawValue ?? ""))", x: v.midX * w, y: v.maxY * h, size: 12))
      }
      if let box = decision.box, let zone = decision.zone {
        let distance = decision.category.map { "\($0.name), \(fixed($0.meters, 1)) m" } ?? "no distance"
        let area = decision.area.map { " · area \(fixed($0, 4))" } ?? ""
        tags.append(Tag(text: "\(zone.rawValue) · \(distance)\(area)", x: box.midX * w, y: box.y * h, size: 13))
      }
      drawTags(ctx, tags, w: w, h: h, s: s)
      let header = "frame \(decision.index) · t = \(fixed(decision.time, 3)) s"
      label(ctx, header, x: 8 * s, y: 40 * s, s: s, size: 14)
      let footer = decision.announced
        ? "SPOKEN: \(decision.text ?? "")"
        : "silent (\(decision.reason.rawValue)): \(decision.detail)"
      label(ctx, footer, x: 8 * s, y: h - 10 * s, s: s, size: 14, ink: decision.announced ? 0x00E676 : 0xFFFFFF)
      Legend.draw(ctx, entries: Legend.obstacles, facts: facts, x: 0, y: h, width: w)
      try ctx.check()
      return surface.image()
    } catch { throw .canvas(error) }
  }

  /// Tinted Left / Center / Right bands with their names and boundary lines.
  static func drawZones(_ ctx: Context, _ zones: ZoneVariant, w: Double, h: Double, s: Double) {
    let b = Table.zoneBounds(zones)
    let bands: [(Zone, Double, Double, UInt32)] = [
      (.left, 0, b.left, 0x2979FF), (.center, b.left, b.right, 0xFFFFFF), (.right, b.right, 1, 0xFF9100),
    ]
    for (zone, x0, x1, tint) in bands {
      ctx.setSource(Color(hex: tint, alpha: 0.1))
      ctx.rectangle(x: x0 * w, y: 0, width: (x1 - x0) * w, height: h)
      ctx.fill()
      label(ctx, zone.rawValue, x: x0 * w + 6 * s, y: 18 * s, s: s, size: 12)
    }
    ctx.setSource(Color(hex: 0xFFFFFF, alpha: 0.8))
    ctx.setLineWidth(1.5 * s)
    ctx.setDash([8 * s, 6 * s])
    for x in [b.left, b.right] {
      ctx.moveTo(x * w, 0)
      ctx.lineTo(x * w, h)
    }
    ctx.stroke()
    ctx.setDash([])
  }

  static func rect(_ ctx: Context, _ b: NormalizedBox, _ w: Double, _ h: Double) {
    ctx.rectangle(x: b.x * w, y: b.y * h, width: b.width * w, height: b.height * h)
  }

  /// Text on a dark plate, baseline at (x, y).
  static func label(_ ctx: Context, _ text: String, x: Double, y: Double, s: Double, size: Double, ink: UInt32 = 0xFFFFFF) {
    ctx.selectFont(family: "DejaVu Sans", bold: true)
    ctx.setFontSize(size * s)
    var e = ctx.textExtents(text)
    let room = Double(ctx.surface.width) - 12 * s
    if e.width > room {  // shrink to fit the frame width, then keep it on screen
      ctx.setFontSize(size * s * room / e.width)
      e = ctx.textExtents(text)
    }
    let x = max(3 * s, min(x, Double(ctx.surface.width) - e.width - 6 * s))
    ctx.setSource(Color(hex: 0x000000, alpha: 0.6))
    ctx.rectangle(x: x - 3 * s, y: y + e.yBearing - 3 * s, width: e.width + 6 * s, height: e.height + 6 * s)
    ctx.fill()
    ctx.setSource(Color(hex: ink))
    ctx.moveTo(x - e.xBearing, y)
    ctx.showText(text)
  }

  /// `v` with exactly `digits` decimals (display only), e.g. 0.08 → "0.0800".
  static func fixed(_ v: Double, _ digits: Int) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let n = Int((abs(v) * p).rounded())
    let whole = n / Int(p), frac = String(n % Int(p))
    let sign = v < 0 && n != 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole)." + String(repeating: "0", count: digits - frac.count) + frac
  }
}

extension ObstacleRenderer {
  /// Frame `frame` of `scene`, rendered, with `run`'s decision for it drawn over.
  /// `semantics` (when known) names the NMS, arithmetic and pick in the legend.
  package static func overlay(_ scene: ObstacleScene, _ run: ObstacleRun, frame: Int, semantics: ObstacleSemantics? = nil) throws(ObstacleError) -> RGBA8Image {
    guard run.frames.indices.contains(frame) else {
      throw .invalid(name: "frame index", value: String(frame), expected: "0…\(run.frames.count - 1)")
    }
    let image = try render(scene, frame: frame)
    let decision = run.frames[frame]
    let drawn = scene.objects.indices.contains(frame) ? scene.objects[frame] : []
    let names = decision.detections.yolo.map { ObstacleOverlay.className($0, drawn: drawn) }
    return try ObstacleOverlay.draw(decision, on: image, names: names, facts: ObstacleOverlay.legendFacts(decision, semantics))
  }
}
