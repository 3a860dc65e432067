import Core
import Testing
@testable import Synth

/// `GroundTruth.shaftPart` names what an extra detection landed on: the nock
/// and the middle of every painted shaft are found as such, its entry point and
/// the bare face far from any arrow as neither.
struct ShaftPartTests {
  @Test func nocksShaftsAndEntriesAreToldApart() throws {
    var spec = SceneSpec(face: "10_zone", seed: 5, size: ImageSize(width: 1280, height: 960), arrowCount: 5)
    spec.camera.tiltDeg = 30
    let truth = try Synthesizer.render(spec).truth
    let shafts = truth.scene.shaftsInPaintOrder.compactMap { s in truth.scene.silhouette(s).map { (s, $0) } }
    try #require(!shafts.isEmpty)
    var middles = 0
    for (s, sil) in shafts {
      let nock = truth.scene.nockDisc(s)
      #expect(truth.shaftPart(x: nock.x, y: nock.y) == .nock)
      let mid = ((sil.p0.0 + sil.p1.0) / 2, (sil.p0.1 + sil.p1.1) / 2)
      let length = ((sil.p1.0 - sil.p0.0) * (sil.p1.0 - sil.p0.0) + (sil.p1.1 - sil.p0.1) * (sil.p1.1 - sil.p0.1)).squareRoot()
      // A shaft seen nearly end-on has no middle away from both ends.
      guard length > 8 * GroundTruth.entryShaftWidths * 2 * sil.w0 else { continue }
      middles += 1
      #expect(truth.shaftPart(x: mid.0, y: mid.1) != nil, "the middle of shaft \(s.index)")
    }
    #expect(middles > 0)
    // The frame is the identity here, so the truth's entry pixels are the painter's.
    for (a, i) in zip(truth.arrows, truth.arrows.indices) where a.style == .shaft && !a.entryHidden {
      let part = truth.shaftPart(x: a.pixelX, y: a.pixelY)
      #expect(part != .shaft, "arrow \(i)'s entry point is its entry, not a shaft")
    }
    #expect(truth.shaftPart(x: 2, y: 2) == nil)
  }

  /// `shaftEnds` gives each visible shaft once, its entry at a shafted
  /// arrow's entry pixel and its nock where `shaftPart` says nock.
  @Test func shaftEndsJoinEachEntryToItsNock() throws {
    var spec = SceneSpec(face: "10_zone", seed: 11, size: ImageSize(width: 1280, height: 960), arrowCount: 6)
    spec.camera.tiltDeg = 40
    let truth = try Synthesizer.render(spec).truth
    let ends = truth.shaftEnds
    let entries = truth.arrows.filter { $0.style == .shaft }
    try #require(!ends.isEmpty)
    #expect(ends.count <= entries.count)
    for e in ends {
      #expect(entries.contains { abs($0.pixelX - e[0]) < 1e-3 && abs($0.pixelY - e[1]) < 1e-3 }, "entry \(e[0]), \(e[1])")
      #expect(truth.shaftPart(x: e[2], y: e[3]) == .nock)
      #expect((e[2] - e[0]) * (e[2] - e[0]) + (e[3] - e[1]) * (e[3] - e[1]) > 0.25)
    }
  }
}
