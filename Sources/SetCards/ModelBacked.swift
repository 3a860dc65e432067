import Imaging
import Core
import Inference

/// The card classifier run by Bullseye's CPU backend: a 1×3×224×224
/// ImageNet-normalised crop in, 12 logits out (number, colour, shape, fill).
public struct ONNXCardClassifier: CardClassifier {
  let model: InferenceModel
  let input: String, output: String

  /// Loads the model and checks its interface.
  public init(path: String) throws {
    try self.init(model: try InferenceModel(contentsOf: path), name: path)
  }

  /// A loaded model; its declared interface must be a crop [1, 3, 224, 224] in and 12 logits out.
  public init(model: InferenceModel, name: String) throws {
    self.model = model
    guard let i = model.inputs.first, let o = model.outputs.first else {
      throw SetCardsError.file(location: name, message: "the classifier has no input or output")
    }
    if let shape = i.shape, !Self.fits(shape, [1, 3, 224, 224]) {
      throw SetCardsError.file(location: name, message: "takes input '\(i.name)' \(shape): expected a card crop [1, 3, 224, 224]")
    }
    if let shape = o.shape, shape.reduce(1, { $0 * ($1.fixed ?? 1) }) != 12, shape.allSatisfy({ $0.fixed != nil }) {
      throw SetCardsError.file(location: name, message: "gives output '\(o.name)' \(shape): expected 12 logits [1, 12]")
    }
    input = i.name; output = o.name
  }

  /// True when every fixed dimension of `shape` equals `want`'s (symbolic ones fit anything).
  static func fits(_ shape: [Dimension], _ want: [Int]) -> Bool {
    shape.count == want.count && zip(shape, want).allSatisfy { $0.fixed == nil || $0.fixed == $1 }
  }

  public func logits(_ crop: [Float]) throws -> [Float] {
    let out = try model.run([input: try Tensor(shape: [1, 3, 224, 224], scalars: crop)], threads: 1)
    guard let t = out[output], t.scalars.count == 12 else {
      throw SetCardsError.file(location: "classifier", message: "expected 12 logits from '\(output)'")
    }
    return t.scalars
  }
}

/// The card detector run by the CPU backend: letterboxed 640 input, output
/// [1, 5, 8400] decoded by `Detect`.
public enum ONNXCardDetector {
  /// Runs the detector on `image` and returns the pipeline's detection source.
  public static func detections(path: String, image: RGBA8Image, threads: Int = ProcessorCount.available) throws -> DetectionSource {
    try detections(model: try InferenceModel(contentsOf: path), name: path, image: image, threads: threads)
  }

  /// The same with a loaded model (read and planned once for many boards).
  public static func detections(model: InferenceModel, name: String, image: RGBA8Image, threads: Int = ProcessorCount.available) throws -> DetectionSource {
    let path = name
    try check(model, name: name)
    guard let i = model.inputs.first, let o = model.outputs.first else {
      throw SetCardsError.file(location: path, message: "the detector has no input or output")
    }
    let frame = ModelFrame(imageWidth: image.width, imageHeight: image.height)
    let x = try CardPreprocess.detectorInput(image, frame: frame)
    let out = try model.run([i.name: try Tensor(shape: [1, 3, frame.inputSize, frame.inputSize], scalars: x)], threads: threads)
    guard let t = out[o.name], t.shape.count == 3, t.shape[1] == 5 else {
      throw SetCardsError.file(location: path, message: "expected a [1, 5, anchors] output from '\(o.name)'")
    }
    // A broken model (NaN weights) answers NaN, which would read as "0 cards" and pass.
    let anchors = t.shape[2]
    if let bad = t.scalars.firstIndex(where: { !$0.isFinite || abs($0) > 1e6 }) {
      throw SetCardsError.file(location: path, message: "gives \(t.scalars[bad]) in '\(o.name)' (row \(bad / max(1, anchors)), anchor \(bad % max(1, anchors))): expected finite boxes within ±1e6 input pixels and scores")
    }
    if let bad = t.scalars[(4 * anchors)...].firstIndex(where: { !(0...1).contains($0) }) {
      throw SetCardsError.file(location: path, message: "gives card score \(t.scalars[bad]) at anchor \(bad - 4 * anchors): expected scores in 0...1")
    }
    return .tensor(t.scalars, anchors: t.shape[2], frame: frame)
  }

  /// Checks the declared interface: an image [1, 3, 640, 640] in, [1, 5, anchors] out.
  public static func check(_ model: InferenceModel, name: String) throws {
    guard let i = model.inputs.first, let o = model.outputs.first else {
      throw SetCardsError.file(location: name, message: "the detector has no input or output")
    }
    let side = ModelFrame(imageWidth: 1, imageHeight: 1).inputSize
    if let shape = i.shape, !ONNXCardClassifier.fits(shape, [1, 3, side, side]) {
      throw SetCardsError.file(location: name, message: "takes input '\(i.name)' \(shape): expected an image [1, 3, \(side), \(side)]")
    }
    if let shape = o.shape, shape.count != 3 || (shape[1].fixed ?? 5) != 5 {
      throw SetCardsError.file(location: name, message: "gives output '\(o.name)' \(shape): expected a card detector's [1, 5, anchors]")
    }
  }
}
