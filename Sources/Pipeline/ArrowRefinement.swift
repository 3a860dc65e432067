import Canvas
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
  public var windowInputPx: Double
  public var crop: Int
  /// Kept points closer than this (model-input pixels) are one arrow: the more probable stays.
  public var mergeInputPx: Double
  /// Model-input side the window is measured in (the detector's).
  public var inputSize: Int

  /// What the shipped refiner was trained and chosen with.
  public static let shipped = RefinerSettings(candidateConfidence: 0.03, accept: 0.3, windowInputPx: 48, crop: 96, mergeInputPx: 3, inputSize: 640)
}

/// A loaded refiner model and its settings.
public struct ArrowRefiner: Sendable {
  /// The planned model: crop [1, 3, crop, crop] → [probability, dx, dy].
  public let model: InferenceModel
  /// Where it was read from, for errors.
  public let name: String
  /// Thresholds and window geometry it runs with.
  public var settings: RefinerSettings
  /// Reads and plans the model at `path`.
  public init(contentsOf path: String, settings: RefinerSettings = .shipped) throws {
    model = try InferenceModel(contentsOf: path)
    name = path
    self.settings = settings
  }
}

enum ArrowRefinement {
  /// Each candidate's window through the refiner: those below `accept` are
  /// dropped, the rest move by the predicted offset and take the refiner's
  /// probability as confidence; points that land together are merged.
  static func run(_ arrows: [Detection], image: RGBA8Image, refiner: ArrowRefiner) throws -> [Detection] {
    let s = refiner.settings
    guard let input = refiner.model.inputs.first, let output = refiner.model.outputs.first else {
      throw PipelineError("refiner '\(refiner.name)' has no inputs or outputs: expected one crop input and one output")
    }
    // Original pixels per model-input pixel, as the letterbox scales.
    let scale = Double(max(image.width, image.height)) / Double(s.inputSize)
    var kept: [Detection] = []
    for d in arrows {
      let cx = Double(d.centerX), cy = Double(d.centerY)
      let crop = try Preprocess.window(rgba: image.pixels, width: image.width, height: image.height, cx: cx, cy: cy,
                                       side: s.windowInputPx * scale, out: s.crop)
      let out = try refiner.model.run([input.name: crop], threads: 1)
      guard let o = out[output.name], o.scalars.count == 3 else {
        throw PipelineError("refiner '\(refiner.name)' output is not [probability, dx, dy]")
      }
      let p = Double(o.scalars[0])
      guard p >= s.accept else { continue }
      let dx = Double(o.scalars[1]) * scale, dy = Double(o.scalars[2]) * scale
      var r = d
      r.box.x += dx; r.box.y += dy
      r.centerX = Float(cx + dx); r.centerY = Float(cy + dy)
      r.confidence = p
      kept.append(r)
    }
    // Most probable first (ties: detector order), then merge.
    let order = kept.indices.sorted { kept[$0].confidence != kept[$1].confidence ? kept[$0].confidence > kept[$1].confidence : $0 < $1 }
    var merged: [Detection] = []
    let limit = s.mergeInputPx * scale
    for i in order {
      let a = kept[i]
      let near = merged.contains { m in
        let dx = Double(m.centerX - a.centerX), dy = Double(m.centerY - a.centerY)
        return (dx * dx + dy * dy).squareRoot() <= limit
      }
      if !near { merged.append(a) }
    }
    return merged
  }
}
