import Foundation
import Imaging
import Scoring

extension TargetLocator {
  /// The least ring agreement a single-spot fit needs to count as a target:
  /// below it the photo shows no face of this kind (a diagram, a screenshot, a
  /// wall), and the run reports `target: null` rather than a confident wrong
  /// ellipse. Measured over every scenario: real faces 0.2–1 (lowest: IFAA
  /// field expert, black rings on black), a diagram of lines and a circle 0,
  /// a picture of four colour blocks 0.
  public static let minimumRingAgreement = 0.1

  /// Ring spacing in pixels at which a single-spot fit that gave no verdict at
  /// the usual 12 px is read again: a real face 100 px across still shows its
  /// colour bands 4 px apart; a fit around a squiggle on a card shows none.
  public static let smallFaceSpacing = 4.0

  /// The read at `smallFaceSpacing` judges fits whose larger radius is under
  /// this share of the picture's shorter side: a face a few dozen pixels across
  /// in a full photo. A thumbnail that the face fills keeps "no verdict".
  public static let smallFaceShare = 0.15

  /// How far a fit's edge may lie off its ellipse (median) and still be a
  /// face's edge where its rings give no verdict: within this share of the
  /// radius, or within `maximumEdgeResidualPx` pixels (on a face a few dozen
  /// pixels across a pixel of noise is a large share). A fit whose rings are
  /// too close to judge is no target beyond both, and a joint refit may not
  /// rescue a fit whose rings do not show. Faces measure 0.0005–0.0045 of the
  /// radius, or 0.15–1.1 px where tiny (a WA field face 72 px across: 0.030,
  /// 1.06 px); edges fitted to textures 0.026–0.065 and 2.2–8.7 px (noise,
  /// smoothed colour noise, a checkerboard, rings drawn as lines).
  public static let maximumEdgeResidual = 0.02
  /// The pixel half of `maximumEdgeResidual`.
  public static let maximumEdgeResidualPx = 1.5

  /// A joint refit (`jointRefit`) rescues a fit whose rings do not show, or whose
  /// edge is no ellipse, when its own rings show at least this well and its edge
  /// points lie within `jointRescueResidual` of their radii (median). On a face
  /// filling a 12-megapixel photo the first ring fit can catch the wrong edge
  /// (0.02–0.05 of the radius off, agreement 0–0.09) while every ring fitted at
  /// once shows (agreement 1.0, 0.0007); textures refit to agreement 0 and
  /// 0.006–0.011 (noise, a checkerboard).
  public static let jointRescueAgreement = 0.5
  /// See `jointRescueAgreement`.
  public static let jointRescueResidual = 0.004

  /// Whether a joint refit is a face beyond doubt (`jointRescueAgreement`).
  public static func jointIsAFace(_ joint: (fit: TargetFit, agreement: Double?)) -> Bool {
    (joint.agreement ?? 0) >= jointRescueAgreement && joint.fit.medianResidual <= jointRescueResidual
  }

  /// Whether `fit`'s edge lies close enough to its ellipse to be a face's (`maximumEdgeResidual`).
  public static func edgeIsAnEllipse(_ fit: TargetFit) -> Bool {
    fit.medianResidual <= maximumEdgeResidual || fit.edgeResidualPx <= maximumEdgeResidualPx
  }

  /// How well the picture agrees with the face the fit claims: the share of the
  /// face's ring boundaries (each spot's, those at least 12 px from their
  /// neighbours on at least a quarter of the rays) where, on at least half of the 48 rays from the spot's centre that
  /// stay inside the picture, the
  /// colour changes more sharply within ±0.03 of the boundary's radius than the
  /// ray does typically, at one radius all round (the middle half of those
  /// places within 0.015 of each other). Nil when no boundary is far enough
  /// from its neighbours to judge (a face a few dozen pixels across): no verdict.
  ///
  /// Shape: a 10-zone face in a photo shows its colour changes and most printed
  /// lines (≈ 0.5–1); lines and a circle that are no face show none (0).
  /// `spacing`: the least pixels between neighbouring boundaries for one to be judged.
  public static func ringAgreement(_ image: RGBA8Image, fit: TargetFit, face: Face, spacing: Double = 12) -> Double? {
    let radii = Array(Set(face.zones.map(\.radius))).sorted()
    guard !radii.isEmpty, image.width > 2, image.height > 2 else { return nil }
    let rays = 48, step = 0.005, reach = (radii.last ?? 1) + 0.12
    let samples = Int(reach / step) + 1
    var seen = 0, visible = 0
    var colour = [Double](repeating: 0, count: samples * 3)
    var change = [Double](repeating: 0, count: samples)
    for spot in face.spots {
      // Where, on each ray that sees a boundary, its sharpest change lies (offset from the
      // expected radius): a printed ring puts it at one radius all round; stray lines do not.
      var offsets = [[Double]](repeating: [], count: radii.count)
      var usable = [Int](repeating: 0, count: radii.count)  // rays on which each boundary can be told apart
      var raysIn = 0
      for k in 0..<rays {
        let a = Double(k) / Double(rays) * 2 * .pi, c = cos(a), s = sin(a)
        var inside = true
        for i in 0..<samples {
          let r = Double(i) * step * spot.radius
          let p = fit.pixel(spot.x + r * c, spot.y + r * s)
          let x = Int(p.0.rounded()), y = Int(p.1.rounded())
          guard x >= 0, y >= 0, x < image.width, y < image.height else { inside = false; break }
          let px = image[x, y]
          colour[i * 3] = Double(px.r); colour[i * 3 + 1] = Double(px.g); colour[i * 3 + 2] = Double(px.b)
        }
        guard inside else { continue }
        raysIn += 1
        // Colour change across ±1 sample; the ray's typical change is its median.
        for i in 0..<samples {
          let lo = max(0, i - 1), hi = min(samples - 1, i + 1)
          change[i] = abs(colour[hi * 3] - colour[lo * 3]) + abs(colour[hi * 3 + 1] - colour[lo * 3 + 1]) + abs(colour[hi * 3 + 2] - colour[lo * 3 + 2])
        }
        let typical = change.sorted()[samples / 2]
        // Pixels per face unit along this ray, to skip boundaries too close to tell apart.
        let p0 = fit.pixel(spot.x, spot.y), p1 = fit.pixel(spot.x + c * spot.radius, spot.y + s * spot.radius)
        let pxPerRadius = ((p1.0 - p0.0) * (p1.0 - p0.0) + (p1.1 - p0.1) * (p1.1 - p0.1)).squareRoot()
        for (b, radius) in radii.enumerated() {
          let gap = min(b > 0 ? radius - radii[b - 1] : radius, b + 1 < radii.count ? radii[b + 1] - radius : 1)
          guard gap * pxPerRadius >= spacing else { continue }
          usable[b] += 1
          let from = max(0, Int((radius - 0.03) / step)), to = min(samples - 1, Int((radius + 0.03) / step))
          guard let at = (from...to).max(by: { change[$0] < change[$1] }), change[at] >= max(24, 2.5 * typical) else { continue }
          offsets[b].append(Double(at) * step - radius)
        }
      }
      // A spot mostly outside the picture says nothing either way.
      guard raysIn * 4 >= rays else { continue }
      // A quarter of the rays is enough: a steeply tilted face resolves its rings along its long axis only.
      for b in radii.indices where usable[b] * 4 >= raysIn {
        visible += 1
        let o = offsets[b].sorted()
        guard o.count * 2 >= usable[b] else { continue }
        // The middle half of the offsets within 0.015 of each other: one circle, not scattered lines.
        if o[o.count * 3 / 4] - o[o.count / 4] <= 0.015 { seen += 1 }
      }
    }
    return visible == 0 ? nil : Double(seen) / Double(visible)
  }
}
