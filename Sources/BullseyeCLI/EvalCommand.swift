import ArgumentParser
import Detection
import Harness
import Canvas
import Core
import Pipelines
import Scoring
import SetCards
import Synth

#if canImport(Glibc)
  import Glibc
#endif

/// `bullseye eval`: quality of the shipped models on held-out synthesized scenes.
struct EvalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "eval", abstract: "Measure the shipped models on held-out synthesized scenes.", discussion: "Example: bullseye eval archery --images 30 --seed 7000000 --profile best",
                                                  subcommands: [EvalSetCards.self, EvalCardCrops.self, EvalArchery.self])
}

struct EvalSetCards: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "setcards", abstract: "Share of boards whose Sets equal the truth, with card recall and attribute accuracy.", discussion: "Example: bullseye eval setcards --boards 100 --seed 9000000 --json")
  @Option(parsing: .unconditional) var boards: Int = 100
  @Option(parsing: .unconditional) var cards: Int = 12
  @Option(parsing: .unconditional, help: "First board seed (held out: training used other seeds).", transform: seedArgument) var seed: UInt64 = 9_000_000
  @Option(help: "Look of the synthesized boards: classic, realism or realism-holdout (ranges no model was trained on).")
  var style: CardStyle = .classic
  @Option(help: "Card detector ONNX (default: the shipped Models/setcards-detector.onnx, found beside the installed executable).") var detector: String?
  @Option(help: "Card classifier ONNX (default: the shipped Models/setcards-classifier.onnx).") var classifier: String?
  @Option(help: "A folder of your own table photos with a labels.json ({\"photo.jpg\": [{\"card\": \"2-red-oval-striped\", \"box\": [x1,y1,x2,y2]}, ...]}, boxes optional) to measure instead of synthesized boards.")
  var photos: String?
  @Option(help: "Which rules decide the cards and Sets (default: photos with --photos, seed on synthesized boards, whose figures docs/architecture.md reports).")
  var profile: SetCardProfile?
  @Flag var json = false

  /// The profile in force: `--profile`, else the one that fits the input.
  var chosenProfile: SetCardProfile { profile ?? (photos == nil ? .seed : .photos) }

  func validate() throws {
    guard (1...10_000).contains(boards) else { throw ValidationError("--boards \(boards) is out of range: expected 1...10000") }
    guard (3...21).contains(cards) else { throw ValidationError("--cards \(cards) is out of range: expected 3...21") }
  }

  func run() throws {
    if let photos { return try runPhotos(photos) }
    let clock = ContinuousClock(), start = clock.now
    let e: BoardEvaluation
    do {
      let detector = try self.detector ?? ProductPaths.require("setcards-detector.onnx")
      let classifier = try self.classifier ?? ProductPaths.require("setcards-classifier.onnx")
      // Both read and their interfaces checked before any board is drawn, so a wrong file is named as such.
      let detFlag = self.detector == nil ? "the shipped card detector" : "--detector"
      let clsFlag = self.classifier == nil ? "the shipped card classifier" : "--classifier"
      do { try ONNXCardDetector.check(try RunSetCardsCommand.load(detector, flag: detFlag), name: detector) } catch let e as CLIError { throw e } catch {
        throw RunSetCardsCommand.refusal(error, flag: detFlag, path: detector)
      }
      do { _ = try ONNXCardClassifier(model: try RunSetCardsCommand.load(classifier, flag: clsFlag), name: classifier) } catch let e as CLIError { throw e } catch {
        throw RunSetCardsCommand.refusal(error, flag: clsFlag, path: classifier)
      }
      e = try BoardEvaluator.run(boards: boards, cards: cards, seed: seed, detector: detector, classifier: classifier,
                                 style: style, profile: chosenProfile) {
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
      }
    } catch let e as CLIError { throw e } catch { throw CLIError(message: "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)") }
    if json {
      print(try JSONValue.object([
        "boards": .int(e.boards), "exact_boards": .int(e.exactBoards),
        "failed_seeds": .array(e.failedSeeds.map { .int(Int($0)) }), "board_accuracy": .double(e.boardAccuracy),
        "card_recall": .double(Double(e.cardsFound) / Double(max(1, e.cardsTotal))),
        "attribute_accuracy": .double(Double(e.cardsCorrect) / Double(max(1, e.cardsFound))), "median_ms": .double(e.medianMS),
      ]).canonicalText(), terminator: "")
    } else {
      print("\(e.exactBoards)/\(e.boards) boards with exactly the true Sets (\(String(format: "%.1f", e.boardAccuracy * 100)) %); cards found \(e.cardsFound)/\(e.cardsTotal); all four attributes right on \(e.cardsCorrect)/\(e.cardsFound); median \(String(format: "%.0f", e.medianMS)) ms per board"
        + (e.failedSeeds.isEmpty ? "" : "; failed board seeds: \(e.failedSeeds.map(String.init).joined(separator: ", "))"))
    }
  }
}

struct EvalArchery: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "archery", abstract: "Arrow detector through the whole pipeline: recall, precision, impact error, score accuracy.", discussion: "Example: bullseye eval archery --images 30 --seed 7000000 --profile best --floor recall=0.9,precision=0.9,scored=0.85")
  @Option(parsing: .unconditional) var images: Int = 50
  @Option(parsing: .unconditional, help: "First image seed (held out: training used other seeds).", transform: seedArgument) var seed: UInt64 = 7_000_000
  @Option(help: "Which detector: the ONNX model (--model), or truth, a perfect detector built from the true boxes (the rest of the pipeline's ceiling).")
  var detector: EvalDetector = .model
  @Option(help: "The ONNX detector for --detector model (default: the shipped Models/arrow-detector.onnx, found beside the installed executable).")
  var model: String?
  @Option(help: "Platform profile.") var profile: ProfileName = .ios
  @Option(help: "Look of the held-out scenes: classic (the scenarios' look) or realistic (practice and worn faces, stands, posts, grass, steep angles, shallow shafts, overcast light; tilt up to 60°).")
  var style: ArcheryStyle = .classic
  @Option(help: "Image size WIDTHxHEIGHT, sides 16...8192.", transform: ImageSize.argument) var size = ImageSize(width: 1280, height: 960)
  @Option(help: "The face drawn and scored (`bullseye faces` lists them); the quality bars are for 10_zone.")
  var face: FaceName = .tenZone
  @Option(name: .customLong("line-mm"), parsing: .unconditional,
          help: "Printed ring-line width in mm the target fit expects (the photos print 1.6; 0 shows the fit without it).")
  var lineMM: Double = Face.printedLineMM
  @Option(help: "An arrow refiner (e.g. Models/arrow-refiner.onnx): a second look at each candidate at the photo's resolution.")
  var refiner: String?
  @Option(parsing: .unconditional, help: "Refiner probability a candidate needs to be kept (default: the shipped setting).")
  var accept: Double?
  @Option(name: .customLong("candidate-confidence"), parsing: .unconditional,
          help: "Detector score a candidate needs to reach the refiner (default: the shipped setting).")
  var candidateConfidence: Double?
  @Option(name: .customLong("merge-px"), parsing: .unconditional,
          help: "Refined points closer than this many model-input pixels count as one arrow (default: the shipped setting).")
  var mergePx: Double?
  @Option(name: .customLong("double-px"), parsing: .unconditional,
          help: "Refined points from different windows closer than this many model-input pixels count as one arrow when neither window kept a point at the other's (default: the shipped setting).")
  var doublePx: Double?
  @Option(name: .customLong("trust-px"), parsing: .unconditional,
          help: "A peak refiner's entries farther than this many model-input pixels from their window's centre are not read (default: the shipped setting).")
  var trustPx: Double?
  @Option(name: .customLong("pair-accept"), parsing: .unconditional,
          help: "A pair refiner's probability an entry's touching partner needs to be reported (default: the shipped setting).")
  var pairAccept: Double?
  @Option(name: .customLong("gate-accept"), parsing: .unconditional, help: "With a gated refiner (a 'window' output): the window probability its peaks need (default: the shipped setting).")
  var gateAccept: Double?
  @Option(name: .customLong("refiner-views"), parsing: .unconditional,
          help: "How many of a window's eight mirrored and transposed views a peak refiner reads where it found one entry, its offsets averaged over them, 1...8 (default: the shipped setting).")
  var refinerViews: Int?
  @Option(name: .customLong("zoom-share"), parsing: .unconditional,
          help: "The detector's closer look at a small face: taken when the region is at most this share of the photo's side; 0 takes none (default: the profile's: best 0.75, the apps none).")
  var zoomShare: Double?
  @Option(name: .customLong("zoom-margin"), parsing: .unconditional, help: "The closer look's region: the face box times this (default: 1.3).")
  var zoomMargin: Double?
  @Option(name: .customLong("zoom-windows"),
          help: "After a closer look, what the refiner's windows are measured in: region (the closer look's pixels; best's) or photo (the whole photo's).")
  var zoomWindows: ZoomSettings.WindowScale?
  @Option(name: .customLong("shaft-check"),
          help: "With a refiner: on drops points whose shaft runs the wrong way or that have none (nocks, old holes, points along a shaft); off (the default) lets the refiner alone decide.")
  var shaftCheck: Switch?
  @Option(name: .customLong("shaft-keep"), parsing: .unconditional,
          help: "The shaft check's probability a point needs to be kept, 0...1 (default: the shipped setting; 0 keeps every point it weighs).")
  var shaftKeep: Double?
  /// Removed experiments: accepted only to name what replaced them.
  @Option(parsing: .unconditional, help: .hidden) var views: String?
  @Option(name: .customLong("pair-verifier"), help: .hidden) var pairVerifier: String?
  @Option(name: .customLong("pair-verifier-accept"), parsing: .unconditional, help: .hidden) var pairVerifierAccept: String?
  @Option(help: "Which true impacts count as arrows: shafts (holes without shafts are negatives) or all.")
  var impacts: ImpactSet = .shafts
  @Option(name: .customLong("impact-box"), help: "Box size of the 'truth' model's arrows: wide (six shaft diameters) or hole (two); it decides which touching arrows NMS merges.")
  var impactBox: ImpactBox = .wide
  @Option(help: "Also write each photo here as eval-<index>.png (the index failures and extras name), and beside it eval-<index>.json: the true arrows and shafts, every detection and the arrow it matched, the fitted face.")
  var photos: String?
  @Option(help: "Fail (exit 1) when a figure falls below its floor: recall=R,precision=P,scored=S (fractions).", transform: Floors.parse) var floor: Floors?
  @Flag var json = false

  func validate() throws {
    guard (1...10_000).contains(images) else { throw ValidationError("--images \(images) is out of range: expected 1...10000") }
    guard (16...8192).contains(size.width), (16...8192).contains(size.height) else {
      throw ValidationError("--size \(size) is out of range: expected sides 16...8192")
    }
    try RemovedFlags.check(["--views": views, "--pair-verifier": pairVerifier, "--pair-verifier-accept": pairVerifierAccept])
    if detector == .truth, let model, model != "truth" {
      throw ValidationError("--detector truth cannot go with --model \(model): a perfect detector reads no model")
    }
    try checkLineMM(lineMM)
    if let shaftKeep, !(shaftKeep.isFinite && (0...1).contains(shaftKeep)) {
      throw ValidationError("--shaft-keep \(shaftKeep) is out of range: expected 0...1")
    }
    if shaftKeep != nil, shaftCheck == .off || (shaftCheck == nil && profile.profile.shaftCheck == nil) {
      throw ValidationError("--shaft-keep needs the shaft check: expected --shaft-check on")
    }
    if shaftCheck == .on, refiner == nil, !profile.profile.refine {
      throw ValidationError("--shaft-check on needs a refiner: expected --refiner FILE or --profile best")
    }
    if let zoomShare, !(zoomShare.isFinite && (0...1).contains(zoomShare)) {
      throw ValidationError("--zoom-share \(zoomShare) is out of range: expected 0...1")
    }
    if let zoomMargin, !(zoomMargin.isFinite && (1...4).contains(zoomMargin)) {
      throw ValidationError("--zoom-margin \(zoomMargin) is out of range: expected 1...4")
    }
    if let refinerViews, !(1...8).contains(refinerViews) {
      throw ValidationError("--refiner-views \(refinerViews) is out of range: expected 1...8")
    }
    for (value, flag, range, _) in overrides {
      if let value, !(value.isFinite && range.contains(value)) {
        throw ValidationError("\(flag) \(value) is out of range: expected \(range.lowerBound)...\(range.upperBound)")
      }
    }
    // The refiner's settings with no refiner to take them would change nothing.
    let set = overrides.filter { $0.0 != nil }.map(\.1) + (refinerViews != nil ? ["--refiner-views"] : [])
    if let first = set.first, refiner == nil, !profile.profile.refine {
      throw ValidationError("\(first) needs a refiner: --refiner FILE, or --profile best")
    }
  }

  /// The evaluator's detector argument: a model path, or "truth". `--model truth`,
  /// the old spelling of `--detector truth`, still works with a deprecation line.
  func detectorArgument() throws -> String {
    if model == "truth" {
      LegacySpelling.warn("`--model truth` is deprecated: use `--detector truth` (the old spelling goes in \(LegacySpelling.removedIn))")
      return "truth"
    }
    return detector == .truth ? "truth" : try (model ?? ProductPaths.require("arrow-detector.onnx"))
  }

  /// Each refiner setting the command line overrides: value, flag, allowed range, what it sets.
  var overrides: [(Double?, String, ClosedRange<Double>, WritableKeyPath<RefinerSettings, Double>)] {
    [(accept, "--accept", 0...1, \.accept), (candidateConfidence, "--candidate-confidence", 0...1, \.candidateConfidence),
     (mergePx, "--merge-px", 0...64, \.mergeInputPx), (gateAccept, "--gate-accept", 0...1, \.gateAccept),
     (pairAccept, "--pair-accept", 0...2, \.pairAccept), (trustPx, "--trust-px", 0...64, \.trustInputPx),
     (doublePx, "--double-px", 0...64, \.doubleInputPx)]
  }

  /// The closer look the flags ask for, else the profile's.
  var zoomOverride: ArcheryEvaluator.ZoomOverride {
    // --zoom-windows alone changes a closer look the profile takes; it never adds one.
    guard zoomShare != nil || zoomMargin != nil || (zoomWindows != nil && profile.profile.zoom != nil) else { return .profile }
    if zoomShare == 0 { return .set(nil) }
    let base = profile.profile.zoom ?? ZoomSettings.shipped
    return .set(ZoomSettings(margin: zoomMargin ?? base.margin, maximumShare: zoomShare ?? base.maximumShare,
                             windows: zoomWindows ?? base.windows))
  }

  func run() throws {
    let set = impacts, box = impactBox
    var settings = RefinerSettings.shipped
    for (value, _, _, key) in overrides { if let value { settings[keyPath: key] = value } }
    if let refinerViews { settings.views = refinerViews }
    let model = try detectorArgument()
    // --profile best reads the shipped refiner unless --refiner names another.
    let refiner = try self.refiner ?? (profile.profile.refine ? ProductPaths.require("arrow-refiner.onnx") : nil)
    // Read and checked before any scene is drawn, so a wrong file is named as such.
    if model != "truth" { _ = try loadDetector(model, flag: self.model == nil ? "the shipped detector" : "--model") }
    if let refiner {
      do { _ = try ArrowRefiner(contentsOf: refiner, settings: settings) } catch {
        throw CLIError(message: "\(self.refiner == nil ? "the shipped refiner" : "--refiner") '\(refiner)': \(firstLine(error))")
      }
    }
    if let photos {
      try OutputPaths.checkDirectory(photos, flag: "--photos")
      try OutputPaths.makeDirectory(photos)
      try OutputPaths.checkWritable("\(photos)/eval-0.png", flag: "--photos")
    }
    let e: ArcheryEvaluation
    do {
      e = try ArcheryEvaluator.run(images: images, seed: seed, model: model, profile: profile.rawValue, width: size.width, height: size.height,
                                    face: face.face.id, lineMM: lineMM, impacts: set, truthBox: box, refiner: refiner, refinerSettings: settings,
                                    style: style, zoom: zoomOverride, shaftCheck: shaftCheck.map { $0 == .on }, shaftKeep: shaftKeep, photo: photos.map { dir in { try writePhoto($0, to: dir) } })
    }
    catch { throw CLIError(message: "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)") }
    if json {
      print(try JSONValue.object([
        "images": .int(e.images), "truth_arrows": .int(e.truthArrows), "detections": .int(e.detections), "matched": .int(e.matched),
        "recall": .double(e.recall), "recall_visible_entries": .double(e.recallVisible),
        "visible_entries": .int(e.visibleArrows), "paired_arrows": .int(e.pairedArrows), "paired_matched": .int(e.pairedMatched),
        "recall_alone": .double(e.recallAlone), "precision": .double(e.precision), "score_accuracy": .double(e.scoreAccuracy),
        "median_error_px": .double(e.medianErrorPx.isFinite ? e.medianErrorPx : -1),
        "median_error_input_px": .double(e.medianErrorInputPx.isFinite ? e.medianErrorInputPx : -1), "targets_found": .int(e.targetsFound),
        "mean_error_mm": .double(e.meanErrorMM.isFinite ? e.meanErrorMM : -1), "within_2mm": .double(e.within2MM.isFinite ? e.within2MM : -1),
        "style": .string(style.rawValue),
        "impacts": .string(e.impacts.rawValue), "impact_box": .string(box.rawValue), "refiner": refiner.map(JSONValue.string) ?? .null,
        "failures": .array(e.failures.map(failureJSON)),
        "extra_near_arrows": .int(e.extras.count(.nearArrow)), "extra_on_holes": .int(e.extras.count(.onHole)),
        "extra_elsewhere": .int(e.extras.count(.elsewhere)),
        "extra_on_nocks": .int(e.extras.count(.nock)), "extra_on_shafts": .int(e.extras.count(.shaft)),
        "extras": .array(e.extras.list.map { x in
          .object(["image": .int(x.image), "x": .double(x.x), "y": .double(x.y), "confidence": .double(x.confidence), "kind": .string(x.kind.rawValue),
                   "arrow_px": x.arrowPx.isFinite ? .double(x.arrowPx) : .null, "on": x.part.map { .string($0.rawValue) } ?? .null])
        }),
      ]).canonicalText(), terminator: "")
    } else {
      print("\(e.images) images, \(e.truthArrows) arrows (impacts: \(e.impacts.rawValue)): recall \(String(format: "%.3f", e.recall)) (\(String(format: "%.3f", e.recallVisible)) of \(e.visibleArrows) with the entry in sight), precision \(String(format: "%.3f", e.precision)), median impact error \(String(format: "%.2f", e.medianErrorPx)) px (\(String(format: "%.2f", e.medianErrorInputPx)) px at 640 input; on the face \(String(format: "%.2f", e.meanErrorMM)) mm mean, \(String(format: "%.1f", e.within2MM * 100)) % within 2 mm), score right on \(String(format: "%.1f", e.scoreAccuracy * 100)) % of arrows, target fitted in \(e.targetsFound)/\(e.images); \(e.extras.list.count) extras (\(e.extras.count(.nock)) on nocks, \(e.extras.count(.shaft)) on shafts)")
    }
    if let floor { floor.check(["recall": e.recall, "precision": e.precision, "scored": e.scoreAccuracy]) }
  }
}

/// An option that turns a stage on or off.
enum Switch: String, ExpressibleByArgument, CaseIterable, Sendable { case on, off }

/// `--photos`: the photo as eval-<index>.png and beside it eval-<index>.json (true
/// entries and shafts, detections and what each matched), each written whole or not at all.
func writePhoto(_ p: EvalPhoto, to dir: String) throws {
  try PNG.write(p.image, to: "\(dir)/eval-\(p.index).png")
  let record = JSONValue.object([
    "image": .int(p.index), "width": .int(p.image.width), "height": .int(p.image.height),
    "truth": .array(p.truth.map { .object(["x": .double($0.x), "y": .double($0.y), "label": .string($0.label)]) }),
    "face": p.face.map { e in .object(["cx": .double(e.cx), "cy": .double(e.cy), "a": .double(e.a), "b": .double(e.b), "angle_deg": .double(e.angleDeg)]) } ?? .null,
    "shafts": .array(p.shaftEnds.map { .array($0.map(JSONValue.double)) }),
    "detections": .array(p.detections.map { d in
      .object(["x": .double(d.x), "y": .double(d.y), "confidence": .double(d.confidence), "truth": d.truth.map(JSONValue.int) ?? .null,
               "shaft_evidence": d.shaftEvidence.map { .array($0.map(JSONValue.double)) } ?? .null])
    }),
  ])
  try AtomicFile.write(Array(record.canonicalText().utf8), to: "\(dir)/eval-\(p.index).json")
}

/// One failed arrow as JSON: the truth, and for a misscore the detection it matched
/// (seed = the evaluation's first seed + image).
func failureJSON(_ f: ArrowFailure) -> JSONValue {
  var o: [String: JSONValue] = [
    "kind": .string(f.kind.rawValue), "image": .int(f.image), "truth_x": .double(f.truthX), "truth_y": .double(f.truthY),
    "truth_label": .string(f.truthLabel), "truth_distance": .double(f.truthDistance), "style": .string(f.style.rawValue),
    "entry_hidden": .bool(f.entryHidden), "paired": .bool(f.paired),
  ]
  if let m = f.detected {
    o["detected_x"] = .double(m.x); o["detected_y"] = .double(m.y); o["detected_label"] = .string(m.label)
    o["detected_distance"] = .double(m.distance); o["error_px"] = .double(m.errorPx)
  }
  return .object(o)
}

/// `--floor name=value,…`, read when the command line is parsed (a typo is
/// refused before the evaluation runs): every named figure must reach its floor,
/// or the run exits 1 naming each figure that fell short (the shipped models' bar in CI).
struct Floors: Sendable {
  /// The figures a floor may name.
  static let names = ["precision", "recall", "scored"]
  let floors: [(name: String, value: Double)]

  /// Parses `name=fraction,…`; the error names the pair and what was expected.
  static func parse(_ argument: String) throws -> Floors {
    var floors: [(String, Double)] = []
    for pair in argument.split(separator: ",", omittingEmptySubsequences: false) {
      let kv = pair.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
      guard kv.count == 2, names.contains(kv[0]), let v = Double(kv[1]), (0...1).contains(v) else {
        throw ValidationError("'\(pair)' is not name=fraction: expected names \(names.joined(separator: ", ")) and fractions 0...1")
      }
      floors.append((kv[0], v))
    }
    return Floors(floors: floors)
  }

  /// Exits 1 after printing the figures below their floors; returns when all reach them.
  func check(_ figures: [String: Double]) {
    let short = floors.compactMap { f -> String? in
      guard let figure = figures[f.name], figure < f.value else { return nil }
      return "\(f.name) \(String(format: "%.3f", figure)) < floor \(f.value)"
    }
    if !short.isEmpty {
      print("below the floor: " + short.joined(separator: "; "))
      Glibc.exit(1)
    }
  }
}

extension ArcheryStyle: ExpressibleByArgument {}
