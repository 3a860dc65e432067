import Foundation
import Scoring
import Synth
import Testing
@testable import Pipelines
@testable import Harness

struct PipelineTests {
  func scenario(_ yaml: String) throws -> ArcheryScenario { try ArcheryScenario.decode(yaml, path: "t.yaml") }
  var work: String { NSTemporaryDirectory() }

  static let base = """
    id: t
    face: 10_zone
    seed: 3
    size: 640x480
    camera: {center: [320, 240], radius: 180, tilt_deg: 0, rotation_deg: 0, focal_px: 1200}
    scene: {blur: 0.5, noise: 1, jpeg: 0, old_holes: 0, torn_centre: false, lighting: 0, vignette: 0}
    """

  @Test func truthDetectorScoresEveryArrowOnBothProfiles() throws {
    let s = try scenario(Self.base + """

      arrows:
        - {x: 0.0, y: 0.02}
        - {x: 0.15, y: 0.0}
        - {x: -0.25, y: 0.25}
        - {x: 0.55, y: -0.1}
      expect: {detections: 4, scores: [10, 9, 7, 5], x: [true, false, false, false], confirmed: 4, end_total: 31}
      """)
    let out = try ScenarioRunner.run(s, id: "t", workDir: work)
    #expect(out.failures.isEmpty, "\(out.failures)")
    #expect(out.runs.map(\.profile) == ["ios", "android"])
    for run in out.runs {
      for (d, t) in zip(run.result.detections, try #require(out.truth).arrows) {
        #expect(abs(Double(d.normalizedX) - t.normalizedX) < 0.01 && abs(Double(d.normalizedY) - t.normalizedY) < 0.01)
      }
    }
    // iOS ids are seed-derived UUIDs; Android ids are Ints.
    #expect(out.runs[0].result.detections[0].id.count == 36 && out.runs[1].result.detections[0].id == "1")
  }

  @Test func confidenceThresholdEdgesPerProfile() throws {
    let s = try scenario(Self.base + """

      arrows: [{x: 0, y: 0.3}, {x: 0.3, y: 0}, {x: -0.3, y: 0}, {x: 0, y: -0.3}]
      detector: {confidences: [0.4, 0.3999, 0.35, 0.3499]}
      """)
    let out = try ScenarioRunner.run(s, id: "conf", workDir: work)
    #expect(out.runs[0].result.detections.count == 1)   // ios ≥ 0.40
    #expect(out.runs[1].result.detections.count == 3)   // android ≥ 0.35
    #expect(out.runs[0].result.adjustment.final.isPlacementMode)
  }

  @Test func gesturesAndPersistenceAndResume() throws {
    let s = try scenario(Self.base + """

      profile: android
      arrows: [{x: 0.0, y: 0.05}, {x: 0.35, y: 0.0}]
      expected_arrows: 3
      gestures:
        view_radius: 100
        steps:
          - {drag: 1, translations: [[-5, 0], [-10, 0]]}
          - {tap: [0.0, 0.95]}
          - confirm
      persist: {coordinates: keep-coordinates, end: 2, prior: [{end: 1, arrows: [[9, false, 0.15, 0.0], [8, false, 0.25, 0.0], [10, true, 0.0, 0.05]]}]}
      expect: {confirmed: 3, was_adjusted: [false, true, true], resume_end: 2, resume_arrow_number: 4}
      """)
    let out = try ScenarioRunner.run(s, id: "persist", workDir: work)
    #expect(out.failures.isEmpty, "\(out.failures)")
    let run = try #require(out.runs.first)
    let dump = try #require(run.databaseDump)
    #expect(dump.contains("total_score=27"))
    // The prior end's Float-stored X at 0.05 no longer scores X when rescored.
    #expect(run.resume?.rescoreChanges.contains { $0.endNumber == 1 && $0.arrowNumber == 3 && $0.storedIsX && !$0.rescoredIsX } == true)
  }

  @Test func crashPartWayResumesTheCommittedArrows() throws {
    let s = try scenario(Self.base + """

      profile: ios
      arrows: [{x: 0.0, y: 0.1}, {x: 0.2, y: 0.0}, {x: 0.4, y: 0.0}]
      persist: {end: 1, crash_after: 2}
      expect: {resume_end: 1, resume_arrow_number: 3}
      """)
    let out = try ScenarioRunner.run(s, id: "crash", workDir: work)
    #expect(out.failures.isEmpty, "\(out.failures)")
  }

  @Test func unknownKeysAndBadValuesAreLocated() {
    #expect { try scenario(Self.base + "\nprofile_overrides: {confidense: 0.3}\n") } throws: { "\($0)".contains("t.yaml:7:") && "\($0)".contains("confidense") }
    #expect { try scenario(Self.base + "\ngestures: [wiggle]\n") } throws: { "\($0)".contains("wiggle") }
    #expect { try scenario(Self.base + "\ndetector: {source: oracle}\n") } throws: { "\($0)".contains("oracle") }
    #expect { try scenario(Self.base + "\ndetector: {source: truth, refiner_views: 12}\n") } throws: { "\($0)".contains("refiner_views 12 is out of range") }
    // Keys of removed experiments are refused by name, like any unknown key.
    #expect { try scenario(Self.base + "\ndetector: {source: truth, pair_verifier: p.onnx}\n") } throws: { "\($0)".contains("unknown key 'detector.pair_verifier'") }
    #expect { try scenario(Self.base + "\nrule: nearest\n") } throws: { "\($0)".contains("t.yaml:7:") }
  }

  @Test func detectionErrorThenManualEntry() throws {
    let s = try scenario(Self.base + """

      profile: ios
      arrows: []
      expected_arrows: 2
      gestures: [{detection_error: "Failed to process image"}, manual_entry, {tap: [0.0, 0.0]}, {tap: [0.5, 0.0]}, confirm]
      expect: {confirmed_scores: [10, 6]}
      """)
    let out = try ScenarioRunner.run(s, id: "err", workDir: work)
    #expect(out.failures.isEmpty, "\(out.failures)")
  }

  /// With a perfect detector the rest of the pipeline (ring fit, rectification,
  /// scoring) must score every arrow of default-look tilted photos right; this
  /// is the ceiling `eval archery` compares the shipped detector with.
  @Test func perfectDetectorScoresEveryArrowThroughThePipeline() throws {
    var counted: [ImpactSet: Int] = [:]
    for set in ImpactSet.allCases {
      var seen: [Int] = []
      let e = try ArcheryEvaluator.run(images: 4, seed: 7_000_000, model: "truth", profile: "ios", width: 960, height: 720, impacts: set) { p in
        #expect(p.image.width == 960 && p.image.height == 720)
        #expect(p.detections.allSatisfy { $0.truth != nil } && p.detections.count == p.truth.count, "each detection is its arrow")
        seen.append(p.index)
      }
      #expect(seen == [0, 1, 2, 3])
      #expect(e.truthArrows > 10 && e.matched == e.truthArrows && e.detections == e.truthArrows, "\(set)")
      #expect(e.extras.list.isEmpty && ExtraKind.allCases.allSatisfy { e.extras.count($0) == 0 })
      #expect(e.targetsFound == 4)
      #expect(e.scoresCorrect == e.truthArrows, "\(set): \(e.scoresCorrect) of \(e.truthArrows) scored right")
      #expect(e.failures.isEmpty)
      counted[set] = e.truthArrows
    }
    // These photos hold holes without shafts: only `.all` asks for them.
    #expect(try #require(counted[.all]) > (try #require(counted[.shafts])))
  }

  /// The failure list accounts for every arrow not scored right, in image order,
  /// and says why: a missed arrow has no detection; a misscored one names the
  /// detection it was matched with, whose score differs from the truth's.
  /// Checked where failures of each kind are certain by construction, not by a
  /// defect someone may fix: a fit told to ignore the printed line (`lineMM: 0`)
  /// misscores seed 7_100_008's line arrows from true boxes (no pixel error: the
  /// fit's fault), and Android's NMS at IoU 0.50 loses one of seed 7_100_000's
  /// touching arrows drawn with wide true boxes (missed, one of a pair). A
  /// default run is checked too, whether or not it holds failures (seed
  /// 7_100_035 has an arrow 0.00025 spot units inside the 10 ring that the fit
  /// still misscores; scoring it right must not break this test).
  @Test func evaluationListsEveryFailureWithItsCause() throws {
    func accounts(_ e: ArcheryEvaluation, _ run: String) throws {
      #expect(e.failures.count == e.truthArrows - e.scoresCorrect, "\(run)")
      #expect(e.failures.filter { $0.kind == .missed }.count == e.truthArrows - e.matched, "\(run)")
      #expect(Set(e.failures).count == e.failures.count, "\(run): an arrow listed twice")
      #expect(e.failures.map(\.image) == e.failures.map(\.image).sorted(), "\(run): not in image order")
      for f in e.failures {
        #expect((0..<e.images).contains(f.image), "\(run): image \(f.image)")
        switch f.kind {
        case .missed: #expect(f.detected == nil, "\(run): a missed arrow with a detection")
        case .misscored:
          let m = try #require(f.detected, "\(run): a misscored arrow without its detection")
          #expect(m.label != f.truthLabel, "\(run): listed as misscored but scored \(m.label) like its truth")
        }
      }
    }
    let naive = try ArcheryEvaluator.run(images: 4, seed: 7_100_008, model: "truth", profile: "ios", width: 1280, height: 960, lineMM: 0)
    try accounts(naive, "lineMM 0")
    #expect(naive.matched == naive.truthArrows)
    #expect(!naive.failures.isEmpty, "a fit ignoring the printed line must misscore seed 7_100_008's line arrows")
    for f in naive.failures {
      let m = try #require(f.detected)
      #expect(f.kind == .misscored && m.errorPx < 0.01 && abs(m.distance - f.truthDistance) < 0.005, "\(f)")
    }
    let nms = try ArcheryEvaluator.run(images: 1, seed: 7_100_000, model: "truth", profile: "android", width: 1280, height: 960, truthBox: .wide)
    try accounts(nms, "android NMS")
    let missed = nms.failures.filter { $0.kind == .missed }
    #expect(missed.count == 1 && missed.allSatisfy(\.paired), "\(missed)")
    let plain = try ArcheryEvaluator.run(images: 4, seed: 7_100_035, model: "truth", profile: "ios", width: 1280, height: 960)
    try accounts(plain, "default")
    #expect(plain.matched == plain.truthArrows)
  }

  /// Seeds 7_100_008 and 7_100_011 hold arrows within 0.1 % of a ring line. A fit
  /// that takes the zone-colour steps for the zone boundaries (`lineMM: 0`) puts
  /// its rings half a line too wide, so from true boxes it measures those arrows
  /// short of the line and misscores them; expecting the printed line scores them right.
  @Test func printedLineWidthScoresTheLineArrows() throws {
    let naive = try ArcheryEvaluator.run(images: 4, seed: 7_100_008, model: "truth", profile: "ios", width: 1280, height: 960, lineMM: 0)
    let aware = try ArcheryEvaluator.run(images: 4, seed: 7_100_008, model: "truth", profile: "ios", width: 1280, height: 960)
    #expect(naive.matched == naive.truthArrows && aware.matched == aware.truthArrows)
    #expect(naive.failures.count >= 2, "\(naive.failures.count) line arrows misscored without the line width")
    for f in naive.failures {
      let m = try #require(f.detected)
      #expect(f.kind == .misscored && m.distance < f.truthDistance && f.truthDistance - m.distance < 0.005)
    }
    #expect(aware.scoresCorrect == aware.truthArrows && aware.failures.isEmpty)
  }

  @Test func evaluationMatchesTheClosestPairsFirst() {
    // Two touching arrows; the first truth's nearest detection is its neighbour's.
    let truth = [(x: 100.0, y: 100.0), (x: 106.0, y: 100.0), (x: 300.0, y: 300.0)]
    let found = [(x: 104.0, y: 100.0), (x: 95.0, y: 100.0), (x: 400.0, y: 300.0)]
    #expect(ArcheryEvaluator.match(truth, found, radius: 8) == [1, 0, nil])
    // Equal distances: the earlier truth, then the earlier detection, wins.
    #expect(ArcheryEvaluator.match([(x: 0.0, y: 0.0), (x: 4.0, y: 0.0)], [(x: 2.0, y: 0.0)], radius: 8) == [0, nil])
    #expect(ArcheryEvaluator.match([(x: 0.0, y: 0.0)], [], radius: 8) == [nil])
  }

  @Test func extraDetectionsAreSortedByWhatTheyLieNear() {
    let truth = [(x: 100.0, y: 100.0)], holes = [(x: 200.0, y: 100.0)]
    func kind(_ x: Double, _ y: Double) -> ExtraKind { ArcheryEvaluator.extraKind((x, y), truth: truth, uncounted: holes, radius: 8) }
    #expect(kind(105, 100) == .nearArrow)
    #expect(kind(100, 108) == .nearArrow)  // the radius is inclusive, like matching
    #expect(kind(194, 100) == .onHole)
    #expect(kind(150, 100) == .elsewhere)
    // near both: the arrow's duplicate comes first
    #expect(ArcheryEvaluator.extraKind((150, 100), truth: truth, uncounted: [(x: 152, y: 100)], radius: 60) == .nearArrow)
  }

  @Test func wideTruthBoxesLoseATouchingArrowToAndroidNMS() throws {
    // Seed 7_100_000 holds two touching arrows: their wide boxes overlap by more
    // than IoU 0.50, so even a perfect detector loses one under the Android
    // profile; hole boxes keep both, and the iOS profile (0.7) keeps both anyway.
    func matched(_ profile: String, _ box: ImpactBox) throws -> (Int, Int) {
      let e = try ArcheryEvaluator.run(images: 1, seed: 7_100_000, model: "truth", profile: profile, width: 1280, height: 960, truthBox: box)
      return (e.matched, e.truthArrows)
    }
    let (wide, n) = try matched("android", .wide)
    #expect(n == 6 && wide == n - 1)
    // the arrow lost is one of the touching pair: every arrow alone still matches
    let e = try ArcheryEvaluator.run(images: 1, seed: 7_100_000, model: "truth", profile: "android", width: 1280, height: 960, truthBox: .wide)
    #expect(e.pairedArrows == 2 && e.pairedMatched == 1)
    #expect(e.recallAlone == 1)
    #expect(try matched("android", .hole) == (n, n))
    #expect(try matched("ios", .wide) == (n, n))
  }
}

