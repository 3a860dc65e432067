import Adjustment
import Imaging
import Detection
import Inference
import Persistence
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One detected arrow after the score stage (seed 000's `DetectedArrow`: Float fields).
public struct DetectedArrow: Sendable, Hashable {
  public let id: String
  public let pixelX: Float, pixelY: Float
  let normalizedX: Float, normalizedY: Float
  let distanceFromCenter: Float
  let clockPositionDeg: Float
  public let confidence: Double
  public let box: PixelBox
  public let score: ScoreResult
  /// Beyond the face by more than one ring width (reported under `OutsideImpacts.mark`).
  public var outside = false
}

/// Every stage's output of one run.
public struct RunResult: Sendable {
  public let request: RunRequest
  let candidates: Int, aboveThreshold: Int, suppressed: Int
  public let target: TargetFit?
  public let detections: [DetectedArrow]
  public let adjustment: AdjustmentOutput
  public let confirmed: [ConfirmedArrow]?
  let persisted: (round: Int64, end: Int, arrows: Int)?
  /// The recorded error of seed 000's flow (`.error(message)`), if detection failed.
  public let error: String?
  /// The photo shows no target face (the error says why): a finding about the
  /// picture, where other errors are failures of the run.
  public let noTarget: Bool
  /// The photo region the detector looked at again (`PlatformProfile.zoom`); nil: one look.
  let closerLook: PixelRegion?
}

/// The archery pipeline's entry point: detect → NMS → flip → locate → score →
/// adjust → persist, each stage a value in, a value out.
public enum ArcheryPipeline {
  public static func run(_ r: RunRequest) throws(PipelineError) -> RunResult {
    var stages = StageClock(r.stageTimes)
    let mapping = r.profile.mapping(width: r.image.width, height: r.image.height)
    var failure: String?
    var candidates: [RawBox] = []
    var model: (InferenceModel, String)?
    do { (candidates, model) = try detect(r) } catch { failure = error_(error) }
    var det = DetectionStage.run(candidates, settings: detectionSettings(r, mapping: mapping))
    var look: (region: PixelRegion, crop: RGBA8Image)?
    // A small face gets a closer look (the face found at the profile's confidence); its arrows replace the first look's.
    if let (m, name) = model, let face = det.targets.first(where: { $0.confidence >= r.profile.confidence }) {
      do {
        if let near = try closerLook(r, face: face.box, model: m, name: name) {
          det.arrows = near.arrows
          look = (near.region, near.crop)
        }
      } catch { throw PipelineError("\(error)") }
    }
    stages.mark("detect")
    if let refiner = r.refiner {
      det.targets = det.targets.filter { $0.confidence >= r.profile.confidence }
      do { det.arrows = try refine(det.arrows, r, refiner: refiner, look: look) } catch {
        throw PipelineError("\(error)")
      }
    }

    if r.refiner != nil { stages.mark("refine") }

    // Target: detected face box → hint → ring-edge refinement.
    var hint = r.targetHint
    if let t = det.targets.first {
      // The box spans the spot layout; scale it to the sheet frame (1 = unit on the face).
      let ext = r.face.layoutHalfExtent
      hint = FittedEllipse(cx: t.box.centerX, cy: t.box.centerY, a: t.box.width / 2 / ext.x, b: t.box.height / 2 / ext.y, angleDeg: 0)
    }
    let lines = r.face.lineWidth(diameterCm: r.diameterCm, lineMM: r.lineMM)
    var target: TargetFit? = failure == nil ? TargetLocator.locate(r.image, face: r.face, hint: hint, lineWidth: lines) : nil
    // Detections in face coordinates need no target: only the overlay uses it.
    var injected = false, noTarget = false
    if case .face = r.detector { injected = true }
    if let t = target, t.method == "hint", !injected {
      // No face box and no ring edges anywhere: the photo shows no target.
      failure = "no target face found in the \(r.image.width)x\(r.image.height) image"
      target = nil
      noTarget = true
    } else if let t = target, t.method == "box", t.edgePoints == 0, r.targetHint == nil, !injected {
      // The detector called something a face, but no ring edge lies around its box: the box alone
      // would be an outline nothing in the picture bears out.
      failure = "no target face found: no ring edge around the detector's face box in the \(r.image.width)x\(r.image.height) image"
      target = nil
      noTarget = true
    }
    if var t = target, !injected {
      // A fit the picture's rings do not bear out is no target: never a confident wrong ellipse.
      var agreement = TargetLocator.ringAgreement(r.image, fit: t, face: r.face)
      // A single-spot fit the rings bear out poorly (often a steep face whose two-ring perspective tipped
      // the wrong way) is fitted again to every ring edge at once; kept when the picture bears it out better.
      // One that would be no target is rescued only if its edge was an ellipse (a texture's is not), or
      // if every ring fitted at once shows beyond doubt (a big face whose first fit caught the wrong edge).
      if r.face.spots.count == 1, let a = agreement, a < TargetLocator.jointRefitBelow,
         let joint = TargetLocator.jointRefit(r.image, fit: t, face: r.face, lineWidth: lines, threads: r.threads), let b = joint.agreement, b > a,
         a >= TargetLocator.minimumRingAgreement || TargetLocator.edgeIsAnEllipse(t) || TargetLocator.jointIsAFace(joint) {
        t = joint.fit
        agreement = b
      }
      t.ringAgreement = agreement
      target = t
      // Low agreement refuses single-spot fits only: a multi-spot sheet is found by its spot blobs
      // first, and on small tilted spots (NFAA 5-spot) real sheets measure below the bound.
      if r.face.spots.count == 1, let agreement, agreement < TargetLocator.minimumRingAgreement {
        noTarget = true
        failure = "no target face found: the fitted \(r.face.id) outline's rings do not show in the picture (ring agreement \(String(format: "%.2f", agreement)), expected at least \(TargetLocator.minimumRingAgreement))"
        target = nil
      } else if r.face.spots.count == 1, agreement == nil, r.targetHint == nil,
                max(t.ellipse.a, t.ellipse.b) < TargetLocator.smallFaceShare * Double(min(r.image.width, r.image.height)),
                let small = TargetLocator.ringAgreement(r.image, fit: t, face: r.face, spacing: TargetLocator.smallFaceSpacing),
                small < TargetLocator.minimumRingAgreement {
        // Rings too close together to judge at the usual spacing, on a fit small
        // beside the picture (a face that fills a thumbnail keeps the old
        // verdict, none): read again at a third of that spacing. A fit whose rings still do not show there (a squiggle
        // on a card, which the detector may call a face too) is no target; one
        // too small even for that keeps the old verdict (none), and a
        // scenario's hint still vouches for a small face. Fitted again to every ring edge at once, a
        // small steep face's rings may show after all.
        if TargetLocator.edgeIsAnEllipse(t),
           let joint = TargetLocator.jointRefit(r.image, fit: t, face: r.face, lineWidth: lines, spacing: TargetLocator.smallFaceSpacing,
                                                threads: r.threads),
           let b = joint.agreement, b >= TargetLocator.minimumRingAgreement {
          target = joint.fit
        } else {
          noTarget = true
          failure = "no target face found: the fitted \(r.face.id) outline is small and its rings do not show at \(Int(TargetLocator.smallFaceSpacing)) px apart (ring agreement \(String(format: "%.2f", small)), expected at least \(TargetLocator.minimumRingAgreement))"
          target = nil
        }
      } else if r.face.spots.count == 1, agreement == nil, r.targetHint == nil, !TargetLocator.edgeIsAnEllipse(t) {
        // Rings too close to judge, on an edge that fits no ellipse: a face the locator made up in noise or texture.
        noTarget = true
        failure = "no target face found: the fitted \(r.face.id) outline's rings are too close together to judge and its edge lies \(String(format: "%.3f", t.medianResidual)) of the radius and \(String(format: "%.1f", t.edgeResidualPx)) px off it (median), expected at most \(TargetLocator.maximumEdgeResidual) or \(TargetLocator.maximumEdgeResidualPx) px"
        target = nil
      }
    }

    stages.mark("locate")
    if r.refiner != nil, let check = r.profile.shaftCheck {
      det.arrows = shaftChecked(det.arrows, image: r.image, target: target, face: r.face.spots.count, check: check)
      stages.mark("shafts")
    }

    var ids = ArrowIDs(style: r.profile.ids, seed: r.seed)
    var detections: [DetectedArrow] = []
    // Each detection in face coordinates, with its pixel position and box.
    var located: [(x: Double, y: Double, d: Detection?)] = []
    if case .face(let points) = r.detector {
      located = points.map { ($0[0], $0[1], nil) }
    } else if let target {
      located = det.arrows.map { d in
        let n = target.normalize(Double(d.centerX), Double(d.centerY))
        return (n.0, n.1, d)
      }
    }
    for (i, a) in located.enumerated() {
      // Scored on its own to decide whether it is on the face at all (injected face points always are).
      let far = a.d != nil && r.profile.outside != .keep && isFarOutside(x: a.x, y: a.y, r)
      if far, r.profile.outside == .drop { continue }
      // The app holds the position as Float (`DetectedArrow`); the score is computed in the
      // detection-time arithmetic, from the unrounded position when that is Double.
      let nx = Float(a.x), ny = Float(a.y)
      let spot: SpotAssignment = r.spots == .sequential ? .index(i % r.face.spots.count) : .nearest
      let s = Scorer.scoreUnchecked(ScoreRequest(face: r.face, x: a.x, y: a.y, rule: r.rule, diameterCm: r.diameterCm,
                                                 arrowMM: r.arrowMM, precision: r.precision, spot: spot))
      var clock = atan2(ny, nx) * 180 / .pi
      if clock < 0 { clock += 360 }
      let pixel = a.d.map { (Double($0.centerX), Double($0.centerY)) } ?? target.map { $0.pixel(a.x, a.y) } ?? (0, 0)
      let box = a.d?.box ?? PixelBox(x: pixel.0 - 4, y: pixel.1 - 4, width: 8, height: 8)
      detections.append(DetectedArrow(id: ids.next(), pixelX: Float(pixel.0), pixelY: Float(pixel.1), normalizedX: nx, normalizedY: ny,
                                      distanceFromCenter: (nx * nx + ny * ny).squareRoot(), clockPositionDeg: clock,
                                      confidence: a.d?.confidence ?? 1, box: box, score: s, outside: far))
    }

    stages.mark("score")

    // Adjust: EditableArrow.fromDetectedArrow widens the Floats to Double.
    let editable = detections.map {
      EditableArrow(id: $0.id, x: Double($0.normalizedX), y: Double($0.normalizedY), isManual: false, confidence: $0.confidence)
    }
    let adjuster = Adjuster(drag: r.profile.drag, viewRadius: r.viewRadius, ids: ids)
    let adj = AdjustmentStage.run(AdjustmentInput(detected: editable, expected: r.expectedArrows, gestures: r.gestures, detectionError: failure),
                                  adjuster: adjuster, face: r.face, rule: r.rule, diameterCm: r.diameterCm, arrowMM: r.arrowMM,
                                  precision: r.confirmPrecision, spot: { [spots = r.spots, n = r.face.spots.count] i in spots == .sequential ? .index(i % n) : .nearest })

    stages.mark("adjust")
    var persisted: (Int64, Int, Int)?
    if let p = r.persist, let confirmed = adj.confirmed {
      do {
        let store = try RoundStore(path: p.path, upsert: p.upsert)
        let round = try p.round.map {
          try store.ensureRound(id: $0, name: "bullseye", face: r.face.id, arrowsPerEnd: r.expectedArrows, ends: max(p.end, 1), createdAt: r.timestamp)
        } ?? store.createRound(name: "bullseye", face: r.face.id, arrowsPerEnd: r.expectedArrows, ends: max(p.end, 1), createdAt: r.timestamp)
        // Scores of one face saved into a round of another would be read on the wrong face.
        if let stored = try store.face(round: round), stored != r.face.id {
          throw PipelineError("round \(round) is scored on face \(stored), this run on \(r.face.id): expected --face \(stored), or a new round")
        }
        // An end holding more arrow numbers than its round's arrows per end could not be resumed.
        let count = min(confirmed.count, p.limit ?? Int.max)
        if let perEnd = try store.arrowsPerEnd(round: round), count > perEnd {
          throw PipelineError("end \(p.end) has \(count) confirmed arrows, more than round \(round)'s \(perEnd) per end: expected at most \(perEnd) (remove arrows with a gesture script, or give the round more arrows per end)")
        }
        for (i, a) in confirmed.enumerated() where i < (p.limit ?? Int.max) {
          let keep = p.coordinates == .keepCoordinates
          try store.saveArrowScore(round: round, end: p.end, arrow: i + 1, score: a.score, isX: a.isX,
                                   x: keep ? a.x : nil, y: keep ? a.y : nil)
        }
        persisted = (round, p.end, min(confirmed.count, p.limit ?? Int.max))
      } catch { throw PipelineError("persisting to '\(p.displayName ?? p.path)' failed: \(error)") }
      stages.mark("persist")
    }
    return RunResult(request: r, candidates: candidates.count, aboveThreshold: det.aboveThreshold, suppressed: det.suppressed,
                     target: target, detections: detections, adjustment: adj, confirmed: adj.confirmed,
                     persisted: persisted, error: failure, noTarget: noTarget, closerLook: look?.region)
  }

  static func error_(_ e: Error) -> String { String(describing: e) }

  /// Threshold and NMS for boxes mapped back through `mapping`. With a refiner
  /// the detector proposes at the refiner's lower threshold (faces keep the profile's, later).
  static func detectionSettings(_ r: RunRequest, mapping: InputMapping) -> DetectionSettings {
    DetectionSettings(confidenceThreshold: r.refiner?.settings.candidateConfidence ?? r.profile.confidence,
                      nms: r.profile.nms, iouThreshold: r.profile.iou, mapping: mapping)
  }

  /// Stage 1: candidates from the injected source or the model.
  /// Also hands back the model it ran, for the closer look.
  static func detect(_ r: RunRequest) throws -> ([RawBox], (InferenceModel, String)?) {
    switch r.detector {
    case .none, .face: return ([], nil)
    case .boxes(let b): return (b, nil)
    case .tensor(let values, let shape): return (try decodeOutput(values, shape: shape, layout: r.profile.layout), nil)
    case .model(let path):
      let model = try InferenceModel(contentsOf: path)
      return (try run(model, name: path, image: r.image, r), (model, path))
    case .loaded(let model, let name): return (try run(model, name: name, image: r.image, r), (model, name))
    }
  }

  /// The model on the profile's preprocessed photo, decoded in its layout.
  /// True when face point (`x`, `y`) lies more than one outer ring width beyond
  /// the outermost scoring ring of every spot.
  static func isFarOutside(x: Double, y: Double, _ r: RunRequest) -> Bool {
    let radii = r.face.zones.map(\.radius).sorted()
    let ring = radii.count >= 2 ? radii[radii.count - 1] - radii[radii.count - 2] : 0.1
    let outer = radii.last ?? 1
    return r.face.spots.allSatisfy { spot in
      let dx = (x - spot.x) / spot.radius, dy = (y - spot.y) / spot.radius
      return (dx * dx + dy * dy).squareRoot() > outer + ring
    }
  }

  static func run(_ model: InferenceModel, name: String, image: RGBA8Image, _ r: RunRequest) throws -> [RawBox] {
    guard let input = model.inputs.first, let output = model.outputs.first else {
      throw PipelineError("model '\(name)' has no inputs or outputs: expected one image input and one output")
    }
    let side = r.profile.inputSize
    let planes = r.profile.preprocess == "letterbox"
      ? try ModelInput.letterbox(image, side: side).planes : try ModelInput.stretch(image, side: side)
    let tensor = try Tensor(shape: [1, 3, side, side], scalars: planes)
    let out = try model.run([input.name: tensor], threads: r.threads)
    guard let o = out[output.name] else { throw PipelineError("model '\(name)' produced no '\(output.name)'") }
    return try decodeOutput(o.scalars, shape: o.shape, layout: r.profile.layout)
  }
}
