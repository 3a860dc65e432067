@testable import SetCards
import Testing

/// `TableFilter.classify` rule by rule, on hand-made boxes in a 1000 × 800 frame
/// where a table card is 64 × 100 (area 6400, so the median of a table is 6400).
@Suite struct TableFilterTests {
  static let width = 1000, height = 800
  static let settings = TableFilterSettings.photos
  /// Margin inside the edge band (3 % of 1000 = 30 px): well within it, well outside it.
  static let nearEdge = 10.0, offEdge = 60.0

  /// A card-shaped box of `w` × `h` at (x, y).
  func box(_ x: Double, _ y: Double, _ w: Double = 64, _ h: Double = 100) -> Box {
    Box(x1: x, y1: y, x2: x + w, y2: y + h)
  }

  /// Five table cards in a row in the middle of the frame.
  var table: [Box] { (0..<5).map { box(300 + Double($0) * 80, 350) } }

  func classify(_ boxes: [Box], _ s: TableFilterSettings = settings) -> [OffTableReason?] {
    TableFilter.classify(boxes: boxes, imageWidth: Self.width, imageHeight: Self.height, settings: s)
  }

  @Test func aTableOfCardsIsAllOnTheTable() {
    #expect(classify(table).allSatisfy { $0 == nil })
    // Lying cards (1.56 : 1) are cards too.
    #expect(classify(table + [box(300, 500, 100, 64)]).allSatisfy { $0 == nil })
  }

  /// Half the median area is the line: 45 × 70 = 3150 is under 3200, 46 × 70 = 3220 is not.
  @Test(arguments: [(45.0, OffTableReason?.some(.thumbnail)), (46.0, nil)])
  func thumbnailIsUnderHalfTheMedian(width: Double, reason: OffTableReason?) {
    let r = classify(table + [box(500, 150, width, 70)])
    #expect(r.last == reason, "\(r)")
    #expect(r.dropLast().allSatisfy { $0 == nil })
  }

  /// Width / height outside 0.45…2.2 is a box, whatever its size; the median leaves it out.
  @Test(arguments: [(300.0, 100.0, true), (100.0, 44.0, true), (40.0, 100.0, true), (100.0, 46.0, false), (46.0, 100.0, false)])
  func boxIsNotCardShaped(width: Double, height: Double, isBox: Bool) {
    let r = classify(table + [box(400, 500, width, height)])
    #expect((r.last == .box) == isBox, "\(width)×\(height): \(r)")
    #expect(r.dropLast().allSatisfy { $0 == nil })
  }

  @Test func anEmptyBoxIsABox() {
    #expect(classify(table + [box(400, 500, 0, 100)]).last == .box)
  }

  /// Three 50 × 78 boxes (3900, 0.61 of the median: small-ish, not thumbnails) along one edge.
  func strip(_ edge: TableFilter.Edge, inset: Double, count: Int = 3, w: Double = 50, h: Double = 78) -> [Box] {
    (0..<count).map { i in
      let along = 100 + Double(i) * 120
      switch edge {
      case .left: return box(inset, along, w, h)
      case .right: return box(Double(Self.width) - inset - w, along, w, h)
      case .top: return box(along, inset, w, h)
      case .bottom: return box(along, Double(Self.height) - inset - h, w, h)
      }
    }
  }

  @Test(arguments: TableFilter.Edge.allCases)
  func threeSmallBoxesAlongAnEdgeAreAStrip(edge: TableFilter.Edge) {
    let r = classify(table + strip(edge, inset: Self.nearEdge))
    #expect(r.suffix(3).allSatisfy { $0 == .edgeStrip }, "\(edge): \(r)")
    #expect(r.prefix(5).allSatisfy { $0 == nil })
  }

  @Test func notAStrip() {
    // Two are not a strip, and at 0.61 of the median they are not thumbnails either.
    #expect(classify(table + strip(.left, inset: Self.nearEdge, count: 2)).allSatisfy { $0 == nil })
    // Three just off the edge band.
    #expect(classify(table + strip(.left, inset: Self.offEdge)).allSatisfy { $0 == nil })
    // Three full-size cards at the edge: a table cut by the frame.
    #expect(classify(table + strip(.left, inset: Self.nearEdge, w: 64, h: 100)).allSatisfy { $0 == nil })
    // 60 × 80 = 4800 is 0.75 of the median: not small-ish.
    #expect(classify(table + strip(.top, inset: Self.nearEdge, w: 60, h: 80)).allSatisfy { $0 == nil })
  }

  @Test func aStripOfThumbnailsIsNamedAStrip() {
    let r = classify(table + strip(.bottom, inset: 0, w: 30, h: 47))
    #expect(r.suffix(3).allSatisfy { $0 == .edgeStrip }, "\(r)")
  }

  @Test func boxesThatNoLineParallelToTheEdgeCrossesAreNotAStrip() {
    // All within the band by x1, but one ends (x 5) before another starts (x 20).
    let boxes = [box(0, 100, 5, 8), box(20, 220, 50, 78), box(0, 340, 50, 78)]
    #expect(!TableFilter.Edge.left.lineCrosses(boxes))
    #expect(TableFilter.Edge.left.lineCrosses(strip(.left, inset: Self.nearEdge)))
  }

  @Test func fewCardsGiveNoMedian() {
    // Two card-shaped boxes (and a box, which the median leaves out): only the shape rule.
    let r = classify([box(300, 300), box(500, 300, 20, 31), box(600, 300, 300, 100)])
    #expect(r == [nil, nil, .box])
  }
}
