import Dispatch
import Foundation
import Imaging
import Detection
import Inference

/// The numbers of the second look (`Models/arrow-refiner.onnx`, see
/// Training/refiner.py): the detector proposes at a low score, the refiner
/// keeps the real entries and moves each onto its entry point.
public struct RefinerSettings: Sendable, Hashable {
  /// Detector score a candidate needs to be looked at again.
  public var candidateConfidence: Double
  /// Refiner probability a candidate needs to be kept.
  public var accept: Double
  /// Window side in model-input pixels (640 scale), and the crop side the refiner reads.
  var windowInputPx: Double
  var crop: Int
  /// Kept points closer than this (model-input pixels) are one arrow: the more probable stays.
  public var mergeInputPx: Double
  /// Two kept points from different windows closer than this (model-input pixels)
  /// are one arrow read twice when each window saw the other's point (within
  /// `trustInputPx` of its centre) and kept nothing there: a touching pair is
  /// believed only from a window that shows both. 0: off.
  public var doubleInputPx: Double = 0
  /// A peak refiner's cells farther than this from the window centre (model-input
  /// pixels, either axis) are not read: a window's edge has too little context.
  public var trustInputPx: Double = 12
  /// A pair refiner's partner probability an entry's touching partner needs to be
  /// reported (above 1: never).
  public var pairAccept: Double = 2
  /// With a gate (a `window` output): the window-level probability a candidate
  /// needs before its peaks are read.
  public var gateAccept: Double = 0.3
  /// How many of a square window's eight symmetric views a peak refiner reads
  /// where it found one entry and no partner; their offsets are averaged (1: the
  /// window alone).
  public var views: Int = 1
  /// Model-input side the window is measured in (the detector's).
  var inputSize: Int

  /// What the shipped refiner (a gated pair refiner) was trained and chosen with
  /// (chosen on the selection photos, seeds 7100000…: Training/experiments/README.md).
  public static let shipped = RefinerSettings(candidateConfidence: 0.03, accept: 0.35, windowInputPx: 48, crop: 96, mergeInputPx: 1,
                                              trustInputPx: 12, pairAccept: 0.6, gateAccept: 0.2, views: 4, inputSize: 640)
}

/// A loaded refiner model and its settings.
public struct ArrowRefiner: Sendable {
  /// The planned model: crop [1, 3, crop, crop] → `refined`, either one answer
  /// [probability, dx, dy] or a peak map [1, 3 or 6, H, W]; a peak refiner may
  /// also give `window` ([probability, dx, dy] of a one-answer refiner beside
  /// it), the gate: a window below `gateAccept` yields no peaks.
  let model: InferenceModel
  /// Where it was read from, for errors.
  let name: String
  /// Thresholds and window geometry it runs with.
  var settings: RefinerSettings
  /// More copies of the model, one per thread that looks at windows (a plan
  /// runs one window at a time).
  let replicas: ModelReplicas
  /// Reads and plans the model at `path`.
  public init(contentsOf path: String, settings: RefinerSettings = .shipped) throws {
    model = try InferenceModel(contentsOf: path)
    name = path
    self.settings = settings
    // The interface is checked here, once, so a detector or classifier given as a
    // refiner is refused before any photo is read instead of inside the run.
    guard let input = model.inputs.first, !model.outputs.isEmpty else {
      throw PipelineError("has no inputs or outputs: expected one crop input [1, 3, \(settings.crop), \(settings.crop)] and one output")
    }
    if let shape = input.shape {
      let want: [Inference.Dimension] = [.value(1), .value(3), .value(settings.crop), .value(settings.crop)]
      let fits = shape.count == 4 && zip(shape, want).allSatisfy { $0.fixed == nil || $0 == $1 }
      guard fits else {
        throw PipelineError("takes input '\(input.name)' \(shape): expected a crop [1, 3, \(settings.crop), \(settings.crop)]")
      }
    }
    replicas = ModelReplicas(first: model)
  }
}

/// Replicas of one model, made on first use: replica k serves worker k.
final class ModelReplicas: @unchecked Sendable {
  private var models: [InferenceModel]
  private let lock = NSLock()

  init(first: InferenceModel) { models = [first] }

  /// Replica `k` (0 is the model itself).
  func model(_ k: Int) -> InferenceModel {
    lock.lock()
    defer { lock.unlock() }
    while models.count <= k { models.append(models[0].replica()) }
    return models[k]
  }
}

enum ArrowRefinement {
  /// Each candidate's window through the refiner. A one-answer refiner
  /// ([probability, dx, dy]) keeps the candidate if probable enough and moves it;
  /// a peak refiner ([1, 3 or 6, H, W] over the whole window, see `peaks`) turns it into every entry its
  /// window shows. Kept points take the refiner's probability as confidence;
  /// points that land together are merged.
  ///
  /// `fallback` (a gated refiner only): a candidate scored at least `confidence` whose window's gate
  /// reaches `gate` but whose map shows no entry keeps the gate's point, at the gate's probability.
  static func run(_ arrows: [Detection], image: RGBA8Image, refiner: ArrowRefiner, threads: Int = 1,
                  fallback: (gate: Double, confidence: Double)? = nil) throws -> [Detection] {
    let s = refiner.settings
    guard let input = refiner.model.inputs.first, let output = refiner.model.outputs.first(where: { $0.name == "refined" }) ?? refiner.model.outputs.first else {
      throw PipelineError("refiner '\(refiner.name)' has no inputs or outputs: expected one crop input and one output")
    }
    let gate = refiner.model.outputs.first { $0.name == "window" && $0.name != output.name }
    // Original pixels per model-input pixel, as the letterbox scales.
    let scale = Double(max(image.width, image.height)) / Double(s.inputSize)
    // Each window is looked at on its own (one thread each); workers take every
    // T-th window and the answers are read back in the detector's order, so the
    // result is the same at any thread count.
    let workers = max(1, min(threads, arrows.count))
    let answers = WindowAnswers(count: arrows.count)
    DispatchQueue.concurrentPerform(iterations: workers) { k in
      do {
        let model = refiner.replicas.model(k)
        for i in stride(from: k, to: arrows.count, by: workers) {
          let d = arrows[i]
          let crop = try Tensor(shape: [1, 3, s.crop, s.crop], scalars:
                            try ModelInput.window(image, cx: Double(d.centerX), cy: Double(d.centerY), side: s.windowInputPx * scale, out: s.crop))
          var found: [Peak] = []
          if let (o, window) = try look(at: crop, model: model, refiner: refiner, input: input.name, output: output.name, gate: gate?.name) {
            found = try entries(o, settings: s, refiner: refiner.name)
            if found.isEmpty, let f = fallback, let window, window.p >= f.gate, Double(d.confidence) >= f.confidence {
              // The map is what misses real arrows on hard pictures; a box the detector alone
              // would report and the gate believes is not thrown away for its silence.
              answers.set(i, [window])
              continue
            }
            // Only a window with one entry and no partner is read again: where two
            // entries touch, other views may point a cell at the other one.
            if s.views > 1, found.count == 1 {
              let averaged = try averagingOffsets(o, crop: crop, views: s.views, accept: s.accept) { shown in
                guard let m = try model.run([input.name: shown], threads: 1)[output.name] else {
                  throw PipelineError("refiner '\(refiner.name)' gave no '\(output.name)'")
                }
                return m
              }
              found = try entries(averaged, settings: s, refiner: refiner.name)
            }
          }
          answers.set(i, found)
        }
      } catch { answers.fail(error) }
    }
    if let e = answers.error { throw e }
    var kept: [Detection] = [], window: [Int] = []
    for (i, d) in arrows.enumerated() {
      let cx = Double(d.centerX), cy = Double(d.centerY)
      for f in answers.found[i] {
        let dx = f.x * scale, dy = f.y * scale
        var r = d
        r.box.x += dx; r.box.y += dy
        r.centerX = Float(cx + dx); r.centerY = Float(cy + dy)
        r.confidence = f.p
        kept.append(r)
        window.append(i)
      }
    }
    return merge(kept, windows: window, centres: arrows, scale: scale, settings: s)
  }

  /// Most probable first (ties: detector order), each point dropped when it lies
  /// within `mergeInputPx` of one already kept, or is the same entry another
  /// window read (`doubleInputPx`). `windows[k]` is the index in `centres` of the
  /// window point k came from; `scale` is photo pixels per model-input pixel.
  static func merge(_ kept: [Detection], windows: [Int], centres: [Detection], scale: Double, settings s: RefinerSettings) -> [Detection] {
    let order = kept.indices.sorted { kept[$0].confidence != kept[$1].confidence ? kept[$0].confidence > kept[$1].confidence : $0 < $1 }
    func distance(_ a: Detection, _ x: Float, _ y: Float) -> Double {
      let dx = Double(a.centerX - x), dy = Double(a.centerY - y)
      return (dx * dx + dy * dy).squareRoot()
    }
    // Whether window w saw (x, y) and kept no point within the merge radius of it.
    func sawNothing(_ w: Int, at p: Detection) -> Bool {
      let c = centres[w], trust = s.trustInputPx * scale
      guard abs(Double(p.centerX - c.centerX)) <= trust, abs(Double(p.centerY - c.centerY)) <= trust else { return false }
      return !kept.indices.contains { windows[$0] == w && distance(kept[$0], p.centerX, p.centerY) <= s.mergeInputPx * scale }
    }
    var merged: [Int] = []
    for i in order {
      let a = kept[i]
      let near = merged.contains { m in
        let d = distance(kept[m], a.centerX, a.centerY)
        if d <= s.mergeInputPx * scale { return true }
        guard d <= s.doubleInputPx * scale, windows[m] != windows[i] else { return false }
        return sawNothing(windows[m], at: a) && sawNothing(windows[i], at: kept[m])
      }
      if !near { merged.append(i) }
    }
    return merged.map { kept[$0] }
  }

  /// The entries one window's answer gives: a one-answer refiner's point when
  /// probable enough, else every peak of its map (see `peaks`).
  static func entries(_ o: Tensor, settings s: RefinerSettings, refiner name: String) throws -> [Peak] {
    if o.scalars.count == 3 {
      return Double(o.scalars[0]) >= s.accept ? [Peak(x: Double(o.scalars[1]), y: Double(o.scalars[2]), p: Double(o.scalars[0]))] : []
    }
    guard o.shape.count == 4, o.shape[0] == 1, o.shape[1] == 3 || o.shape[1] == 6 else {
      throw PipelineError("refiner '\(name)' output has shape \(o.shape): expected [probability, dx, dy] or [1, 3 or 6, H, W]")
    }
    // the map covers the whole window: its cells are the window's side over its width
    return peaks(o.scalars, channels: o.shape[1], height: o.shape[2], width: o.shape[3], cell: s.windowInputPx / Double(o.shape[3]),
                 accept: s.accept, trust: s.trustInputPx, pairAccept: s.pairAccept)
  }

  /// The refiner's output for one window and, with a gate, the gate's own point;
  /// nil when the gate turns the window down.
  static func look(at crop: Tensor, model: InferenceModel, refiner: ArrowRefiner, input: String, output: String,
                   gate: String?) throws -> (Tensor, window: Peak?)? {
    let out = try model.run([input: crop], threads: 1)
    var window: Peak?
    if let gate {
      guard let w = out[gate], w.scalars.count == 3 else {
        throw PipelineError("refiner '\(refiner.name)' output 'window' is not [probability, dx, dy]")
      }
      guard (0...1).contains(w.scalars[0]), w.scalars[1...].allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) else {
        throw PipelineError("refiner '\(refiner.name)' output 'window' is \(w.scalars): expected a probability in 0...1 and finite offsets")
      }
      guard Double(w.scalars[0]) >= refiner.settings.gateAccept else { return nil }
      window = Peak(x: Double(w.scalars[1]), y: Double(w.scalars[2]), p: Double(w.scalars[0]))
    }
    guard let o = out[output] else { throw PipelineError("refiner '\(refiner.name)' gave no '\(output)'") }
    try checkAnswer(o, name: refiner.name, output: output)
    return (o, window)
  }

  /// A broken refiner (NaN weights) answers NaN, which no threshold passes: every arrow
  /// would vanish without a word. Probabilities lie in 0...1 and offsets are finite.
  static func checkAnswer(_ o: Tensor, name: String, output: String) throws {
    let v = o.scalars
    let plane = o.shape.count == 4 ? o.shape[2] * o.shape[3] : 1
    let probabilities: [Int] = o.shape.count == 4 ? (o.shape[1] == 6 ? [0, 3] : [0]) : [0]
    if let bad = v.firstIndex(where: { !$0.isFinite || abs($0) > 1e6 }) {
      throw PipelineError("refiner '\(name)' output '\(output)' holds \(v[bad]) at \(bad): expected finite probabilities and offsets")
    }
    for c in probabilities {
      let range = (c * plane)..<min(v.count, (c + 1) * plane)
      if let bad = v[range].firstIndex(where: { !(0...1).contains($0) }) {
        throw PipelineError("refiner '\(name)' output '\(output)' holds probability \(v[bad]) at \(bad): expected 0...1")
      }
    }
  }
}

/// The entries each window gave, written by the worker that looked at it.
final class WindowAnswers: @unchecked Sendable {
  private(set) var found: [[ArrowRefinement.Peak]]
  private(set) var error: Error?
  private let lock = NSLock()

  init(count: Int) { found = Array(repeating: [], count: count) }

  func set(_ i: Int, _ entries: [ArrowRefinement.Peak]) {
    lock.lock(); defer { lock.unlock() }
    found[i] = entries
  }

  func fail(_ e: Error) {
    lock.lock(); defer { lock.unlock() }
    if error == nil { error = e }
  }
}
