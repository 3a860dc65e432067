import Canvas
import Core
@testable import SetCards
@testable import Synth
import StrictYAML
import Testing

/// A realistic table at a small size.
func realisticTable(seed: UInt64, style: CardStyle = .realism, count: Int = 12) -> SetTableSpec {
  var s = SetTableSpec(seed: seed, size: ImageSize(width: 480, height: 360), cardCount: count)
  s.style = style
  return s
}

@Suite struct RealismSynthTests {
  @Test func sameSpecSameBytes() throws {
    let spec = realisticTable(seed: 31)
    let a = try TableSynthesizer.render(spec), b = try TableSynthesizer.render(spec)
    #expect(a.image == b.image)
    #expect(try a.canonicalTruth() == b.canonicalTruth())
  }

  /// The style changes the picture but not the deal: the same cards, a different look.
  @Test(arguments: CardStyle.allCases.filter { $0 != .classic })
  func styleKeepsTheDeal(style: CardStyle) throws {
    let classic = try TableSynthesizer.render(realisticTable(seed: 32, style: .classic))
    let styled = try TableSynthesizer.render(realisticTable(seed: 32, style: style))
    #expect(classic.cards.map(\.card) == styled.cards.map(\.card))
    #expect(classic.image != styled.image)
    guard case .object(let fields) = styled.truthJSON, case .object(let classicFields) = classic.truthJSON else {
      Issue.record("truth is not an object")
      return
    }
    #expect(fields["style"] == .string(style.rawValue))
    #expect(fields["distractors"] != nil)
    #expect(classicFields["style"] == nil && classicFields["distractors"] == nil, "classic truth files keep their keys")
  }

  /// Every range of the holdout style lies outside (or at the edge of) training's,
  /// except ink saturation and value, which stay readable by design.
  @Test func holdoutRangesLeaveTraining() {
    let t = RealismRanges.training, h = RealismRanges.holdout
    let moved: [(String, ClosedRange<Double>, ClosedRange<Double>)] = [
      ("redHue", t.redHue, h.redHue), ("greenHue", t.greenHue, h.greenHue), ("purpleHue", t.purpleHue, h.purpleHue),
      ("whiteBalance", t.whiteBalance, h.whiteBalance), ("contrast", t.contrast, h.contrast),
      ("exposure", t.exposure, h.exposure), ("outline", t.outline, h.outline), ("stripePitch", t.stripePitch, h.stripePitch),
      ("stripeDuty", t.stripeDuty, h.stripeDuty), ("blur", t.blur, h.blur), ("noise", t.noise, h.noise),
      ("motion", t.motion, h.motion), ("jpegQuality", t.jpegQuality, h.jpegQuality),
    ]
    #expect(!moved.isEmpty)
    for (name, train, hold) in moved {
      let outside = hold.lowerBound >= train.upperBound || hold.upperBound <= train.lowerBound
      #expect(outside, "\(name): holdout \(hold) overlaps training \(train)")
    }
  }

  /// Thumbnails and the game box are in the truth as distractors, never as cards,
  /// and lie where the painter put them (in frame).
  @Test func distractorsAreNotCards() throws {
    var withStrip = 0, withBox = 0
    for seed in UInt64(1)...24 {
      let r = try TableSynthesizer.render(realisticTable(seed: seed))
      let thumbs = r.distractors.filter { $0.kind == "thumbnail" }
      if !thumbs.isEmpty { withStrip += 1 }
      if r.distractors.contains(where: { $0.kind == "box" }) { withBox += 1 }
      #expect(r.cards.count == 12)
      let median = r.cards.map { ($0.box.x2 - $0.box.x1) * ($0.box.y2 - $0.box.y1) }.sorted()[6]
      for t in thumbs {
        #expect((t.box.x2 - t.box.x1) * (t.box.y2 - t.box.y1) < 0.5 * median, "seed \(seed): a thumbnail as big as a card")
        #expect(t.box.x1 >= 0 && t.box.y1 >= 0 && t.box.x2 <= 480 && t.box.y2 <= 360)
      }
    }
    #expect(withStrip >= 2 && withStrip <= 20, "thumbnail strips in \(withStrip) of 24")
    #expect(withBox >= 1 && withBox <= 16, "game boxes in \(withBox) of 24")
  }

  /// The realistic inks stay on their side of the colour wheel: every red is
  /// redder than it is green or blue, every purple bluer than green.
  @Test(arguments: [RealismRanges.training, RealismRanges.holdout])
  func inksKeepTheirColours(ranges: RealismRanges) {
    for seed in UInt64(0)..<50 {
      var g = SeededGenerator(seed: seed)
      let (print, _) = SetTable.resolveRealism(.realism, ranges: ranges, imageWidth: 1280, &g)
      let red = print.inks[0], green = print.inks[1], purple = print.inks[2]
      #expect(red.r > red.g && red.r > red.b)
      #expect(green.g > green.r && green.g > green.b)
      #expect(purple.b > purple.g && purple.r > purple.g)
    }
  }

  @Test func styleIsReadFromScenarioYAMLAndUnknownStylesAreRefused() throws {
    let spec = try StrictYAML.decode(SetTableSpec.self, "seed: 3\nstyle: realism-holdout\n", path: "t.yaml")
    #expect(spec.style == .realismHoldout)
    #expect(throws: (any Error).self) { try StrictYAML.decode(SetTableSpec.self, "seed: 3\nstyle: photoreal\n", path: "t.yaml") }
  }
}
