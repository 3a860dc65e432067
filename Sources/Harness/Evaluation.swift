import Pipelines
import Imaging
import Core
import Detection
import Inference
import Scoring
import Synth

#if canImport(Glibc)
  import Glibc
#endif

/// The arrow detector measured through the whole pipeline on held-out photos.
public struct ArcheryEvaluation: Sendable {
  public let images: Int
  public let truthArrows: Int, detections: Int, matched: Int
  /// Arrows whose entry point is not painted over, and how many of them matched:
  /// recall over what a detector can see rather than guess.
  public let visibleArrows: Int, visibleMatched: Int
  let scoresCorrect: Int
  /// Median distance between a matched detection and its true impact, in
  /// original pixels and in 640-input pixels.
  public let medianErrorPx: Double, medianErrorInputPx: Double
  public let targetsFound: Int
  /// Distance between a matched detection and its true impact on the face
  /// plane, in mm (perspective undone): the mean, and the share within 2 mm,
  /// the figures photo-scoring studies report.
  public var meanErrorMM: Double = .nan, within2MM: Double = .nan
  /// Which true impacts counted as arrows to find.
  public let impacts: ImpactSet
  public var recall: Double { Double(matched) / Double(max(1, truthArrows)) }
  /// Recall over arrows whose entry is in sight.
  public var recallVisible: Double { Double(visibleMatched) / Double(max(1, visibleArrows)) }
  public var precision: Double { Double(matched) / Double(max(1, detections)) }
  /// Arrows with another counted entry within `touchingInputPx` (one of a touching
  /// pair, what the refiner's pair channels decide), and how many of them matched.
  public var pairedArrows = 0, pairedMatched = 0
  /// Recall over the arrows with no entry that close.
  public var recallAlone: Double { Double(matched - pairedMatched) / Double(max(1, truthArrows - pairedArrows)) }
  /// The touching-pair radius in model-input pixels (Training/peaks.py PAIR_R).
  static let touchingInputPx = 2.5
  public var scoreAccuracy: Double { Double(scoresCorrect) / Double(max(1, truthArrows)) }
  /// Every true arrow not scored right, in image order: what to look at first.
  public let failures: [ArrowFailure]
  /// Detections matched to no arrow, by what lies within the match radius: a
  /// counted arrow (a second answer for it), an impact the set does not count
  /// (a hole without its shaft under `.shafts`), or nothing.
  public var extras = Extras()

  /// Unmatched detections by where they landed.
  public struct Extras: Sendable {
    /// Each one: photo index, position in photo pixels, confidence, which kind,
    /// how far (photo pixels) the nearest counted arrow is, and the painted part
    /// of an arrow it lies on (a nock, a shaft; nil: neither).
    public var list: [(image: Int, x: Double, y: Double, confidence: Double, kind: ExtraKind, arrowPx: Double, part: ShaftPart?)] = []
    /// How many of each kind.
    public func count(_ kind: ExtraKind) -> Int { list.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
    /// How many lie on that part of an arrow, whatever their kind.
    public func count(_ part: ShaftPart) -> Int { list.reduce(0) { $0 + ($1.part == part ? 1 : 0) } }
  }
}

/// One evaluated photo and what the pipeline made of it, for a reviewer or a
/// training script: the true entries (counted ones), every painted shaft as
/// [entryX, entryY, nockX, nockY], and each detection with the index of the
/// true arrow it matched (nil: an extra). Positions in photo pixels.
public struct EvalPhoto: Sendable {
  /// A true arrow: where its entry is and what it scores.
  public struct Arrow: Sendable { public let x: Double, y: Double, label: String }
  /// A detection: where, how probable, the index of the true arrow it matched
  /// (nil: an extra), and its `ShaftEvidence` features (nil without a
  /// single-spot face fitted, as the check): what the check's model is fitted on.
  public struct Found: Sendable {
    public let x: Double, y: Double, confidence: Double
    public let truth: Int?
    public let shaftEvidence: [Double]?
  }
  public let index: Int
  public let image: RGBA8Image
  public let truth: [Arrow]
  public let shaftEnds: [[Double]]
  public let detections: [Found]
  /// The fitted face outline (nil: no target found).
  public let face: FittedEllipse?
}

/// Where a detection matched to no arrow landed (see `ArcheryEvaluation.extras`).
public enum ExtraKind: String, Sendable, CaseIterable {
  /// Within the match radius of a counted arrow: a second answer for it.
  case nearArrow = "near_arrow"
  /// Within it of an impact the set does not count (a hole without its shaft).
  case onHole = "on_hole"
  /// Near nothing true: a shaft crossing, a nock, a ring line.
  case elsewhere
}

/// One true arrow the pipeline got wrong: missed (no detection within the match
/// radius) or found and scored differently. Distances are in spot units, so a
/// misscore with a small pixel error and a large distance gap points at the
/// target fit, a large pixel error at the detector.
public struct ArrowFailure: Sendable, Hashable {
  /// Why it failed.
  public enum Kind: String, Sendable { case missed, misscored }
  public let kind: Kind
  /// Index of the photo (its seed is the evaluation's first seed + image).
  public let image: Int
  public let truthX: Double, truthY: Double
  public let truthLabel: String, truthDistance: Double
  public let style: ArrowStyle
  public let entryHidden: Bool
  /// One of a touching pair (another counted entry within `touchingInputPx`).
  public var paired = false
  /// The detection it was matched with (misscored only).
  public let detected: Match?

  /// Where the matched detection landed and what it scored.
  public struct Match: Sendable, Hashable {
    public let x: Double, y: Double
    public let label: String, distance: Double
    /// Pixel distance from the true impact.
    public let errorPx: Double
  }
}

/// Synthesizes 10-zone photos (tilt up to 25°) with seeds `seed…`, runs the
/// pipeline with the model, and compares each true arrow with the nearest
/// detection within a match radius: detected, located and scored right.
/// `impacts` says which true arrows count (a hole without a shaft is a
/// negative under `.shafts`, so a detection on it is a false positive).
/// `refiner` adds the second look (Models/arrow-refiner.onnx) after the detector.
/// `model: "truth"` replaces the detector with the true boxes (drawn as
/// `truthBox` says): the ceiling the rest of the pipeline (NMS, target fit,
/// rectification, scoring) allows. `photo` sees each photo with its index, to
/// keep the ones the failures and extras point at. `shaftCheck` turns the
/// profile's look along the shafts on or off (nil: the profile's), `shaftKeep`
/// sets its keep threshold (0 keeps every point it weighs: its training data). `face` names the face drawn
/// and scored (a quarter of the shipped detector's training scenes are 10-zone,
/// the rest nine other faces: `Dataset`'s list);
/// `lineMM` is the line width the target fit expects (the photos print 1.6 mm).
public enum ArcheryEvaluator {
  /// The closer look the evaluation runs with: the profile's, or one set (nil: none).
  public enum ZoomOverride: Sendable { case profile, set(ZoomSettings?) }

  public static func run(images: Int, seed: UInt64, model: String, profile: String, width: Int, height: Int,
                         face faceName: String = "10_zone", lineMM: Double = Face.printedLineMM,
                         impacts: ImpactSet = .shafts, truthBox: ImpactBox = .wide, refiner: String? = nil,
                         refinerSettings: RefinerSettings = .shipped, style: ArcheryStyle = .classic, zoom: ZoomOverride = .profile,
                         shaftCheck: Bool? = nil, shaftKeep: Double? = nil,
                         photo: ((EvalPhoto) throws -> Void)? = nil) throws -> ArcheryEvaluation {
    var truthArrows = 0, detections = 0, matched = 0, correct = 0, targets = 0, visible = 0, visibleMatched = 0
    var errors: [Double] = [], inputErrors: [Double] = [], errorsMM: [Double] = []
    var failures: [ArrowFailure] = []
    var extras = ArcheryEvaluation.Extras()
    var paired = 0, pairedMatched = 0
    let face = try FaceCatalog.face(named: faceName)
    var prof = try PlatformProfile.named(profile)
    if case .set(let z) = zoom { prof.zoom = z }
    if let shaftCheck { prof.shaftCheck = shaftCheck ? prof.shaftCheck ?? .shipped : nil }
    if let shaftKeep, prof.shaftCheck != nil { prof.shaftCheck?.keepAbove = shaftKeep }
    // Read and plan the model once for all photos ("truth": no model).
    let loaded = model == "truth" ? nil : try InferenceModel(contentsOf: model)
    let second = try refiner.map { try ArrowRefiner(contentsOf: $0, settings: refinerSettings) }
    for i in 0..<images {
      var g = SeededGenerator(seed: seed + UInt64(i))
      var spec = SceneSpec(face: face.id, seed: seed + UInt64(i), size: ImageSize(width: width, height: height), arrowCount: g.int(3...9))
      // Realistic scenes tilt up to 60° (the same draw, stretched: classic figures keep their scenes).
      spec.camera.tiltDeg = g.uniform(0...25) * (style == .realistic ? 2.4 : 1)
      spec.style = style
      let synth = try Synthesizer.render(spec)
      let truth = synth.truth.arrows(in: impacts)
      // "truth": a perfect detector (true boxes), to measure the rest of the pipeline.
      let detector: DetectorSource = loaded.map { .loaded($0, name: model) }
        ?? .boxes(truthBoxes(truth, convention: truthBox, targetBox: synth.truth.targetBox, mapping: prof.mapping(width: width, height: height),
                             confidences: [0.9]))
      var req = RunRequest(image: synth.image, profile: prof, face: face, diameterCm: synth.truth.scene.diameterCm,
                           rule: .inclusive, detector: detector, expectedArrows: truth.count)
      req.precision = .double
      req.lineMM = lineMM
      req.refiner = second
      req.gestures = [.confirm]
      let r = try ArcheryPipeline.run(req)
      // A face the locator cannot find is a finding of the evaluation (its arrows count as missed), not an abort.
      if let e = r.error, !r.noTarget { throw PipelineError("image \(i): \(e)") }
      if r.target?.method.hasPrefix("ring-edges") == true { targets += 1 }
      truthArrows += truth.count
      detections += r.detections.count
      let gain = 640.0 / Double(max(width, height))
      // One-to-one matching within 1.5 % of the image diagonal, closest pair first.
      let radius = 0.015 * (Double(width * width + height * height)).squareRoot()
      let truthPoints = truth.map { (x: $0.pixelX, y: $0.pixelY) }
      let foundPoints = r.detections.map { (x: Double($0.pixelX), y: Double($0.pixelY)) }
      let pairing = match(truthPoints, foundPoints, radius: radius)
      let used = Set(pairing.compactMap { $0 })
      let uncounted = synth.truth.arrows(in: .all).filter { !impacts.includes($0.style) }.map { (x: $0.pixelX, y: $0.pixelY) }
      for (j, p) in foundPoints.enumerated() where !used.contains(j) {
        let kind = extraKind(p, truth: truthPoints, uncounted: uncounted, radius: radius)
        let nearest = truthPoints.map { distance(p, $0) }.min() ?? .infinity
        extras.list.append((i, p.x, p.y, r.detections[j].confidence, kind, nearest, synth.truth.shaftPart(x: p.x, y: p.y)))
      }
      if let photo {
        var matchOf = [Int?](repeating: nil, count: foundPoints.count)
        for (t, j) in pairing.enumerated() { if let j { matchOf[j] = t } }
        let evidence = r.target.flatMap { face.spots.count == 1 ? $0 : nil }.map { t in
          ShaftEvidence.features(synth.image, points: r.detections.map { (Double($0.pixelX), Double($0.pixelY), $0.confidence) },
                                 faceRadius: max(t.ellipse.a, t.ellipse.b)).features
        }
        try photo(EvalPhoto(index: i, image: synth.image,
                            truth: truth.map { .init(x: $0.pixelX, y: $0.pixelY, label: $0.inclusive.label) },
                            shaftEnds: synth.truth.shaftEnds,
                            detections: foundPoints.indices.map { j in
                              .init(x: foundPoints[j].x, y: foundPoints[j].y, confidence: r.detections[j].confidence, truth: matchOf[j],
                                    shaftEvidence: evidence?[j])
                            }, face: r.target?.ellipse))
      }
      let touching = ArcheryEvaluation.touchingInputPx / gain
      for (ti, t) in truth.enumerated() {
        if !t.entryHidden { visible += 1 }
        let isPaired = truthPoints.indices.contains { $0 != ti && distance(truthPoints[$0], truthPoints[ti]) <= touching }
        if isPaired { paired += 1 }
        guard let j = pairing[ti] else {
          failures.append(.init(kind: .missed, image: i, truth: t, paired: isPaired, detected: nil))
          continue
        }
        let d = distance(foundPoints[j], truthPoints[ti])
        matched += 1
        if !t.entryHidden { visibleMatched += 1 }
        if isPaired { pairedMatched += 1 }
        errors.append(d); inputErrors.append(d * gain)
        errorsMM.append(synth.truth.faceDistanceMM(foundPoints[j], truthPoints[ti]))
        let got = r.detections[j], want = t.inclusive
        if got.score.score == want.score && got.score.isX == want.isX {
          correct += 1
        } else {
          let m = ArrowFailure.Match(x: Double(got.pixelX), y: Double(got.pixelY), label: got.score.label,
                                     distance: got.score.distance, errorPx: d)
          failures.append(.init(kind: .misscored, image: i, truth: t, paired: isPaired, detected: m))
        }
      }
    }
    errors.sort(); inputErrors.sort()
    var e = ArcheryEvaluation(images: images, truthArrows: truthArrows, detections: detections, matched: matched,
                             visibleArrows: visible, visibleMatched: visibleMatched, scoresCorrect: correct,
                             medianErrorPx: errors.isEmpty ? .nan : errors[errors.count / 2],
                             medianErrorInputPx: inputErrors.isEmpty ? .nan : inputErrors[inputErrors.count / 2], targetsFound: targets,
                             impacts: impacts, failures: failures)
    e.extras = extras
    if !errorsMM.isEmpty {
      e.meanErrorMM = errorsMM.reduce(0, +) / Double(errorsMM.count)
      e.within2MM = Double(errorsMM.filter { $0 <= 2 }.count) / Double(errorsMM.count)
    }
    e.pairedArrows = paired
    e.pairedMatched = pairedMatched
    return e
  }

  /// For each true point, the index of its detected point or nil: every
  /// (truth, detection) pair within `radius`, closest first (ties: truth, then
  /// detection order), each side used once. Matching truth by truth instead let
  /// an arrow take its touching neighbour's detection and leave the neighbour missed.
  static func match(_ truth: [(x: Double, y: Double)], _ detections: [(x: Double, y: Double)], radius: Double) -> [Int?] {
    var pairs: [(d: Double, t: Int, j: Int)] = []
    for (ti, t) in truth.enumerated() {
      for (j, p) in detections.enumerated() {
        let d = distance(p, t)
        if d <= radius { pairs.append((d, ti, j)) }
      }
    }
    pairs.sort { ($0.d, $0.t, $0.j) < ($1.d, $1.t, $1.j) }
    var out = [Int?](repeating: nil, count: truth.count), used = Set<Int>()
    for p in pairs where out[p.t] == nil && !used.contains(p.j) {
      out[p.t] = p.j
      used.insert(p.j)
    }
    return out
  }

  /// What an unmatched detection at `p` lies near: a counted arrow first, then
  /// an uncounted impact, within `radius`.
  static func extraKind(_ p: (x: Double, y: Double), truth: [(x: Double, y: Double)], uncounted: [(x: Double, y: Double)],
                        radius: Double) -> ExtraKind {
    if truth.contains(where: { distance(p, $0) <= radius }) { return .nearArrow }
    if uncounted.contains(where: { distance(p, $0) <= radius }) { return .onHole }
    return .elsewhere
  }

  /// Euclidean distance in pixels.
  static func distance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }
}

extension ArrowFailure {
  init(kind: Kind, image: Int, truth t: GroundTruth.ArrowTruth, paired: Bool, detected: Match?) {
    self.init(kind: kind, image: image, truthX: t.pixelX, truthY: t.pixelY, truthLabel: t.inclusive.label,
              truthDistance: t.inclusive.distance, style: t.style, entryHidden: t.entryHidden, detected: detected)
    self.paired = paired
  }
}
