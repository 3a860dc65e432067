@testable import Canvas
import Testing
@testable import Harness
@testable import Overlays

/// The overlay's score table: every cell inside the picture, groups side by
/// side never overlapping, every arrow on a row the picture has room for.
struct ScoreTableTests {
  /// Widths of real overlays: a 640x480 photo, 4:3 and 16:9 at any size, a portrait phone photo.
  static let widths: [Double] = [963, 1141, 730, 830]

  @Test(arguments: widths) func cellsFitThePicture(width: Double) throws {
    let surface = try Surface(width: 8, height: 8)
    let ctx = try Context(surface)
    ctx.selectFont(family: "DejaVu Sans", bold: true)
    ctx.setFontSize(14)
    // The widest text a cell holds is its title (numbers are shorter).
    let titleWidths = ScoreTable.titles.map { ctx.textExtents($0).xAdvance }
    for arrows in 0...24 {
      let t = ScoreTable(arrows: arrows, width: width)
      #expect(t.groups >= 1 && t.groupsUsed <= t.groups)
      for g in 0..<t.groupsUsed {
        for c in ScoreTable.titles.indices {
          let end = t.x(group: g, cell: c) + titleWidths[c]
          let next = c + 1 < ScoreTable.titles.count ? t.x(group: g, cell: c + 1) : t.x(group: g + 1, cell: 0)
          #expect(end + 4 <= next, "width \(width): cell \(c) of group \(g) runs into the next")
          #expect(end <= width - 10, "width \(width): cell \(c) of group \(g) leaves the picture")
        }
      }
      // Rows beyond the base five grow the picture by exactly their height.
      #expect(t.extraHeight == Double(max(0, t.rows - ScoreTable.rowsInBase)) * ScoreTable.rowHeight)
      #expect(t.rows * t.groups >= arrows)
    }
  }
}
