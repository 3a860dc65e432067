import Foundation

/// An axis-aligned rectangle in pixels, (x, y) its top-left corner, y down.
package struct LabelRect: Sendable, Hashable {
  package var x: Double, y: Double, width: Double, height: Double

  /// Memberwise.
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x; self.y = y; self.width = width; self.height = height
  }

  package var maxX: Double { x + width }
  package var maxY: Double { y + height }

  /// True when the two rectangles share interior area (touching edges do not count).
  package func intersects(_ o: LabelRect) -> Bool {
    x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
  }

  /// True when `o` lies wholly inside this rectangle.
  package func contains(_ o: LabelRect) -> Bool {
    o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY
  }

  /// True when the point lies inside or on the edge.
  package func contains(x px: Double, y py: Double) -> Bool {
    px >= x && px <= maxX && py >= y && py <= maxY
  }

  /// True when the open disc of `radius` around (cx, cy) reaches into the rectangle.
  package func meetsDisc(cx: Double, cy: Double, radius: Double) -> Bool {
    let nx = min(max(cx, x), maxX), ny = min(max(cy, y), maxY)
    let dx = cx - nx, dy = cy - ny
    return dx * dx + dy * dy < radius * radius || contains(x: cx, y: cy)
  }

  /// The point on the rectangle's edge nearest to (px, py): where a leader line ends.
  package func nearestEdgePoint(to px: Double, _ py: Double) -> (x: Double, y: Double) {
    (min(max(px, x), maxX), min(max(py, y), maxY))
  }
}

/// Where one label went. `rect` is the drawn tag: the label's own text, or
/// for a callout its number; nil when the label lives only in the margin list
/// and a line runs from the point to its margin row.
package struct Placement: Sendable, Hashable {
  /// The tag's rectangle, inside the layout bounds; nil: margin only.
  package var rect: LabelRect?
  /// Draw a line from the point to `rect` (displaced beyond the first ring).
  package var leader: Bool
  /// 1-based number in the margin list, nil when the label is drawn in full at `rect`.
  package var callout: Int?
}

/// Greedy, deterministic label placement: every label tries candidate spots
/// around its point in a fixed order (ring 0 beside the point, then rings
/// further out reached by a leader line) and takes the first that stays inside
/// `bounds`, misses every placed tag and every point's disc. More than
/// `maxInline` labels, or a label with no free spot, become numbered callouts:
/// the number is placed the same way and the text goes to a margin list.
package enum LabelLayout {
  /// More labels than this and all of them become callouts.
  package static let maxInline = 12
  /// Rings of candidates tried after the one beside the point.
  package static let outerRings = 14
  /// Directions tried on ring 0 (down, up, right, left, then the diagonals), as (dx, dy).
  static let nearDirections: [(Double, Double)] = [
    (0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1),
  ]
  /// Directions on outer rings: 16 compass points clockwise from straight down.
  static let farDirections: [(Double, Double)] = (0..<16).map { i in
    let a = Double(i) * Double.pi / 8
    return (-sinTable(a), cosTable(a))
  }

  /// Places one label per point. `labelSizes[i]` is label i's plate (text plus
  /// padding); `calloutSize` the plate of the widest callout number; `gap`
  /// the clear space kept between a tag and a point's disc or another tag.
  /// Same input → same output.
  package static func place(
    points: [(x: Double, y: Double)], labelSizes: [(width: Double, height: Double)], bounds: LabelRect,
    pointRadius: Double, calloutSize: (width: Double, height: Double)? = nil, gap: Double = 2
  ) -> [Placement] {
    precondition(points.count == labelSizes.count, "one size per point")
    var placed: [LabelRect] = []
    var out = [Placement](repeating: Placement(rect: nil, leader: false, callout: nil), count: points.count)
    var overflow: [Int] = []
    if points.count > maxInline {
      overflow = Array(points.indices)
    } else {
      for i in points.indices {
        if let (r, leader) = spot(for: i, size: labelSizes[i], points, placed, bounds, pointRadius, gap) {
          placed.append(r)
          out[i] = Placement(rect: r, leader: leader, callout: nil)
        } else {
          overflow.append(i)
        }
      }
    }
    let tallest = labelSizes.map(\.height).max() ?? 0
    let tag = calloutSize ?? (width: tallest * 1.4, height: tallest)
    for (k, i) in overflow.enumerated() {
      if let (r, leader) = spot(for: i, size: tag, points, placed, bounds, pointRadius, gap) {
        placed.append(r)
        out[i] = Placement(rect: r, leader: leader, callout: k + 1)
      } else {
        out[i] = Placement(rect: nil, leader: true, callout: k + 1)
      }
    }
    return out
  }

  /// The first free candidate for point `i`, and whether it needs a leader.
  static func spot(
    for i: Int, size: (width: Double, height: Double), _ points: [(x: Double, y: Double)], _ placed: [LabelRect],
    _ bounds: LabelRect, _ radius: Double, _ gap: Double
  ) -> (LabelRect, Bool)? {
    let p = points[i]
    let step = max(size.height, radius) + gap
    for ring in 0...outerRings {
      let distance = radius + gap + Double(ring) * step
      for d in ring == 0 ? nearDirections : farDirections {
        let r = candidate(p, d, distance, size)
        if fits(r, points, placed, bounds, radius, gap) { return (r, ring > 0) }
      }
    }
    return nil
  }

  /// The plate placed in direction `d` from `p`, its nearest side `distance` away.
  static func candidate(_ p: (x: Double, y: Double), _ d: (Double, Double), _ distance: Double, _ s: (width: Double, height: Double)) -> LabelRect {
    let len = (d.0 * d.0 + d.1 * d.1).squareRoot()
    let ux = d.0 / len, uy = d.1 / len
    // Centre far enough along the direction that the plate's near edge is `distance` away.
    let reach = distance + abs(ux) * s.width / 2 + abs(uy) * s.height / 2
    return LabelRect(x: p.x + ux * reach - s.width / 2, y: p.y + uy * reach - s.height / 2, width: s.width, height: s.height)
  }

  /// Inside the bounds, clear of every point's disc and every placed plate (by `gap`).
  static func fits(_ r: LabelRect, _ points: [(x: Double, y: Double)], _ placed: [LabelRect], _ bounds: LabelRect, _ radius: Double, _ gap: Double) -> Bool {
    guard bounds.contains(r) else { return false }
    let grown = LabelRect(x: r.x - gap, y: r.y - gap, width: r.width + 2 * gap, height: r.height + 2 * gap)
    for q in points where grown.meetsDisc(cx: q.x, cy: q.y, radius: radius) { return false }
    for o in placed where grown.intersects(o) { return false }
    return true
  }
}

/// sin and cos rounded to 12 decimals, so the compass points are exact
/// (0, ±1) where they should be and candidates do not drift by an ulp.
private func sinTable(_ a: Double) -> Double { ((sin(a) * 1e12).rounded()) / 1e12 }
private func cosTable(_ a: Double) -> Double { ((cos(a) * 1e12).rounded()) / 1e12 }
