import Canvas
import SetCards
@testable import Synth
@testable import Overlays
@testable import Harness
import Testing

@Suite struct OverlayTests {
  func result(_ board: String) throws -> (RGBA8Image, SetResult) {
    let cs = cards(board)
    let image = try RGBA8Image(width: 640, height: 360, fill: RGBA(40, 40, 40))
    var scripts: [Int: ScriptedClass] = [:]
    var boxes: [CardDetection] = []
    for (i, c) in cs.enumerated() {
      let x = Double(i % 6) * 100 + 20, y = Double(i / 6) * 150 + 40
      boxes.append(det(x, y, x + 60, y + 100, 0.9 - Double(i) * 0.001, i))
      scripts[i] = .card(c, confidences: [0.95, 0.95, 0.95, i == 11 ? 0.5 : 0.9])
    }
    return (image, try SetPipeline.run(image: image, detections: .boxes(boxes), classifier: .scripted(scripts)))
  }

  /// The legend band's height under a picture as wide as `image` (no callout margin).
  func legendHeight(_ image: RGBA8Image) -> Int {
    Int(Legend.height(entries: Legend.setcards, facts: SetOverlay.legendFacts(.seed), width: Double(image.width)).rounded(.up))
  }

  @Test func englishLabelsNameEveryAttribute() throws {
    let (_, r) = try result(SetFinderTests.fourteen)
    let c = r.cards[0].card
    let english = SetText.label(r.cards[0], style: .english)
    #expect(english.hasPrefix("\(c.number.rawValue + 1) \(c.color.name) \(c.shape.name) \(c.fill.name) "))
    #expect(SetText.label(r.cards[0], style: .seed) == SetText.label(r.cards[0]))
  }

  @Test func headersAndNavigation() {
    #expect(SetText.header(cardCount: 12, set: nil, of: 0) == "12 cards — no Sets found")
    #expect(SetText.header(cardCount: 12, set: 13, of: 14) == "12 cards — Set 14 / 14")
    #expect(SetText.navigate(from: 13, by: 1, count: 14) == 0)
    #expect(SetText.navigate(from: 0, by: -1, count: 14) == 13)
    #expect(SetText.navigate(from: 0, by: 1, count: 0) == 0)
  }

  @Test func oneOverlayPerSetWithColouredBoxesAndTrophies() throws {
    let (image, r) = try result(SetFinderTests.fourteen)
    #expect(r.cards.count == 12 && !r.cards[11].included)
    let overlays = try SetOverlay.renderAll(image: image, result: r)
    #expect(overlays.count == r.sets.count && !r.sets.isEmpty)
    let second = overlays[1]
    #expect(second.height == image.height + SetOverlay.bandHeight + legendHeight(image))
    // Set 2's boxes are green (palette[1]), 4 px: the box's left edge mid-height.
    let member = r.cards[r.sets[1][0]].box.truncated
    let px = second[member[0], (member[1] + 3 * member[3]) / 4]  // below the label on the card's top
    #expect(px.g > 200 && px.r < 60 && px.b < 60, "\(px)")
    // A card outside the Set is gray 128 at 2 px.
    let other = r.cards.indices.first { !r.sets[1].contains($0) }!
    let ob = r.cards[other].box.truncated
    let gp = second[ob[0], (ob[1] + 3 * ob[3]) / 4]
    #expect(gp.r == gp.g && gp.g == gp.b && (100...150).contains(gp.r), "\(gp)")
    // The trophy strip: a #44FF44 frame in the band.
    let frame = second[SetOverlay.trophyGap - 1, image.height + SetOverlay.bandHeight / 2]
    #expect(frame.g > 200 && frame.r < 120, "\(frame)")
    #expect(SetText.label(r.cards[0]) == "\(r.cards[0].card.label) d90% c90%")
  }

  @Test func noSetsGivesOneOverlayWithoutBand() throws {
    let (image, r) = try result(SetFinderTests.zeroSets)
    let overlays = try SetOverlay.renderAll(image: image, result: r)
    #expect(overlays.count == 1 && overlays[0].height == image.height + legendHeight(image))
    #expect(overlays == (try SetOverlay.renderAll(image: image, result: r)))
  }

  @Test func resultJSONHasContractKeys() throws {
    let (_, r) = try result(SetFinderTests.fourteen)
    let text = try r.canonicalJSON()
    for key in ["\"cards\"", "\"sets\"", "\"box\"", "\"number\"", "\"color\"", "\"shape\"", "\"fill\"", "\"label\"",
                "\"detection_confidence\"", "\"class_confidence\"", "\"included\": false"] {
      #expect(text.contains(key), "result lacks \(key)")
    }
  }
}
