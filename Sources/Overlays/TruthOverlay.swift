import Canvas
import Synth
import Scoring

/// A review picture of the ground truth: the scoring outline of every spot,
/// each arrow's impact point with its score, and the end total.
package enum TruthOverlay {
  /// Draws the truth over `image`.
  package static func draw(_ truth: GroundTruth, on image: RGBA8Image) throws(SynthError) -> RGBA8Image {
    do {
      let surface = try Surface(image: image)
      let ctx = try Context(surface)
      let scale = Double(max(truth.width, truth.height)) / 1280
      // Outer scoring ring of each spot, projected.
      ctx.setSource(Color(hex: 0x00E5FF, alpha: 0.9))
      ctx.setLineWidth(2 * scale)
      for s in truth.scene.face.spots {
        ctx.polygon(truth.projectCircle(cx: s.x, cy: s.y, r: s.radius, points: 360))
        ctx.stroke()
      }
      ctx.selectFont(family: "DejaVu Sans", bold: true)
      ctx.setFontSize(18 * scale)
      for a in truth.arrows {
        let r = a.inclusive
        let tier = r.isMiss ? 0x9E9E9E : (r.isX ? 0xFFD700 : 0x00E676) as UInt32
        ctx.setSource(Color(hex: 0x000000, alpha: 0.6))
        ctx.arc(cx: a.pixelX, cy: a.pixelY, radius: 9 * scale, from: 0, to: 2 * .pi)
        ctx.setLineWidth(5 * scale)
        ctx.stroke()
        ctx.setSource(Color(hex: tier))
        ctx.arc(cx: a.pixelX, cy: a.pixelY, radius: 9 * scale, from: 0, to: 2 * .pi)
        ctx.setLineWidth(2.5 * scale)
        ctx.stroke()
        label(ctx, r.label, x: a.pixelX, y: a.pixelY + 28 * scale, scale: scale)
      }
      let total = truth.arrows.reduce(0) { $0 + $1.inclusive.score }
      let header = "\(truth.scene.face.id) · \(truth.arrows.count) arrows · total \(total) (inclusive)"
      ctx.setFontSize(20 * scale)
      label(ctx, header, x: nil, y: 30 * scale, scale: scale)
      try ctx.check()
      return surface.image()
    } catch { throw .canvas(error) }
  }

  /// White text on a dark box, centred at x (or left-aligned at the margin).
  static func label(_ ctx: Context, _ text: String, x: Double?, y: Double, scale: Double) {
    let e = ctx.textExtents(text)
    let left = x.map { $0 - e.width / 2 } ?? 12 * scale
    ctx.setSource(Color(hex: 0x000000, alpha: 0.65))
    ctx.rectangle(x: left - 4 * scale, y: y + e.yBearing - 4 * scale, width: e.width + 8 * scale, height: e.height + 8 * scale)
    ctx.fill()
    ctx.setSource(Color(hex: 0xFFFFFF))
    ctx.moveTo(left - e.xBearing, y)
    ctx.showText(text)
  }
}
