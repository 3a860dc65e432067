import SetCards
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SetTable {
  /// Realistic framing: the grid shrunk to the drawn card size and moved off
  /// centre, a strip of thumbnail cards along one edge, the game box at a corner.
  /// Works on the grid `layout` fitted to the whole frame.
  mutating func placeRealistically(_ r: RealismLook, _ g: inout SeededGenerator) {
    guard let first = cards.first else { return }
    let ch0 = first.heightPx, W = Double(width), H = Double(height), ox = Double(marginX)
    var target = min(ch0, r.cardWidthPx / Self.aspect)
    // The strip takes a band along its edge; the grid keeps out of it.
    var region = (x0: ox, y0: 0.0, x1: ox + W, y1: H)
    let band = r.thumbnails.map { target * $0.scale * 1.2 + 4 } ?? 0
    switch r.thumbnails?.edge {
    case 0: region.y0 += band
    case 1: region.x1 -= band
    case 2: region.y1 -= band
    case 3: region.x0 += band
    default: break
    }
    var gx0 = Double.infinity, gy0 = Double.infinity, gx1 = -Double.infinity, gy1 = -Double.infinity
    for p in cards {
      for (x, y) in Self.cardCorners(x: p.x, y: p.y, height: p.heightPx, rotationDeg: p.rotationDeg) {
        gx0 = min(gx0, x); gy0 = min(gy0, y); gx1 = max(gx1, x); gy1 = max(gy1, y)
      }
    }
    let rw = region.x1 - region.x0, rh = region.y1 - region.y0
    let k = min(target / ch0, 0.97 * rw / (gx1 - gx0), 0.97 * rh / (gy1 - gy0))
    target = ch0 * k
    let gw = (gx1 - gx0) * k, gh = (gy1 - gy0) * k
    let cx = region.x0 + gw / 2 + g.uniform(0...1) * max(0, rw - gw)
    let cy = region.y0 + gh / 2 + g.uniform(0...1) * max(0, rh - gh)
    let mx = (gx0 + gx1) / 2, my = (gy0 + gy1) / 2
    cards = cards.map { p in
      PlacedCard(card: p.card, x: cx + (p.x - mx) * k, y: cy + (p.y - my) * k, heightPx: target, rotationDeg: p.rotationDeg)
    }
    if let strip = r.thumbnails { thumbnails = Self.strip(strip, cardHeight: target, region: (ox, 0, ox + W, H), &g) }
    if let box = r.gameBox {
      let bh = target * g.uniform(1.4...2.0), bw = bh * 1.35
      let left = box.corner == 0 || box.corner == 3, top = box.corner < 2
      let x = left ? ox + (box.inside - 0.5) * bw : ox + W - (box.inside - 0.5) * bw
      let y = top ? (box.inside - 0.5) * bh : H - (box.inside - 0.5) * bh
      gameBox = BoxPlacement(x: x, y: y, width: bw, height: bh, rotationDeg: g.uniform(-12...12))
    }
  }

  /// Thumbnails side by side along `edge`, slightly apart, upright to that edge.
  static func strip(_ s: ThumbnailStrip, cardHeight: Double, region: (Double, Double, Double, Double),
                    _ g: inout SeededGenerator) -> [PlacedCard] {
    let th = cardHeight * s.scale, tw = th * aspect, step = tw * g.uniform(1.05...1.3)
    let horizontal = s.edge == 0 || s.edge == 2
    let length = horizontal ? region.2 - region.0 : region.3 - region.1
    let start = g.uniform(0.05...0.5) * max(0, length - step * Double(s.count))
    let inset = th / 2 + g.uniform(1...4)
    return (0..<s.count).map { i in
      let along = start + step * (Double(i) + 0.5)
      let card = Card.deck[g.int(0...80)]
      switch s.edge {
      case 0: return PlacedCard(card: card, x: region.0 + along, y: region.1 + inset, heightPx: th, rotationDeg: 0)
      case 2: return PlacedCard(card: card, x: region.0 + along, y: region.3 - inset, heightPx: th, rotationDeg: 0)
      case 1: return PlacedCard(card: card, x: region.2 - inset, y: region.1 + along, heightPx: th, rotationDeg: 90)
      default: return PlacedCard(card: card, x: region.0 + inset, y: region.1 + along, heightPx: th, rotationDeg: 90)
      }
    }
  }
}
