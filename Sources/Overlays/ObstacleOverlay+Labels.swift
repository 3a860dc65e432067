import Canvas
import Obstacles
import Synth

extension ObstacleOverlay {
  /// One text to place near an anchor (a box's top or bottom middle), at `size` px before scaling.
  struct Tag {
    var text: String
    var x: Double, y: Double
    var size: Double
  }

  /// Band kept free at the top (zone names, header) and bottom (footer), at 640 px wide.
  static let topBand = 48.0, bottomBand = 28.0

  /// A YOLO box's class: the scenario's `label`, else the kind of the drawn
  /// object it overlaps most (the synthesizer's class list), else "object".
  package static func className(_ b: YOLOBox, drawn: [DrawnObject]) -> String {
    if let l = b.label { return l }
    var best: (kind: ObjectKind, iou: Double)?
    for o in drawn {
      let v = o.box.iou(b.box)
      if v > 0, v > best?.iou ?? 0 { best = (o.kind, v) }
    }
    return best?.kind.rawValue ?? "object"
  }

  /// The legend's facts: the semantics in force for this frame.
  static func legendFacts(_ d: FrameDecision, _ semantics: ObstacleSemantics?) -> [String] {
    let rest = semantics.map { " · NMS \($0.nms.rawValue) · confidences \($0.confidenceArithmetic.rawValue) · Vision pick \($0.pick.rawValue)" } ?? ""
    return ["zones \(d.zones.rawValue)\(rest) · YOLO floor ≥ 0.3, matched by IoU with the Vision box"]
  }

  /// Places every tag with the layout (clear of each other and of every
  /// anchor), sizes scaled by `s`; draws them. Callouts, if any, go in the top-right.
  static func drawTags(_ ctx: Context, _ tags: [Tag], w: Double, h: Double, s: Double) {
    let styles = tags.map { LabelStyle(size: $0.size * s, pad: 3 * s) }
    var sizes: [(width: Double, height: Double)] = []
    for (t, st) in zip(tags, styles) { sizes.append(st.sizes(ctx, [t.text])[0]) }
    let points = tags.map { (x: $0.x, y: $0.y) }
    let bounds = LabelRect(x: 0, y: topBand * s, width: w, height: h - (topBand + bottomBand) * s)
    let placements = LabelLayout.place(points: points, labelSizes: sizes, bounds: bounds, pointRadius: 2 * s)
    var rows: [String] = []
    for i in tags.indices {
      rows += LabelDrawing.draw(ctx, texts: [tags[i].text], points: [points[i]], placements: [placements[i]], style: styles[i])
    }
    let margin = LabelStyle(size: 11 * s, pad: 0)
    LabelDrawing.drawMargin(ctx, rows.sorted(), x: w - LabelDrawing.marginWidth(ctx, rows, style: margin), y: topBand * s, lineHeight: 14 * s, style: margin)
  }
}
