import Foundation
import Testing

/// `run setcards --profile`: `photos` by default; `seed` writes the seed's JSON,
/// which is the `photos` JSON without the keys only `photos` adds.
struct SetProfileCLITests {
  /// The keys a profile other than the seed adds: per card, and at the top.
  static let photosCardKeys: Set<String> = ["uncertain", "off_table"], photosRootKeys: Set<String> = ["profile"]

  func object(_ path: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  @Test func photosIsTheDefaultAndSeedKeepsItsBytes() throws {
    let dir = try CLIRunner.scratch("setprofile")
    #expect(try CLIRunner.run(["synth", "--kind", "setcards", "--seed", "4", "--cards", "6", "--size", "640x480",
                               "--out", dir + "/t.png", "--truth", dir + "/t.json"]).status == 0)
    var outs: [String: String] = [:]
    for (name, extra) in [("default", []), ("photos", ["--profile", "photos"]), ("seed", ["--profile", "seed"])] {
      let r = try CLIRunner.run(["run", "setcards", "--image", dir + "/t.png", "--truth", dir + "/t.json", "--out", dir + "/\(name).json"] + extra)
      #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
      outs[name] = try String(contentsOfFile: dir + "/\(name).json", encoding: .utf8)
    }
    #expect(outs["default"] == outs["photos"])
    #expect(outs["seed"]?.contains("\"uncertain\"") == false && outs["photos"]?.contains("\"uncertain\": false") == true)
    // Take the photos-only keys away and the seed's result is left.
    var photos = try object(dir + "/photos.json")
    let seed = try object(dir + "/seed.json")
    #expect(photos["profile"] as? String == "photos")
    for k in Self.photosRootKeys { photos[k] = nil }
    let cards = try #require(photos["cards"] as? [[String: Any]])
    photos["cards"] = cards.map { $0.filter { !Self.photosCardKeys.contains($0.key) } }
    #expect(NSDictionary(dictionary: photos).isEqual(to: seed), "\(photos) vs \(seed)")
  }
}
