#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The part of a painted arrow, away from its entry point, that a pixel lies
/// on: what a detector that answers there mistook for an entry.
public enum ShaftPart: String, Sendable, CaseIterable {
  /// The fletched end: a vane, or within two shaft widths of the nock.
  case nock
  /// Along the shaft, more than `GroundTruth.entryShaftWidths` shaft widths
  /// from its entry point.
  case shaft
}

extension GroundTruth {
  /// Shaft widths around an entry point that still count as the entry, not
  /// its shaft: a detection there is the entry, placed a little off.
  public static let entryShaftWidths = 3.0

  /// Which part of a shafted arrow the pixel (x, y) of this truth's frame lies
  /// on: a fletched end before any shaft, nil for neither (or an entry point).
  public func shaftPart(x: Double, y: Double) -> ShaftPart? {
    let shafts = scene.shaftsInPaintOrder.map { ($0, scene.silhouette($0)) }
    for (s, sil) in shafts {
      let n = scene.nockDisc(s), c = frame.apply((n.x, n.y))
      // The shaft's width at the nock (seen end-on: the nock's own disc).
      let width = max(1, 2 * (sil?.w1 ?? n.r))
      if hypot(x - c.0, y - c.1) <= n.r + 2 * width { return .nock }
      if scene.vanes(s).contains(where: { scene.contains($0.pixels.map(frame.apply), x, y) }) { return .nock }
    }
    for (_, sil) in shafts {
      guard let sil else { continue }
      let p0 = frame.apply(sil.p0), p1 = frame.apply(sil.p1)
      let dx = p1.0 - p0.0, dy = p1.1 - p0.1, len2 = dx * dx + dy * dy
      let t = max(0, min(1, ((x - p0.0) * dx + (y - p0.1) * dy) / len2))
      let half = sil.w0 + (sil.w1 - sil.w0) * t
      let off = hypot(x - (p0.0 + t * dx), y - (p0.1 + t * dy))
      // A width (at least 2 px) beyond the painted edge: an answer on a shaft lands on its axis or beside it.
      guard off <= 2 * half + 2 else { continue }
      if hypot(x - p0.0, y - p0.1) > Self.entryShaftWidths * 2 * sil.w0 { return .shaft }
    }
    return nil
  }
}

extension GroundTruth {
  /// Each shafted arrow's painted ends in this truth's pixels, `[entryX, entryY,
  /// nockX, nockY]`, in painting order; arrows seen end-on (no silhouette) are
  /// left out. Datasets carry them so a refiner can be shown the nock and the
  /// shaft as what an entry is not.
  public var shaftEnds: [[Double]] {
    scene.shaftsInPaintOrder.compactMap { s in
      guard let sil = scene.silhouette(s) else { return nil }
      let p0 = frame.apply(sil.p0), n = scene.nockDisc(s), p1 = frame.apply((n.x, n.y))
      return [p0.0, p0.1, p1.0, p1.1]
    }
  }
}
