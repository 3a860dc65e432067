import Pipelines
import Adjustment
import Imaging
import Core
import Detection
import Foundation
import Inference
import Persistence
import Scoring
import Synth

/// One profile's run of a scenario.
struct ProfileRun: Sendable {
  let profile: String
  let result: RunResult
  let resume: ResumeState?
  let databaseDump: String?
}

/// Everything a scenario produced, and the explicit expectations it missed.
struct ScenarioOutcome: Sendable {
  let id: String
  let image: RGBA8Image
  /// The synthesized truth (nil for a photo file: its marks are the reference).
  let truth: GroundTruth?
  /// How the picture was saved and read back (nil: the rendered pixels).
  let photo: JSONValue?
  /// A photo file's marks, `[x, y]` in the pixels the run saw.
  let marks: [[Double]]
  let runs: [ProfileRun]
  let failures: [String]
  /// Undeclared differences from the truth (and declared ones that no longer occur).
  let truthFailures: [String]
  /// Declared differences from the truth, with their reasons, for the report.
  let truthDeclared: [String]
}

/// Runs archery scenarios: synthesize → pipeline per profile → persist →
/// resume → expectations.
enum ScenarioRunner {
  /// Runs `s`; databases are written under `workDir` (a fresh file per profile).
  static func run(_ s: ArcheryScenario, id: String, workDir: String, threads: Int = ProcessorCount.available) throws(PipelineError) -> ScenarioOutcome {
    var truth: GroundTruth?, image: RGBA8Image
    var photo: JSONValue?
    var toFrame: (Double, Double) -> (Double, Double) = { ($0, $1) }
    if let file = s.image {
      let read: Photo
      do { read = try ImageFile.read(path: file) } catch { throw PipelineError("image '\(file)': \(error)") }
      if s.orientation == .ignore {
        let coded: (image: RGBA8Image, orientation: Orientation)
        do { coded = try read.codedTurn() } catch { throw PipelineError("image '\(file)': \(error)") }
        image = coded.image
        if coded.orientation != .up {
          let o = coded.orientation, w = coded.image.width, h = coded.image.height
          toFrame = { o.storedPoint(uprightX: $0, y: $1, width: w, height: h) }
        }
      } else {
        image = read.upright(threads: 1)
      }
      // Marks are given in the upright picture: each must lie on it.
      let upW = read.orientation.swapsSides ? read.stored.height : read.stored.width
      let upH = read.orientation.swapsSides ? read.stored.width : read.stored.height
      for (i, m) in (s.marks?.arrows ?? []).enumerated() where m.x > Double(upW) || m.y > Double(upH) {
        throw PipelineError("image '\(file)': mark \(i) at (\(m.x), \(m.y)) lies outside the \(upW)x\(upH) picture: expected x in 0...\(upW), y in 0...\(upH)")
      }
      photo = .object(["file": .string(URL(fileURLWithPath: file).lastPathComponent), "format": .string(read.format.rawValue),
                       "exif_orientation": .int(read.orientation.rawValue), "orientation": .string(s.orientation.rawValue),
                       "width": .int(image.width), "height": .int(image.height)])
    } else {
      let synth: SynthResult
      do { synth = try Synthesizer.render(s.scene) } catch { throw PipelineError("\(error)") }
      truth = synth.truth; image = synth.image
      if let p = s.photo {
        let c = try p.capture(synth.image, truth: synth.truth, semantics: s.orientation)
        (image, truth, photo) = (c.image, c.truth, c.json)
      }
    }
    let resolved: (face: Face, diameterCm: Double)
    do { resolved = try truth.map { ($0.scene.face, $0.scene.diameterCm) } ?? s.scene.faceAndDiameter() } catch { throw PipelineError("\(error)") }
    let face = resolved.face
    var runs: [ProfileRun] = []
    var failures: [String] = []
    var truthFailures: [String] = [], truthDeclared: [String] = []
    // Read and plan the refiner once for every profile.
    var refiner: ArrowRefiner?
    var settings = RefinerSettings.shipped
    if let v = s.detector.refinerViews { settings.views = v }
    if let path = s.detector.refiner {
      do { refiner = try ArrowRefiner(contentsOf: path, settings: settings) } catch { throw PipelineError("detector refiner '\(path)': \(error)") }
    }
    for name in s.profiles {
      let profile = s.overrides.apply(to: try PlatformProfile.named(name))
      // A profile that refines reads the shipped refiner unless the scenario names one.
      var profileRefiner = refiner
      if profile.refine, profileRefiner == nil {
        guard let path = ProductPaths.model("arrow-refiner.onnx") else {
          throw PipelineError("profile \(name) refines with the shipped \(ProductPaths.expected("arrow-refiner.onnx")), which is not there")
        }
        do { profileRefiner = try ArrowRefiner(contentsOf: path, settings: settings) } catch { throw PipelineError("refiner '\(path)': \(error)") }
      }
      var req = RunRequest(image: image, profile: profile, face: face, diameterCm: resolved.diameterCm,
                           rule: s.rule, detector: try detector(s, truth: truth, profile: profile, image: image),
                           expectedArrows: s.expectedArrows ?? truth?.arrows.count ?? s.marks?.arrows.count ?? 6)
      req.precision = s.precision
      req.confirmPrecision = s.confirmPrecision
      req.arrowMM = s.arrowMM ?? 5.5
      req.spots = s.spots
      req.gestures = s.gestures.effectiveSteps
      req.viewRadius = s.gestures.viewRadius
      req.seed = s.scene.seed
      req.timestamp = s.clock
      req.refiner = profileRefiner
      req.threads = threads
      if case .none = req.detector, let e = truth?.ellipse {
        req.targetHint = FittedEllipse(cx: e.centerX, cy: e.centerY, a: e.semiMajor, b: e.semiMinor, angleDeg: e.angleDeg)
      }
      var dbPath: String?
      var store: RoundStore?
      var round: Int64?
      if let p = s.persist {
        let path = workDir + "/\(id)-\(name).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        do {
          let st = try RoundStore(path: path, upsert: p.upsert, baselineOnly: p.fromVersion36)
          if p.fromVersion36 { try st.migrate() }
          let r = try st.createRound(name: id, face: face.id, arrowsPerEnd: req.expectedArrows,
                                     ends: max(p.end, p.prior.map(\.end).max() ?? 1), createdAt: s.clock)
          for e in p.prior {
            for (i, a) in e.arrows.enumerated() {
              guard a.count == 4, let score = a[0].double, let isX = a[1].bool else {
                throw PersistenceError("prior end \(e.end) arrow \(i + 1) is not [score, is_x, x, y]")
              }
              guard face.possibleScores.contains(Int(score)), !isX || face.xScores.contains(Int(score)) else {
                throw PersistenceError("prior end \(e.end) arrow \(i + 1) scores \(Int(score))\(isX ? " X" : ""): expected one of \(face.id)'s scores (\(face.possibleScoresListed)), X only on \(face.xScores.sorted(by: >).map(String.init).joined(separator: ", "))")
              }
              try st.saveArrowScore(round: r, end: e.end, arrow: i + 1, score: Int(score), isX: isX, x: a[2].double, y: a[3].double)
            }
            if e.complete { try st.completeEnd(round: r, end: e.end) }
          }
          store = st; round = r; dbPath = path
          req.persist = PersistRequest(path: path, round: r, end: p.end, coordinates: p.coordinates ?? req.profile.coordinates, upsert: p.upsert, limit: p.crashAfter)
        } catch { throw PipelineError("scenario \(id): \(error)") }
      }
      let result = try ArcheryPipeline.run(req)
      var resume: ResumeState?
      var dump: String?
      if let st = store, let r = round, let p = s.persist {
        do {
          resume = try ResumeStage.resume(st, round: r, semantics: p.resume, rule: s.rule, diameterCm: resolved.diameterCm)
          dump = try st.dump()
        } catch { throw PipelineError("scenario \(id): \(error)") }
        _ = dbPath
      }
      failures += check(s.expect, result, resume, profile: name)
      if TruthGate.applies(s) {
        let none: (failures: [String], declared: [String]) = ([], [])
        let gate = truth.map { TruthGate.check(s, truth: $0, run: result, profile: name) }
          ?? s.marks.map { $0.check(s, run: result, profile: name, toFrame: toFrame) } ?? none
        truthFailures += gate.failures; truthDeclared += gate.declared
      }
      runs.append(ProfileRun(profile: name, result: result, resume: resume, databaseDump: dump))
    }
    if !TruthGate.applies(s), !s.expectWrong.isEmpty {
      truthFailures.append("expect_wrong is set, but the truth gate does not apply (scripted boxes, taps, gestures or no detector)")
    }
    return ScenarioOutcome(id: id, image: image, truth: truth, photo: photo,
                           marks: (s.marks?.arrows ?? []).map { let p = toFrame($0.x, $0.y); return [p.0, p.1] }, runs: runs, failures: failures,
                           truthFailures: truthFailures, truthDeclared: truthDeclared)
  }

  /// The detector source a scenario asks for. `truth` is a perfect detector:
  /// each true impact box mapped into model-input pixels, with scripted confidences.
  static func detector(_ s: ArcheryScenario, truth: GroundTruth?, profile: PlatformProfile, image: RGBA8Image) throws(PipelineError) -> DetectorSource {
    let extra = s.detector.boxes.map(\.raw)
    switch s.detector.source {
    case "none": return .none
    case "face": return .face(s.detector.points)
    case "boxes": return .boxes(extra)
    case "tensor":
      if let t = s.detector.tensor { return .tensor(values: t.values, shape: t.shape) }
      guard let path = s.detector.npy else { throw PipelineError("detector source 'tensor' needs a tensor") }
      do {
        let t = try NPY.read(path)
        return .tensor(values: t.scalars, shape: t.shape)
      } catch { throw PipelineError("detector npy '\(path)': \(error)") }
    case "model":
      guard let m = s.detector.model else { throw PipelineError("detector source 'model' needs 'model: PATH'") }
      return .model(path: m)
    default:
      guard let truth else { throw PipelineError("detector source 'truth' needs a rendered scene") }
      let mapping = profile.mapping(width: image.width, height: image.height)
      let conf = s.detector.confidences.isEmpty ? [0.9] : s.detector.confidences
      return .boxes(truthBoxes(truth.arrows, targetBox: s.detector.targetBox ? truth.targetBox : nil, mapping: mapping, confidences: conf) + extra)
    }
  }
}
