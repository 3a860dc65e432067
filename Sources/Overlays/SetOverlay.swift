import Canvas
import SetCards

/// The reference app's result drawing: every card boxed and labelled, the
/// selected Set in colour, a header, and a trophy strip of the Set's crops.
package enum SetOverlay {
  /// Box colours of Set i: palette[i % 8] (red, green, blue, yellow, magenta,
  /// cyan, orange, purple), as 0xRRGGBB.
  static let palette: [UInt32] = [
    0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0xFF8000, 0x8000FF,
  ]
  /// Boxes outside the selected Set: gray 128.
  static let gray: UInt32 = 0x808080
  /// Line widths: selected Set, others.
  static let selectedWidth = 4.0, otherWidth = 2.0
  /// Uncertain cards (profile `photos`): amber, dashed, so they read as "maybe a card".
  static let uncertainColour: UInt32 = 0xFFB300, uncertainDash: [Double] = [6, 4]
  /// Off-table detections (profile `photos`): gray, thin and dotted, so they recede.
  static let offTableWidth = 1.0, offTableDash: [Double] = [1, 3]
  /// Label font size.
  static let labelSize = 18.0
  /// Trophy crop height, border, gap; the strip's band below the photo.
  static let trophyHeight = 60, trophyBorder = 2, trophyGap = 6
  /// Height of the band added below the photo when a Set is shown.
  static var bandHeight: Int { trophyHeight + 2 * trophyBorder + 2 * trophyGap }

  /// One overlay per Set, in Set order; a single no-Sets overlay when there are none.
  /// Cards are named in `labels` style (the goldens keep `.seed`).
  package static func renderAll(image: RGBA8Image, result: SetResult, labels: SetLabelStyle = .seed) throws(SetCardsError) -> [RGBA8Image] {
    if result.sets.isEmpty { return [try render(image: image, result: result, set: nil, labels: labels)] }
    var out: [RGBA8Image] = []
    for i in result.sets.indices { out.append(try render(image: image, result: result, set: i, labels: labels)) }
    return out
  }

  /// The overlay for Set `set` (nil: none selected). With a Set the image grows
  /// by `bandHeight` rows holding the trophy strip.
  static func render(image: RGBA8Image, result: SetResult, set: Int?, labels: SetLabelStyle) throws(SetCardsError) -> RGBA8Image {
    if let set, !result.sets.indices.contains(set) {
      throw .invalid(name: "set index", value: String(set), expected: "0..<\(result.sets.count)")
    }
    let members = set.map { Set(result.sets[$0]) } ?? []
    let band = set == nil ? 0 : bandHeight
    do {
      let lay = try layout(image: image, result: result, labels: labels)
      let margin = Int(lay.marginWidth.rounded(.up))
      let facts = legendFacts(labels, profile: result.profile)
      let entries = legendEntries(result.profile)
      let legend = Legend.height(entries: entries, facts: facts, width: Double(image.width + margin))
      let rows = Double(lay.rows.count + 1) * marginLine
      let top = Int(max(Double(image.height), rows).rounded(.up))
      let surface = try Surface(width: image.width + margin, height: top + band + Int(legend.rounded(.up)))
      let ctx = try Context(surface)
      ctx.setSource(Color(hex: 0x202020))
      ctx.paint()
      ctx.setSource(try Surface(image: image))
      ctx.rectangle(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
      ctx.fill()
      ctx.selectFont(family: labels.fontFamily)
      // Others first, so the selected Set's boxes are drawn on top.
      let order = result.cards.indices.filter { !members.contains($0) } + result.cards.indices.filter { members.contains($0) }
      for i in order {
        let c = result.cards[i]
        let selected = members.contains(i)
        let look = boxLook(c, selected: selected, set: set)
        let t = c.box.truncated.map(Double.init)
        ctx.setSource(Color(hex: look.colour))
        ctx.setLineWidth(look.width)
        if !look.dash.isEmpty { ctx.setDash(look.dash) }
        ctx.rectangle(x: t[0], y: t[1], width: t[2] - t[0], height: t[3] - t[1])
        ctx.stroke()
        if !look.dash.isEmpty { ctx.setDash([]) }
      }
      LabelDrawing.draw(ctx, texts: lay.texts, points: lay.points, placements: lay.placements, style: labelStyle(labels))
      LabelDrawing.drawMargin(ctx, lay.rows, x: Double(image.width) + 6, y: 0, lineHeight: marginLine, style: labelStyle(labels))
      ctx.selectFont(family: "WenQuanYi Micro Hei")
      ctx.setFontSize(22)
      let text = SetText.header(cardCount: result.cards.count, set: set, of: result.sets.count)
      ctx.setSource(Color(r: 0, g: 0, b: 0, a: 0.6))
      ctx.moveTo(11, 11 + 22 * 0.8)
      ctx.showText(text)
      ctx.setSource(Color(hex: 0xFFFFFF))
      ctx.moveTo(10, 10 + 22 * 0.8)
      ctx.showText(text)
      if let set { try trophies(ctx, image: image, top: top, boxes: result.sets[set].map { result.cards[$0].box }) }
      Legend.draw(ctx, entries: entries, facts: facts, x: 0, y: Double(top + band), width: Double(image.width + margin))
      try ctx.check()
      return surface.image()
    } catch let e as CanvasError { throw .canvas(e) } catch let e as SetCardsError { throw e } catch {
      throw .invalid(name: "overlay", value: "\(error)", expected: "no error")
    }
  }

  /// How a card's box is drawn: the Set's colour, gray, or (marked cards under
  /// `photos`) dotted gray off the table and dashed amber when uncertain.
  static func boxLook(_ c: DetectedCard, selected: Bool, set: Int?) -> (colour: UInt32, width: Double, dash: [Double]) {
    if selected, let set { return (palette[set % palette.count], selectedWidth, []) }
    if c.offTable != nil { return (gray, offTableWidth, offTableDash) }
    if c.uncertain { return (uncertainColour, otherWidth, uncertainDash) }
    return (gray, otherWidth, [])
  }

  /// The Set's three crops, 60 px high (width capped at 30% of the photo), each in a
  /// 2 px #44FF44 frame, 6 px apart, in the band below the photo.
  static func trophies(_ ctx: Context, image: RGBA8Image, top: Int, boxes: [Box]) throws {
    var x = Double(trophyGap)
    let y = Double(top + trophyGap + trophyBorder), th = Double(trophyHeight)
    for box in boxes {
      let c = CardPreprocess.crop(image, box: box)
      var rgba = [UInt8](repeating: 255, count: c.width * c.height * 4)
      for i in 0..<(c.width * c.height) {
        for k in 0..<3 { rgba[i * 4 + k] = c.rgb[i * 3 + k] }
      }
      let crop = try Surface(image: RGBA8Image(width: c.width, height: c.height, pixels: rgba))
      let tw = min(Double(c.width) * th / Double(c.height), 0.3 * Double(image.width))
      ctx.save()
      ctx.translate(x, y)
      ctx.scale(tw / Double(c.width), th / Double(c.height))
      ctx.setSource(crop)
      ctx.rectangle(x: 0, y: 0, width: Double(c.width), height: Double(c.height))
      ctx.fill()
      ctx.restore()
      let b = Double(trophyBorder)
      ctx.setSource(Color(hex: 0x44FF44))
      ctx.setLineWidth(b)
      ctx.rectangle(x: x - b / 2, y: y - b / 2, width: tw + b, height: th + b)
      ctx.stroke()
      x += tw + 2 * b + Double(trophyGap)
    }
  }
}
