import Canvas
import Core
import Foundation
import Testing
@testable import Harness

/// The review page: failures first with the filter and search, thumbnails
/// (never full-size images) for passing scenarios, stale files removed only
/// when the previous manifest lists them, and shard folders merged.
struct ReviewPageTests {
  func tree(_ name: String) throws -> VerifyOptions {
    var o = try scratchTree("review-\(name)", scenarios: tinyScenarios(firstSize: "480x360"))
    o.mode = .recordMissing
    try Reports.write(try Verifier.run(o) { _ in }, to: o.reportDir, options: o)
    o.mode = .verify
    return o
  }

  func files(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
  }

  @Test func failuresFirstWithFilterSearchAndZoom() throws {
    let o = try tree("page")
    let path = o.goldenRoot + "/tiny-2/overlay-ios.png"
    var img = try PNG.read(path: path)
    for x in 40..<44 { let p = img[x, 30]; img[x, 30] = RGBA(p.r ^ 0x40, p.g, p.b, p.a) }
    try PNG.write(img, to: path)
    let r = try Verifier.run(o) { _ in }
    try Reports.write(r, to: o.reportDir, options: o)
    let html = try String(contentsOfFile: o.reportDir + "/report.html", encoding: .utf8)
    let first = try #require(html.range(of: "class=\"scenario "))
    #expect(html[first.upperBound...].hasPrefix("failed"), "the first scenario on the page is the failure")
    #expect(html.contains("id=\"status-filter\"") && html.contains("id=\"search\"") && html.contains("<details id=\"passing\""))
    #expect(html.contains("loading=\"lazy\"") && html.contains("href=\"#failures\""))
    #expect(html.contains("Changed area (") && html.contains("tiny-2/diff-overlay-ios.png") && html.contains("type=\"range\""))
    #expect(html.contains("--mode update-failed") && !html.contains("http://") && !html.contains("https://"))
    #expect(files(o.reportDir + "/tiny-2").contains("golden-overlay-ios.png") && files(o.reportDir + "/tiny-2").contains("golden-result.json"))
    // Identical inputs, identical page apart from timings.
    func untimed(_ s: String) -> String { s.replacingOccurrences(of: #"\d+\.\d\d s"#, with: "", options: .regularExpression) }
    let again = try Verifier.run(o) { _ in }
    try Reports.write(again, to: o.reportDir, options: o)
    #expect(untimed(try String(contentsOfFile: o.reportDir + "/report.html", encoding: .utf8)) == untimed(html))
  }

  @Test func passingRunWritesThumbnailsNotFullImages() throws {
    let o = try tree("thumbs")
    let r = try Verifier.run(o) { _ in }
    #expect(r.failed == 0)
    try Reports.write(r, to: o.reportDir, options: o)
    for i in 0..<3 {
      let names = files(o.reportDir + "/tiny-\(i)")
      #expect(names.contains("thumb-overlay-ios.png") && names.contains("golden-result.json"), "\(names)")
      #expect(names.filter { $0.hasSuffix(".png") }.allSatisfy { $0.hasPrefix("thumb-") }, "\(names)")
    }
    let thumb = try PNG.read(path: o.reportDir + "/tiny-0/thumb-overlay-ios.png")
    let full = try PNG.read(path: o.goldenRoot + "/tiny-0/overlay-ios.png")
    #expect(full.width > 240 && thumb.width == 240 && thumb.height == full.height * 240 / full.width)
    let json = try JSONParser.parse(String(contentsOfFile: o.reportDir + "/report.json", encoding: .utf8))
    #expect(try ReviewReport(json: json).passed == 3)
  }

  @Test func manifestCleanupRemovesOnlyListedFiles() throws {
    let o = try tree("manifest")
    try Reports.write(try Verifier.run(o) { _ in }, to: o.reportDir, options: o)
    let fm = FileManager.default
    try fm.createDirectory(atPath: o.reportDir + "/old-scenario", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: o.reportDir + "/shard-1-of-2/tiny-0", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: o.reportDir + "/gallery", withIntermediateDirectories: true)
    for f in ["old-scenario/overlay-ios.png", "notes.txt", "tiny-0/mine.txt", "shard-1-of-2/tiny-0/result.json", "gallery/a.png", "../outside.txt"] {
      try AtomicFile.write("x", to: o.reportDir + "/" + f)
    }
    let manifest = try String(contentsOfFile: o.reportDir + "/.manifest", encoding: .utf8)
    try AtomicFile.write(manifest + "old-scenario/overlay-ios.png\n../outside.txt\n", to: o.reportDir + "/.manifest")
    _ = try Verifier.run(o) { _ in }
    #expect(!fm.fileExists(atPath: o.reportDir + "/old-scenario"), "a listed file and the folder it left empty are gone")
    for f in ["notes.txt", "tiny-0/mine.txt", "shard-1-of-2/tiny-0/result.json", "gallery/a.png", "../outside.txt"] {
      #expect(fm.fileExists(atPath: o.reportDir + "/" + f), "\(f) is not in the manifest and survives")
    }
  }

  @Test func mergedShardsCountLikeOneRun() throws {
    var o = try tree("merge")
    let path = o.goldenRoot + "/tiny-1/result.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try AtomicFile.write(text.replacingOccurrences(of: "\"end_total\": ", with: "\"end_total\": 1"), to: path)
    let whole = try Verifier.run(o) { _ in }
    let base = o.reportDir
    var dirs: [String] = []
    for k in 1...2 {
      o.shard = (k, 2); o.reportDir = base + "/shard-\(k)-of-2"
      try FileManager.default.createDirectory(atPath: o.reportDir, withIntermediateDirectories: true)
      try Reports.write(try Verifier.run(o) { _ in }, to: o.reportDir, options: o)
      dirs.append(o.reportDir)
    }
    let merged = try ReportMerge.verify(dirs, out: base + "/merged")
    #expect(merged.scenarios.count == whole.verdicts.count && merged.failed == whole.failed && merged.passed == whole.passed)
    let junit = try String(contentsOfFile: base + "/merged/junit.xml", encoding: .utf8)
    #expect(junit.contains("tests=\"3\" failures=\"1\""))
    let html = try String(contentsOfFile: base + "/merged/report.html", encoding: .utf8)
    #expect(html.contains("end total") && FileManager.default.fileExists(atPath: base + "/merged/tiny-1/golden-result.json"))
    #expect(throws: GoldenError.self) { try ReportMerge.verify([dirs[0], dirs[0]], out: base + "/twice") }
    #expect(throws: GoldenError.self) { try ReportMerge.verify([dirs[0], base + "/nowhere"], out: base + "/missing") }
  }

  /// Set scenarios whose goldens keep seed 004's shorthand show English pictures
  /// on the review page: as the thumbnail always, full size only when failing.
  @Test func setScenariosAreReviewedInEnglish() throws {
    let yaml = """
      id: cards-review
      kind: setcards
      table: {seed: 443, noise: 0, size: 320x240, card_count: 3}
      oracle: {}
      expect: {cards: 3}
      """
    var o = try scratchTree("review-sets", scenarios: ["cards.yaml": yaml])
    o.mode = .recordMissing
    _ = try Verifier.run(o) { _ in }
    o.mode = .verify
    let passing = try Verifier.run(o) { _ in }
    try Reports.write(passing, to: o.reportDir, options: o)
    var names = files(o.reportDir + "/cards-review")
    #expect(names.contains("thumb-review-overlay-1.png") && !names.contains("review-overlay-1.png"), "\(names)")
    #expect(!files(o.goldenRoot + "/cards-review").contains { $0.hasPrefix("review-") }, "review pictures are never goldens")
    let golden = try PNG.read(path: o.goldenRoot + "/cards-review/overlay-1.png")
    var english = try PNG.read(path: o.reportDir + "/cards-review/thumb-review-overlay-1.png")
    #expect(english.width == 240)
    // Break a golden: the failure carries the full-size English picture and the page shows it.
    var broken = golden
    for x in 10..<14 { let p = broken[x, 10]; broken[x, 10] = RGBA(p.r ^ 0x40, p.g, p.b, p.a) }
    try PNG.write(broken, to: o.goldenRoot + "/cards-review/overlay-1.png")
    let failing = try Verifier.run(o) { _ in }
    #expect(failing.failed == 1)
    try Reports.write(failing, to: o.reportDir, options: o)
    names = files(o.reportDir + "/cards-review")
    #expect(names.contains("review-overlay-1.png"), "\(names)")
    english = try PNG.read(path: o.reportDir + "/cards-review/review-overlay-1.png")
    #expect(english.width > 240 && english.pixels != golden.pixels, "full size, and not the golden's shorthand")
    let html = try String(contentsOfFile: o.reportDir + "/report.html", encoding: .utf8)
    #expect(html.contains("Read in English") && html.contains("cards-review/review-overlay-1.png"))
    let json = try JSONParser.parse(String(contentsOfFile: o.reportDir + "/report.json", encoding: .utf8))
    #expect(try ReviewReport(json: json).scenarios.first?.reviewImages == ["review-overlay-1.png"])
  }
}
