@testable import Detection
import Imaging
import Testing
@testable import Pipelines

/// The look along the shafts: on a drawn photo of parallel shafts, entries show a
/// shaft the photo's way, a nock shows one the other way, an old hole none; the
/// shipped model keeps the entries and drops the rest.
struct ShaftCheckTests {
  /// A 400×300 light photo with dark 4 px shafts from each entry 80 px to the
  /// right (face radius 300, so rays reach 4.5…90 px) and a dark dot at `hole`.
  func photo() throws -> RGBA8Image {
    var image = try RGBA8Image(width: 400, height: 300, fill: RGBA(225, 222, 215))
    for (x, y) in entries {
      for dx in 0...80 { for dy in -2...1 { image[x + dx, y + dy] = RGBA(40, 40, 45) } }
    }
    for dx in -3...3 { for dy in -3...3 { image[hole.0 + dx, hole.1 + dy] = RGBA(40, 40, 45) } }
    return image
  }

  let entries = [(60, 60), (80, 140), (100, 220)]
  let hole = (300, 250)
  /// The three entries, the first shaft's nock, the hole.
  var points: [(x: Double, y: Double, confidence: Double)] {
    entries.map { (Double($0.0), Double($0.1), 0.8) } + [(140, 60, 0.6), (Double(hole.0), Double(hole.1), 0.6)]
  }

  @Test func entriesShowTheirShaftTheWayThePhotosShaftsGo() throws {
    let (f, direction) = ShaftEvidence.features(try photo(), points: points, faceRadius: 300)
    #expect(direction == 0, "the shafts leave their entries towards +x")
    let e = try #require(ShaftCheck.featureNames.firstIndex(of: "e2near")), n = try #require(ShaftCheck.featureNames.firstIndex(of: "n2near"))
    for i in 0..<3 {
      #expect(f[i][e] > 0.5 && f[i][n] < 0.2, "entry \(i): \(f[i])")
    }
    #expect(f[3][n] > 0.5 && f[3][e] < 0.2, "the nock's shaft runs back: \(f[3])")
    #expect(f[4][e] < 0.2 && f[4][n] < 0.2, "the hole has none: \(f[4])")
  }

  /// At the refiner's own accept (a point the refiner alone would keep) the
  /// shipped model keeps the entries and drops the nock and the hole; at any
  /// probability it believes an entry more than either.
  @Test func theShippedModelKeepsEntriesAndDropsTheNockAndTheHole() throws {
    let check = ShaftCheck.shipped
    let f = ShaftEvidence.features(try photo(), points: points, faceRadius: 300).features
    let accept = RefinerSettings.shipped.accept
    #expect(points.indices.map { check.probability(f[$0], confidence: accept) >= check.keepAbove } == [true, true, true, false, false])
    for p in stride(from: 0.2, through: 0.9, by: 0.1) {
      let entry = check.probability(f[0], confidence: p)
      #expect(entry > check.probability(f[3], confidence: p) && entry > check.probability(f[4], confidence: p), "at \(p)")
    }
  }

  @Test func everyFeatureHasAWeight() {
    #expect(ShaftCheckWeights.shipped.count == ShaftCheck.featureNames.count + 1)
  }

  /// A trade of recall for precision, so no profile takes it unasked.
  @Test func noProfileLooksAlongTheShaftsByDefault() throws {
    for p in PlatformProfile.all { #expect(p.shaftCheck == nil, "\(p.name)") }
  }
}
