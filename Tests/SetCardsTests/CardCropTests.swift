import Foundation
import Testing
import Canvas
import Core
@testable import SetCards
@testable import Harness
import Synth

/// Card names as people write them (`CardNames`), and the crop evaluator's counts.
struct CardCropTests {
  @Test(arguments: [
    ("1-red-diamond-empty", "0000"), ("three-purple-squiggle-striped", "2222"), ("2-blue-oval-full", "1211"),
    ("Two-Green-Ovals-Partial", "1112"), ("3_red_wave_shaded", "2022"), ("one-purple-ellipse-open", "0210"),
    ("2-green-diamond-outline", "1100"), ("1-red-squiggle-hollow", "0020"), ("3-green-oval-lined", "2112"),
    ("1-green-diamonds-filled", "0101"), ("two red squiggles solid", "1021"),
  ])
  func namesParse(name: String, digits: String) throws {
    let card = try #require(CardNames.card(name), "\(name)")
    #expect(card.description == digits)
  }

  @Test(arguments: ["", "red-diamond-empty", "4-red-diamond-empty", "1-pink-diamond-empty", "1-red-circle-empty",
                    "1-red-diamond-dotted", "1-red-diamond-empty-x", "0-red-diamond-empty", "photos"])
  func nonCardsAreRefused(name: String) {
    #expect(CardNames.card(name) == nil, "\(name)")
  }

  @Test func everyCardRoundTripsThroughItsName() {
    for card in Card.deck { #expect(CardNames.card(CardNames.name(card)) == card) }
    #expect(CardNames.name(Card(parsing: "1211")!) == "2-purple-oval-solid")
  }

  /// A classifier that always answers `card` (logits 5 on its values, 0 elsewhere).
  struct Constant: CardClassifier {
    let card: Card
    func logits(_ input: [Float]) throws -> [Float] {
      #expect(input.count == 3 * 224 * 224)
      let d = [card.number.rawValue, card.color.rawValue, card.shape.rawValue, card.fill.rawValue]
      return (0..<12).map { d[$0 / 3] == $0 % 3 ? 5 : 0 }
    }
  }

  /// Writes crops of the first `count` cards of a synthesized table into
  /// `dir/<card name>/<i>.png`; returns the cards written, in table order.
  static func writeCrops(seed: UInt64, count: Int, to dir: String) throws -> [Card] {
    let r = try TableSynthesizer.render(SetTableSpec(seed: seed, size: ImageSize(width: 960, height: 720), cardCount: 12))
    var cards: [Card] = []
    for (i, t) in r.cards.prefix(count).enumerated() {
      let c = CardPreprocess.crop(r.image, box: t.box)
      var px = [UInt8](repeating: 255, count: c.width * c.height * 4)
      for p in 0..<(c.width * c.height) { for k in 0..<3 { px[p * 4 + k] = c.rgb[p * 3 + k] } }
      let folder = dir + "/" + CardNames.name(t.card)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try PNG.write(try RGBA8Image(width: c.width, height: c.height, pixels: px), to: "\(folder)/\(i).png")
      cards.append(t.card)
    }
    return cards
  }

  @Test func confusionCountsFollowTheLabels() throws {
    let dir = NSTemporaryDirectory() + "bullseye-cardcrops-\(getpid())"
    try? FileManager.default.removeItem(atPath: dir)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let cards = try Self.writeCrops(seed: 9_000_003, count: 6, to: dir)
    try "notes".write(toFile: dir + "/README.txt", atomically: true, encoding: .utf8)  // plain files beside the folders are skipped
    let answer = try #require(Card(parsing: "1111"))
    let e = try CardCropEvaluator.run(dir: dir, classifier: Constant(card: answer))
    #expect(e.crops == 6)
    #expect(e.allFourRight == cards.filter { $0 == answer }.count)
    let truth = cards.map { [$0.number.rawValue, $0.color.rawValue, $0.shape.rawValue, $0.fill.rawValue] }
    for h in 0..<4 {
      var want = [[Int]](repeating: [0, 0, 0], count: 3)
      for t in truth { want[t[h]][1] += 1 }
      #expect(e.attributes[h].confusion == want, "\(e.attributes[h].attribute)")
      #expect(e.attributes[h].correct == truth.filter { $0[h] == 1 }.count)
    }
    #expect(e.misses.count == 6 - e.allFourRight)
    #expect(e.misses.map(\.file) == e.misses.map(\.file).sorted())
    let parsed = try JSONSerialization.jsonObject(with: Data(try e.json.canonicalText().utf8)) as? [String: Any]
    #expect(parsed?["all_four_right"] as? Int == e.allFourRight)
    #expect(parsed?["crops"] as? Int == 6)
  }

  @Test func badFoldersAndFilesAreNamed() throws {
    let dir = NSTemporaryDirectory() + "bullseye-cardcrops-bad-\(getpid())"
    try? FileManager.default.removeItem(atPath: dir)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let answer = try #require(Card(parsing: "0000"))
    try FileManager.default.createDirectory(atPath: dir + "/holiday", withIntermediateDirectories: true)
    #expect(throws: CardCropError.self) { try CardCropEvaluator.run(dir: dir, classifier: Constant(card: answer)) }
    do { _ = try CardCropEvaluator.labelledCrops(in: dir) } catch { #expect("\(error)".contains("holiday")) }
    try FileManager.default.removeItem(atPath: dir + "/holiday")
    try FileManager.default.createDirectory(atPath: dir + "/1-red-oval-empty", withIntermediateDirectories: true)
    #expect(throws: CardCropError.self) { try CardCropEvaluator.run(dir: dir, classifier: Constant(card: answer)) }  // no crops
    try "not an image".write(toFile: dir + "/1-red-oval-empty/notes.txt", atomically: true, encoding: .utf8)
    do {
      _ = try CardCropEvaluator.run(dir: dir, classifier: Constant(card: answer))
      Issue.record("a text file was read as a crop")
    } catch { #expect("\(error)".contains("notes.txt")) }
  }
}
