/// Why a detection is taken to be off the table: something that looks like a
/// card but is not one dealt on the table, so it must not make Sets.
public enum OffTableReason: String, Sendable, Hashable, CaseIterable, Codable {
  /// Much smaller than the cards: a picture of a card (a rules leaflet, a screen).
  case thumbnail
  /// Not card-shaped: the game box or another object.
  case box
  /// Three or more small pictures in a row at the frame's edge (a strip of
  /// cards on a box, another screen's thumbnails).
  case edgeStrip = "edge strip"
}

/// Tells table cards from detections that are not on the table, by geometry only.
public enum TableFilter {
  /// One reason per box (nil: on the table), in the order given. Rules, first
  /// that applies wins: `box` (width / height outside `cardAspect`), `edge strip`
  /// (at least `stripMinCount` boxes under `stripAreaRatio` × median that touch
  /// the same image edge within `edgeMargin` and that one line parallel to it
  /// crosses), `thumbnail` (under `thumbnailAreaRatio` × median). The median is
  /// the upper median area of the card-shaped boxes, as the merged filter takes
  /// it; with fewer than `medianMinCount` of them only the shape rule applies.
  public static func classify(boxes: [Box], imageWidth: Int, imageHeight: Int,
                              settings: TableFilterSettings) -> [OffTableReason?] {
    var out: [OffTableReason?] = boxes.map { cardShaped($0, settings) ? nil : .box }
    let cardAreas = boxes.indices.filter { out[$0] == nil }.map { boxes[$0].area }.sorted()
    guard cardAreas.count >= max(1, settings.medianMinCount) else { return out }
    let median = cardAreas[cardAreas.count / 2]
    for edge in Edge.allCases {
      let along = boxes.indices.filter {
        out[$0] == nil && boxes[$0].area < settings.stripAreaRatio * median
          && edge.touches(boxes[$0], width: Double(imageWidth), height: Double(imageHeight), margin: settings.edgeMargin)
      }
      guard along.count >= settings.stripMinCount, edge.lineCrosses(along.map { boxes[$0] }) else { continue }
      for i in along { out[i] = .edgeStrip }
    }
    for i in boxes.indices where out[i] == nil && boxes[i].area < settings.thumbnailAreaRatio * median {
      out[i] = .thumbnail
    }
    return out
  }

  /// Whether width / height is in `cardAspect` (an empty box is not card-shaped).
  static func cardShaped(_ b: Box, _ s: TableFilterSettings) -> Bool {
    guard b.width > 0, b.height > 0 else { return false }
    return s.cardAspect.contains(b.width / b.height)
  }

  /// The four image edges.
  enum Edge: CaseIterable {
    case left, top, right, bottom

    /// Whether `b` touches this edge or lies within `margin` × the image's side of it.
    func touches(_ b: Box, width: Double, height: Double, margin: Double) -> Bool {
      switch self {
      case .left: return b.x1 <= margin * width
      case .right: return b.x2 >= width - margin * width
      case .top: return b.y1 <= margin * height
      case .bottom: return b.y2 >= height - margin * height
      }
    }

    /// Whether one line parallel to the edge crosses every box: they line up along it.
    func lineCrosses(_ boxes: [Box]) -> Bool {
      switch self {
      case .left, .right: return (boxes.map(\.x1).max() ?? 0) <= (boxes.map(\.x2).min() ?? 0)
      case .top, .bottom: return (boxes.map(\.y1).max() ?? 0) <= (boxes.map(\.y2).min() ?? 0)
      }
    }
  }
}
