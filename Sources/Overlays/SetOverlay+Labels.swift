import Canvas
import SetCards

extension SetOverlay {
  /// Margin rows' spacing.
  static let marginLine = 22.0

  /// Card labels: 18 px in the style's font on a dark plate.
  package static func labelStyle(_ labels: SetLabelStyle) -> LabelStyle {
    var s = LabelStyle(size: labelSize, pad: 3)
    s.family = labels.fontFamily
    s.bold = false
    return s
  }

  /// The legend's facts: the label style and the Set rule (and a profile other
  /// than the seed, whose line the goldens pin).
  static func legendFacts(_ labels: SetLabelStyle, profile: SetCardProfile = .seed) -> [String] {
    let seedLine = "labels \(labels.rawValue) · a Set: three cards, each attribute all the same or all different · boxes as the result's cards"
    guard profile != .seed else { return [seedLine] }
    return [seedLine, "profile \(profile.rawValue) · uncertain: class confidence under \(profile.settings.pipeline.classThreshold) · off-table cards join no Set"]
  }

  /// The legend's rows: the seed's, plus the marked looks under other profiles.
  static func legendEntries(_ profile: SetCardProfile) -> [LegendEntry] {
    profile.settings.marksUncertain || profile.settings.tableFilter != nil ? Legend.setcardsMarked : Legend.setcards
  }

  /// A card's label: the style's words, with `?` first when uncertain and the
  /// reason first when off the table.
  static func labelText(_ c: DetectedCard, style: SetLabelStyle) -> String {
    let text = SetText.label(c, style: style)
    if let reason = c.offTable { return "\(reason.rawValue): \(text)" }
    return c.uncertain ? "? \(text)" : text
  }

  /// Where each card's label anchors: the middle of the box's top edge, so the
  /// first candidate (below the anchor) puts the label on the card itself.
  package static func anchors(_ result: SetResult) -> [(x: Double, y: Double)] {
    result.cards.map { c in
      let t = c.box.truncated.map(Double.init)
      return ((t[0] + t[2]) / 2, t[1])
    }
  }

  /// Every card's label placed inside the photo; callout rows for the margin.
  static func layout(image: RGBA8Image, result: SetResult, labels: SetLabelStyle) throws
    -> (points: [(x: Double, y: Double)], texts: [String], placements: [Placement], rows: [String], marginWidth: Double)
  {
    let probe = try Context(try Surface(width: 1, height: 1))
    let style = labelStyle(labels)
    let points = anchors(result)
    let texts = result.cards.map { labelText($0, style: labels) }
    let placements = LabelLayout.place(
      points: points, labelSizes: style.sizes(probe, texts),
      bounds: LabelRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
      pointRadius: 2, calloutSize: style.sizes(probe, ["88"])[0])
    let rows = placements.indices.compactMap { i in placements[i].callout.map { ($0, "\($0)  \(texts[i])") } }
      .sorted { $0.0 < $1.0 }.map(\.1)
    return (points, texts, placements, rows, LabelDrawing.marginWidth(probe, rows, style: style))
  }
}
