import Canvas
import Pipelines

extension ArcheryOverlay {
  /// Radius of a face-panel marker disc, the disc a label must keep off.
  package static let faceMarkerRadius = 12.0
  /// Radius around a detection's point in the photo panel that labels keep off.
  package static let photoPointRadius = 6.0
  /// Face-panel labels (scores) and photo-panel labels (score-table row numbers).
  package static let faceStyle = LabelStyle(size: 13, pad: 3), photoStyle = LabelStyle(size: 11, pad: 2)
  /// Callout margin rows.
  static let marginStyle = LabelStyle(size: 12, pad: 0), marginLine = 16.0

  /// The photo panel's rectangle for a photo scaled to `pw`×`ph`.
  package static func photoBounds(pw: Double, ph: Double) -> LabelRect { LabelRect(x: 10, y: 34, width: pw, height: ph) }
  /// The face panel's rectangle beside a photo panel `pw` wide.
  package static func faceBounds(pw: Double) -> LabelRect { LabelRect(x: pw + 20, y: 34, width: panel, height: panel) }
  /// Where face coordinates (x, y in face radii) land in the face panel.
  package static func facePoint(_ x: Double, _ y: Double, pw: Double) -> (x: Double, y: Double) {
    let b = faceBounds(pw: pw), radius = panel / 2 - 10
    return (b.x + panel / 2 + x * radius, b.y + panel / 2 + y * radius)
  }

  /// Label text of face marker `i`: its confirmed score (X for an X), else its number.
  static func faceText(_ r: RunResult, _ i: Int) -> String {
    r.confirmed.flatMap { $0.indices.contains(i) ? ($0[i].isX ? "X" : String($0[i].score)) : nil } ?? "\(i + 1)"
  }

  /// Label text of detection `d`: its row in the score table; "–" when the
  /// end was confirmed without it; its detection order when nothing was confirmed.
  static func photoText(_ r: RunResult, _ i: Int) -> String {
    guard let confirmed = r.confirmed else { return "\(i + 1)" }
    return confirmed.firstIndex { $0.id == r.detections[i].id }.map { "\($0 + 1)" } ?? "–"
  }

  /// Both panels' labels, laid out once with the picture's own text metrics.
  struct Labels {
    let facePoints: [(x: Double, y: Double)], faceTexts: [String], face: [Placement]
    let photoPoints: [(x: Double, y: Double)], photoTexts: [String], photo: [Placement]
    let marginRows: [String], marginWidth: Double

    init(result r: RunResult, scale: Double, pw: Double, ph: Double) throws {
      let probe = try Context(try Surface(width: 1, height: 1))
      facePoints = r.adjustment.final.arrows.map { ArcheryOverlay.facePoint($0.x, $0.y, pw: pw) }
      faceTexts = facePoints.indices.map { ArcheryOverlay.faceText(r, $0) }
      face = LabelLayout.place(
        points: facePoints, labelSizes: faceStyle.sizes(probe, faceTexts), bounds: faceBounds(pw: pw),
        pointRadius: faceMarkerRadius, calloutSize: faceStyle.sizes(probe, ["88"])[0])
      photoPoints = r.detections.map { (10 + Double($0.pixelX) * scale, 34 + Double($0.pixelY) * scale) }
      photoTexts = photoPoints.indices.map { ArcheryOverlay.photoText(r, $0) }
      photo = LabelLayout.place(
        points: photoPoints, labelSizes: photoStyle.sizes(probe, photoTexts), bounds: photoBounds(pw: pw, ph: ph),
        pointRadius: photoPointRadius, calloutSize: photoStyle.sizes(probe, ["88"])[0])
      let photoRows = Self.rows(photo, photoTexts), faceRows = Self.rows(face, faceTexts)
      marginRows = (photoRows.isEmpty ? [] : ["photo"] + photoRows) + (faceRows.isEmpty ? [] : ["face"] + faceRows)
      marginWidth = LabelDrawing.marginWidth(probe, marginRows, style: marginStyle)
    }

    /// "k  text" for every callout, in number order.
    static func rows(_ placements: [Placement], _ texts: [String]) -> [String] {
      placements.indices.compactMap { i in placements[i].callout.map { ($0, "\($0)  \(texts[i])") } }
        .sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Height the margin column needs below the header.
    var marginHeight: Double { marginRows.isEmpty ? 0 : Double(marginRows.count) * ArcheryOverlay.marginLine + 10 }

    func drawPhoto(_ ctx: Context) {
      LabelDrawing.draw(ctx, texts: photoTexts, points: photoPoints, placements: photo, style: photoStyle)
    }

    func drawFace(_ ctx: Context) {
      LabelDrawing.draw(ctx, texts: faceTexts, points: facePoints, placements: face, style: faceStyle)
    }

    /// The callout list in the right-hand margin, from the panels' top.
    func drawMargin(_ ctx: Context, x: Double) {
      LabelDrawing.drawMargin(ctx, marginRows, x: x, y: 34, lineHeight: ArcheryOverlay.marginLine, style: marginStyle)
    }
  }
}
