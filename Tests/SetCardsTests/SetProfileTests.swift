import Foundation
@testable import SetCards
@testable import Overlays
import Testing

/// The profile table, and what `seed` and `photos` do through the whole pipeline.
@Suite struct SetProfileTests {
  static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// A class confidence between `photos`' threshold and the seed's, and one under both.
  /// Confidences around the two class thresholds, whichever is higher: over both,
  /// between them, under both.
  static let seedThreshold = SetCardProfile.seed.settings.pipeline.classThreshold
  static let photosThreshold = SetCardProfile.photos.settings.pipeline.classThreshold
  static let overBoth = (max(seedThreshold, photosThreshold) + 1) / 2
  static let betweenThresholds = (seedThreshold + photosThreshold) / 2
  static let underBoth = min(seedThreshold, photosThreshold) / 2

  @Test(arguments: SetCardProfile.allCases)
  func everyProfileIsDescribedAndSane(profile: SetCardProfile) throws {
    let s = profile.settings
    #expect(profile.summary.hasSuffix(".") && profile.summary.split(separator: ". ").count == 1, "\(profile): \(profile.summary)")
    #expect((0...1).contains(s.pipeline.classThreshold) && (0...1).contains(s.pipeline.detectionThreshold))
    if let f = s.tableFilter {
      // A card is 0.64 : 1 either way round; the thumbnail line is below the strip's "small-ish".
      #expect(f.cardAspect.contains(0.64) && f.cardAspect.contains(1 / 0.64))
      #expect(f.thumbnailAreaRatio < f.stripAreaRatio && f.stripAreaRatio < 1)
      #expect(f.edgeMargin > 0 && f.edgeMargin < 0.5 && f.stripMinCount >= 2)
    }
    // docs/semantics.md has the profile's row.
    let doc = try String(contentsOf: Self.repo.appendingPathComponent("docs/semantics.md"), encoding: .utf8)
    #expect(doc.contains("| `SetCardProfile` | `\(profile.rawValue)` |"), "\(profile) has no row in docs/semantics.md")
  }

  @Test func seedIsTheReferenceWebApp() {
    #expect(SetCardProfile.seed.settings == SetProfileSettings(pipeline: PipelineConfig(), tableFilter: nil, marksUncertain: false))
    #expect(SetCardProfile.photos.settings.pipeline.classThreshold == SetCardProfile.photosClassThreshold)
    #expect(SetCardProfile.photos.settings.tableFilter == .photos && SetCardProfile.photos.settings.marksUncertain)
  }

  /// Five table cards forming Sets, a thumbnail, a long box and a strip of three along the left edge.
  func board(lowest: Double = 0.95) -> (DetectionSource, ClassificationSource) {
    var boxes: [CardDetection] = []
    var scripts: [Int: ScriptedClass] = [:]
    func add(_ b: Box, _ card: Card, _ low: Double = 0.95) {
      let i = boxes.count
      boxes.append(CardDetection(box: b, confidence: 0.9 - Double(i) * 0.01, source: i))
      scripts[i] = .card(card, confidences: [0.97, 0.97, 0.97, low])
    }
    let table = cards("0000 1111 2222 0001 0002")
    for (i, c) in table.enumerated() { add(Box(x1: 300 + Double(i) * 80, y1: 350, x2: 364 + Double(i) * 80, y2: 450), c, i == 4 ? lowest : 0.95) }
    add(Box(x1: 500, y1: 150, x2: 530, y2: 197), table[1])  // thumbnail
    add(Box(x1: 300, y1: 550, x2: 500, y2: 610), table[2])  // box: 200 × 60, under the merged filter's 2.2 × median
    for k in 0..<3 { add(Box(x1: 5, y1: 100 + Double(k) * 120, x2: 55, y2: 178 + Double(k) * 120), table[k]) }  // strip
    return (.boxes(boxes), .scripted(scripts))
  }

  func run(_ profile: SetCardProfile?, lowest: Double = 0.95) throws -> SetResult {
    let (d, c) = board(lowest: lowest)
    let image = try blankImage(1000, 800)
    guard let profile else { return try SetPipeline.run(image: image, detections: d, classifier: c) }
    return try SetPipeline.run(image: image, detections: d, classifier: c, profile: profile)
  }

  @Test func seedFiltersNothingAndIsTodaysPipeline() throws {
    let seed = try run(.seed, lowest: Self.underBoth), plain = try run(nil, lowest: Self.underBoth)
    #expect(seed == plain)
    #expect(try seed.canonicalJSON() == plain.canonicalJSON())
    #expect(seed.cards.allSatisfy { $0.offTable == nil && !$0.uncertain })
    let json = try seed.canonicalJSON()
    for key in ["\"off_table\"", "\"uncertain\"", "\"profile\""] { #expect(!json.contains(key), "seed JSON has \(key)") }
    // Off-table detections make Sets under the seed: the strip repeats the first three cards.
    #expect(seed.sets.contains { $0.contains { $0 >= 5 } })
  }

  @Test func photosKeepsOffTableCardsButMakesNoSetsWithThem() throws {
    let r = try run(.photos)
    #expect(r.cards.count == 10)
    #expect(r.cards.map(\.offTable) == [nil, nil, nil, nil, nil, .thumbnail, .box, .edgeStrip, .edgeStrip, .edgeStrip])
    #expect(r.cards.suffix(5).allSatisfy { !$0.included })
    #expect(!r.sets.isEmpty && r.sets.allSatisfy { $0.allSatisfy { $0 < 5 } })
    let json = try r.canonicalJSON()
    #expect(json.contains("\"off_table\": \"edge strip\"") && json.contains("\"profile\": \"photos\""), "\(json.prefix(400))")
  }

  /// Under `photos` a card below its threshold is uncertain and joins no Set; under
  /// the seed a card below the seed's threshold is only left out, never marked.
  @Test(arguments: [overBoth, betweenThresholds, underBoth])
  func uncertainCards(lowest: Double) throws {
    #expect(Self.seedThreshold != Self.photosThreshold, "the between case needs two thresholds")
    let photos = try run(.photos, lowest: lowest), seed = try run(.seed, lowest: lowest)
    let uncertain = lowest < Self.photosThreshold
    #expect(photos.cards[4].uncertain == uncertain && photos.cards[4].included == !uncertain)
    #expect(!seed.cards[4].uncertain && seed.cards[4].included == (lowest >= Self.seedThreshold))
    #expect(photos.sets.contains { $0.contains(4) } == !uncertain)
  }

  @Test func photosOverlayMarksUncertainCardsAndGrowsItsLegend() throws {
    let r = try run(.photos, lowest: Self.underBoth)
    let image = try blankImage(1000, 800)
    let picture = try #require(try SetOverlay.renderAll(image: image, result: r).first)
    let seedLegend = Legend.height(entries: Legend.setcards, facts: SetOverlay.legendFacts(.seed), width: 1000)
    let photosLegend = Legend.height(entries: SetOverlay.legendEntries(.photos), facts: SetOverlay.legendFacts(.seed, profile: .photos), width: 1000)
    #expect(photosLegend > seedLegend)
    #expect(SetOverlay.legendEntries(.seed) == Legend.setcards)
    // The uncertain card's left edge, below its label: amber dashes (some pixels), never gray.
    let t = r.cards[4].box.truncated
    let edge = ((t[1] + t[3]) / 2..<t[3]).map { picture[t[0], $0] }
    #expect(edge.contains { $0.r > 200 && $0.g > 150 && $0.b < 60 }, "\(edge.prefix(8))")
    #expect(SetOverlay.labelText(r.cards[4], style: .english).hasPrefix("? "))
    #expect(SetOverlay.labelText(r.cards[7], style: .english).hasPrefix("edge strip: "))
  }
}
