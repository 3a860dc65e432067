import Foundation
import Testing
import Canvas
import SetCards
import Synth

/// `eval card-crops DIR` and `eval setcards --photos DIR`: a user's own labelled
/// crops and table photos, here made from synthesized tables whose truth is known.
struct EvalCardCropsTests {
  func json(_ r: CLIRunner.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout) \(r.stderr)")
  }

  /// Crops of the cards of one synthesized table in `dir/<card>/<i>.png|jpg`
  /// (every third as JPEG), folders named with words and aliases; returns the cards.
  static func writeCrops(seed: UInt64, to dir: String) throws -> [Card] {
    let r = try TableSynthesizer.render(SetTableSpec(seed: seed, size: ImageSize(width: 960, height: 720), cardCount: 9))
    let colours = ["red", "green", "blue"], fills = ["open", "full", "partial"]
    var cards: [Card] = []
    for (i, t) in r.cards.enumerated() {
      let c = CardPreprocess.crop(r.image, box: t.box)
      var px = [UInt8](repeating: 255, count: c.width * c.height * 4)
      for p in 0..<(c.width * c.height) { for k in 0..<3 { px[p * 4 + k] = c.rgb[p * 3 + k] } }
      let image = try RGBA8Image(width: c.width, height: c.height, pixels: px)
      let name = "\(t.card.number.name)-\(colours[t.card.color.rawValue])-\(t.card.shape.name)-\(fills[t.card.fill.rawValue])"
      let folder = dir + "/" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if i % 3 == 2 {
        try Data(try JPEG.encode(image, quality: 95)).write(to: URL(fileURLWithPath: "\(folder)/\(i).jpg"))
      } else {
        try PNG.write(image, to: "\(folder)/\(i).png")
      }
      cards.append(t.card)
    }
    return cards
  }

  @Test func cropsAreCountedAgainstTheirLabels() throws {
    let dir = try CLIRunner.scratch("cardcrops")
    let cards = try Self.writeCrops(seed: 9_000_011, to: dir + "/crops")
    let r = try CLIRunner.run(["eval", "card-crops", dir + "/crops", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let d = try json(r)
    #expect(d["crops"] as? Int == cards.count)
    let attrs = try #require(d["attributes"] as? [String: [String: Any]])
    let truth: [String: [String]] = [
      "number": cards.map(\.number.name), "colour": cards.map(\.color.name),
      "shape": cards.map(\.shape.name), "fill": cards.map(\.fill.name),
    ]
    for (attr, values) in truth {
      let confusion = try #require(attrs[attr]?["confusion"] as? [String: [String: Int]], "\(attr)")
      for (value, row) in confusion {
        #expect(row.values.reduce(0, +) == values.filter { $0 == value }.count, "\(attr) \(value)")
      }
      #expect(attrs[attr]?["total"] as? Int == cards.count)
    }
    let allFour = try #require(d["all_four_accuracy"] as? Double)
    #expect(allFour >= 0.8, "the shipped classifier on clean synthesized crops")
    let text = try CLIRunner.run(["eval", "card-crops", dir + "/crops"])
    #expect(text.status == 0)
    #expect(text.stdout.contains("\(cards.count) crops"))
    #expect(text.stdout.contains("fill: rows true, columns predicted"))
  }

  @Test func badFoldersFilesAndEmptyFoldersExitTwo() throws {
    let dir = try CLIRunner.scratch("cardcrops-bad")
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
    var r = try CLIRunner.run(["eval", "card-crops", dir + "/empty"])
    #expect(r.status == 2 && r.stderr.contains("no crops"), "\(r.stderr)")
    try fm.createDirectory(atPath: dir + "/named/4-red-diamond-empty", withIntermediateDirectories: true)
    r = try CLIRunner.run(["eval", "card-crops", dir + "/named"])
    #expect(r.status == 2 && r.stderr.contains("4-red-diamond-empty") && r.stderr.contains("<number>-<colour>-<shape>-<fill>"), "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1)
    try fm.createDirectory(atPath: dir + "/text/1-red-diamond-empty", withIntermediateDirectories: true)
    try "hello".write(toFile: dir + "/text/1-red-diamond-empty/notes.txt", atomically: true, encoding: .utf8)
    r = try CLIRunner.run(["eval", "card-crops", dir + "/text"])
    #expect(r.status == 2 && r.stderr.contains("notes.txt"), "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1)
    r = try CLIRunner.run(["eval", "card-crops", dir + "/missing"])
    #expect(r.status == 2, "\(r.stderr)")
  }

  /// One synthesized table photo labelled from its truth: with boxes and without.
  @Test(arguments: [true, false])
  func photosAreScoredAgainstLabels(boxes: Bool) throws {
    let dir = try CLIRunner.scratch("setphotos-\(boxes)")
    let s = try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "9000021", "--cards", "9", "--out", dir + "/table.png",
                               "--truth", dir + "/truth.json"])
    #expect(s.status == 0, "\(s.stderr)")
    let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/truth.json"))) as? [String: Any])
    let cards = try #require(truth["cards"] as? [[String: Any]])
    let labels: [[String: Any]] = cards.map { c in
      var l: [String: Any] = ["card": ["number", "color", "shape", "fill"].map { c[$0] as? String ?? "?" }.joined(separator: "-")]
      if boxes { l["box"] = c["box"] }
      return l
    }
    try JSONSerialization.data(withJSONObject: ["table.png": labels]).write(to: URL(fileURLWithPath: dir + "/labels.json"))
    let r = try CLIRunner.run(["eval", "setcards", "--photos", dir, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let d = try json(r)
    #expect(d["photos"] as? Int == 1)
    #expect(d["cards"] as? Int == 9)
    let recall = try #require(d["card_recall"] as? Double)
    #expect(recall >= 0.75, "\(r.stdout)")
    let per = try #require((d["per_photo"] as? [[String: Any]])?.first)
    #expect(per["true_sets"] as? Int == (truth["sets"] as? [Any])?.count)
  }

  @Test func badLabelsExitTwo() throws {
    let dir = try CLIRunner.scratch("setphotos-bad")
    let s = try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "9000021", "--cards", "3", "--out", dir + "/table.png"])
    #expect(s.status == 0, "\(s.stderr)")
    let cases: [(String, String)] = [
      ("{\"table.png\": [", "not JSON"), ("[]", "object of photos"),
      ("{\"table.png\": [{\"card\": \"2-pink-oval-striped\"}]}", "2-pink-oval-striped"),
      ("{\"gone.jpg\": [{\"card\": \"2-red-oval-striped\"}]}", "gone.jpg"),
      ("{\"table.png\": [{\"card\": \"2-red-oval-striped\", \"box\": [1, 2]}]}", "box"),
    ]
    for (text, needle) in cases {
      try text.write(toFile: dir + "/labels.json", atomically: true, encoding: .utf8)
      let r = try CLIRunner.run(["eval", "setcards", "--photos", dir])
      #expect(r.status == 2 && r.stderr.contains(needle), "\(text): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
    let none = try CLIRunner.run(["eval", "setcards", "--photos", dir + "/nowhere"])
    #expect(none.status == 2, "\(none.stderr)")
  }
}
