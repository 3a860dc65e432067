import SetCards
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SetTable {
  /// Card centres: explicit placements, or a grid of three rows (one row for
  /// three cards or fewer) rolled by `rotationDeg` and fitted to the image.
  static func layout(_ spec: SetTableSpec, cards: [Card], offsetX: Double,
                     _ g: inout SeededGenerator) throws(SetCardsError) -> [PlacedCard] {
    let w = Double(spec.size.width), h = Double(spec.size.height)
    if let explicitHeight = spec.cardHeight { try check("card_height", explicitHeight, 8...8192) }
    if let places = spec.placements {
      guard places.count == cards.count else {
        throw .invalid(name: "placements", value: "\(places.count) entries", expected: "one per card (\(cards.count))")
      }
      let ch = spec.cardHeight ?? 0.3 * min(w, h)
      return try zip(cards, places).map { (card, p) throws(SetCardsError) in
        try check("placement x", p.x, -w...(2 * w))
        try check("placement y", p.y, -h...(2 * h))
        try check("placement rotation_deg", p.rotationDeg, -3600...3600)
        return PlacedCard(card: card, x: p.x + offsetX, y: p.y, heightPx: ch, rotationDeg: p.rotationDeg)
      }
    }
    let arrangement = spec.arrangement ?? .spaced
    let gap: Double = spec.gap ?? {
      switch arrangement {
      case .spaced: return g.uniform(0.15...0.35)
      case .touching: return 0
      case .overlapping: return -g.uniform(0.12...0.25)
      }
    }()
    try check("gap", gap, -0.6...2)
    let roll = spec.rotationDeg ?? g.uniform(-5...5)
    try check("rotation_deg", roll, -3600...3600)
    let jitterAmp = spec.jitterDeg ?? (arrangement == .touching && spec.gap == nil ? 0 : g.uniform(1...4))
    try check("jitter_deg", jitterAmp, 0...30)
    let jitterPos = arrangement == .touching && spec.gap == nil ? 0.0 : 0.03

    // Grid in units of the card height: pitch W(1+gap) across, H + gap·W down.
    let n = cards.count, rows = n <= 3 ? 1 : 3, cols = (n + rows - 1) / rows
    let a = SetTable.aspect
    let px = a * (1 + gap), py = 1 + gap * a
    var unit: [(x: Double, y: Double, rot: Double)] = []
    let (cr, sr) = (cos(roll * .pi / 180), sin(roll * .pi / 180))
    for i in 0..<n {
      let col = i / rows, row = i % rows
      let gx = (Double(col) - Double(cols - 1) / 2) * px + g.uniform(-1...1) * jitterPos
      let gy = (Double(row) - Double(rows - 1) / 2) * py + g.uniform(-1...1) * jitterPos
      unit.append((gx * cr - gy * sr, gx * sr + gy * cr, roll + g.uniform(-1...1) * jitterAmp))
    }
    // Extents of every rotated card corner, to fit the grid inside 90% of the image.
    var minX = 0.0, maxX = 0.0, minY = 0.0, maxY = 0.0
    for u in unit {
      for (cx, cy) in cardCorners(x: u.x, y: u.y, height: 1, rotationDeg: u.rot) {
        minX = min(minX, cx); maxX = max(maxX, cx); minY = min(minY, cy); maxY = max(maxY, cy)
      }
    }
    let fit = min(0.9 * w / (maxX - minX), 0.9 * h / (maxY - minY))
    let ch = spec.cardHeight ?? fit
    let ox = w / 2 - (minX + maxX) / 2 * ch + offsetX, oy = h / 2 - (minY + maxY) / 2 * ch
    return zip(cards, unit).map { card, u in
      PlacedCard(card: card, x: ox + u.x * ch, y: oy + u.y * ch, heightPx: ch, rotationDeg: u.rot)
    }
  }

  /// The four sharp corners of a card (top-left, top-right, bottom-right,
  /// bottom-left in the card's own upright frame), in table pixels.
  static func cardCorners(x: Double, y: Double, height: Double, rotationDeg: Double) -> [(Double, Double)] {
    let hw = height * aspect / 2, hh = height / 2
    let (c, s) = (cos(rotationDeg * .pi / 180), sin(rotationDeg * .pi / 180))
    return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (u, v) in
      (x + u * c - v * s, y + u * s + v * c)
    }
  }

  /// Points along a card's rounded outline (corner radius H/28), table pixels.
  static func cardOutline(_ p: PlacedCard, perCorner: Int = 6) -> [(Double, Double)] {
    let hw = p.heightPx * aspect / 2, hh = p.heightPx / 2, r = p.heightPx / 28
    let (c, s) = (cos(p.rotationDeg * .pi / 180), sin(p.rotationDeg * .pi / 180))
    let centres = [(hw - r, -hh + r, -Double.pi / 2), (hw - r, hh - r, 0.0),
                   (-hw + r, hh - r, Double.pi / 2), (-hw + r, -hh + r, Double.pi)]
    var out: [(Double, Double)] = []
    for (ux, uy, a0) in centres {
      for k in 0...perCorner {
        let a = a0 + Double(k) / Double(perCorner) * Double.pi / 2
        let u = ux + r * cos(a), v = uy + r * sin(a)
        out.append((p.x + u * c - v * s, p.y + u * s + v * c))
      }
    }
    return out
  }
}
