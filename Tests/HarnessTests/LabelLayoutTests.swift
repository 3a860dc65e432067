import Canvas
import Foundation
import Testing
@testable import Overlays

/// The label layout on its own: crowded points, the image's edge, callouts.
@Suite struct LabelLayoutTests {
  static let bounds = LabelRect(x: 0, y: 0, width: 400, height: 400)
  static let plate = (width: 22.0, height: 17.0)

  /// Problems with a layout: tags overlapping, a tag on a point's disc or outside the bounds.
  static func problems(_ p: [Placement], points: [(x: Double, y: Double)], radius: Double, bounds: LabelRect) -> [String] {
    var out: [String] = []
    let rects = p.enumerated().compactMap { i, q in q.rect.map { (i, $0) } }
    for (a, (i, r)) in rects.enumerated() {
      if !bounds.contains(r) { out.append("tag \(i) leaves the bounds: \(r)") }
      for (k, q) in points.enumerated() where r.contains(x: q.x, y: q.y) || r.meetsDisc(cx: q.x, cy: q.y, radius: radius) {
        out.append("tag \(i) covers point \(k)")
      }
      for (j, o) in rects[(a + 1)...] where r.intersects(o) { out.append("tags \(i) and \(j) overlap") }
    }
    return out
  }

  /// `n` points on a spiral inside a disc of `radius` around (cx, cy): deterministic crowding.
  static func crowd(_ n: Int, cx: Double, cy: Double, radius: Double) -> [(x: Double, y: Double)] {
    (0..<n).map { i in
      let t = Double(i) / Double(max(1, n - 1)), a = Double(i) * 2.399963  // golden angle
      return (cx + radius * t.squareRoot() * cos(a), cy + radius * t.squareRoot() * sin(a))
    }
  }

  @Test func spreadPointsGetLabelsBesideThemWithoutLeaders() {
    let points = (0..<6).map { (x: 40.0 + Double($0) * 60, y: 200.0) }
    let p = LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 12)
    #expect(p.allSatisfy { $0.rect != nil && !$0.leader && $0.callout == nil })
    #expect(Self.problems(p, points: points, radius: 12, bounds: Self.bounds).isEmpty)
    // The first candidate is straight below the point.
    #expect(p[0].rect == LabelRect(x: 40 - 11, y: 200 + 12 + 2, width: 22, height: 17))
  }

  @Test func crowdedPointsMoveOutAlongLeaders() {
    let points = Self.crowd(8, cx: 200, cy: 200, radius: 20)
    let p = LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 12)
    #expect(p.contains { $0.leader })
    #expect(p.allSatisfy { $0.callout == nil })
    #expect(Self.problems(p, points: points, radius: 12, bounds: Self.bounds).isEmpty)
  }

  @Test func pointsAtTheEdgeKeepTheirLabelsInside() {
    let points: [(x: Double, y: Double)] = [(1, 1), (399, 1), (1, 399), (399, 399), (200, 0), (0, 200)]
    let p = LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 12)
    #expect(p.allSatisfy { $0.rect != nil && $0.callout == nil })
    #expect(Self.problems(p, points: points, radius: 12, bounds: Self.bounds).isEmpty)
  }

  @Test func moreThanADozenBecomeNumberedCallouts() {
    let points = (0..<13).map { (x: 20.0 + Double($0) * 28, y: 100.0) }
    let p = LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 6)
    #expect(p.map(\.callout) == (1...13).map { Optional($0) })
    #expect(Self.problems(p, points: points, radius: 6, bounds: Self.bounds).isEmpty)
    let twelve = LabelLayout.place(points: Array(points.prefix(12)), labelSizes: Array(repeating: Self.plate, count: 12), bounds: Self.bounds, pointRadius: 6)
    #expect(twelve.allSatisfy { $0.callout == nil })
  }

  @Test func thirtyArrowsInAFortyPixelDisc() {
    let points = Self.crowd(30, cx: 200, cy: 200, radius: 20)
    let p = LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 12)
    #expect(Set(p.compactMap(\.callout)) == Set(1...30))
    #expect(Self.problems(p, points: points, radius: 12, bounds: Self.bounds).isEmpty)
    // Same input, same layout.
    #expect(p == LabelLayout.place(points: points, labelSizes: points.map { _ in Self.plate }, bounds: Self.bounds, pointRadius: 12))
  }

  @Test func noFreeSpotBecomesAMarginCallout() {
    // Bounds barely larger than the point: nothing fits, the label goes to the margin.
    let tight = LabelRect(x: 0, y: 0, width: 30, height: 30)
    let p = LabelLayout.place(points: [(15, 15)], labelSizes: [Self.plate], bounds: tight, pointRadius: 12)
    #expect(p == [Placement(rect: nil, leader: true, callout: 1)])
  }

  @Test func rectangleGeometry() {
    let r = LabelRect(x: 10, y: 10, width: 10, height: 10)
    #expect(!r.intersects(LabelRect(x: 20, y: 10, width: 5, height: 5)))  // touching edges
    #expect(r.intersects(LabelRect(x: 19, y: 19, width: 5, height: 5)))
    #expect(r.meetsDisc(cx: 25, cy: 15, radius: 5.5) && !r.meetsDisc(cx: 25, cy: 15, radius: 5))
    #expect(r.nearestEdgePoint(to: 0, 15) == (x: 10, y: 15))
  }
}
