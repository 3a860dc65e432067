import Canvas
import Detection
import Inference

/// A pair verifier (trained with Training/pairs.py; none ships: Models/README.md,
/// "A pair verifier", measured it below the refiner's own partner channel): whether the
/// entry at the centre of a window has a touching partner, read from the shafts
/// leaving it (two for a pair, one for a single arrow) in a window twice the
/// refiner's side. With one, it decides the refiner's touching pairs instead of
/// the refiner's own partner channel: a second entry within `pairInputPx` of a
/// kept one stays only when the verifier says pair, and a lone entry it calls a
/// pair gets the partner the refiner's pair channels place beside it.
public struct PairVerifier: Sendable {
  /// The planned model: crop [1, 3, crop, crop] → `pair` [1, 1], a probability.
  public let model: InferenceModel
  /// Where it was read from, for errors.
  public let name: String
  /// Probability at which an entry counts as one of a touching pair.
  public var accept: Double
  /// Window side in model-input pixels (640 scale), and the crop side the model reads.
  public var windowInputPx: Double = 64
  public var crop: Int = 128
  /// Kept entries closer than this (model-input pixels) are one pair or one arrow
  /// read twice: the verifier decides which.
  public var pairInputPx: Double = 3

  /// The threshold used unless one is given (Models/README.md measured 0.5 and 0.8).
  public static let defaultAccept = 0.5

  /// Reads and plans the model at `path`.
  public init(contentsOf path: String, accept: Double = PairVerifier.defaultAccept) throws {
    model = try InferenceModel(contentsOf: path)
    name = path
    self.accept = accept
  }

  /// The probability that the entry at (x, y) (photo pixels) has a touching partner.
  func probability(x: Double, y: Double, image: RGBA8Image, scale: Double) throws -> Double {
    guard let input = model.inputs.first, let output = model.outputs.first else {
      throw PipelineError("pair verifier '\(name)' has no inputs or outputs: expected one crop input and one output")
    }
    let crop = try Preprocess.window(rgba: image.pixels, width: image.width, height: image.height, cx: x, cy: y,
                                     side: windowInputPx * scale, out: self.crop)
    guard let o = try model.run([input.name: crop], threads: 1)[output.name], o.scalars.count == 1 else {
      throw PipelineError("pair verifier '\(name)' output is not one probability")
    }
    return Double(o.scalars[0])
  }
}

extension ArrowRefinement {
  /// A kept entry and the touching partner the refiner's pair channels put
  /// beside it (photo pixels and probability), whatever their pair probability.
  struct Candidate {
    var detection: Detection
    var partner: (x: Double, y: Double, p: Double)?
  }

  /// Settles touching pairs with the verifier, most probable entry first: an
  /// entry called a pair keeps its nearest neighbour within `pairInputPx`, or
  /// gains its refiner partner when it has none; an entry called single absorbs
  /// its neighbours there (one arrow read twice).
  /// `pairProbability` reads the verifier at a photo point; `reach` and `mergePx`
  /// are photo pixels.
  static func settlePairs(_ entries: [Candidate], accept: Double, reach: Double, mergePx: Double,
                          pairProbability: (Double, Double) throws -> Double) throws -> [Detection] {
    func distance(_ a: Detection, _ x: Double, _ y: Double) -> Double {
      let dx = Double(a.centerX) - x, dy = Double(a.centerY) - y
      return (dx * dx + dy * dy).squareRoot()
    }
    var used = [Bool](repeating: false, count: entries.count)
    var out: [Detection] = []
    for i in entries.indices where !used[i] {
      used[i] = true
      let a = entries[i].detection
      out.append(a)
      let ax = Double(a.centerX), ay = Double(a.centerY)
      let near = entries.indices.filter { !used[$0] && distance(entries[$0].detection, ax, ay) <= reach }
        .sorted { distance(entries[$0].detection, ax, ay) < distance(entries[$1].detection, ax, ay) }
      let q = try pairProbability(ax, ay)
      if q < accept {
        for j in near { used[j] = true }
      } else if let j = near.first {
        used[j] = true
        out.append(entries[j].detection)
      } else if let p = entries[i].partner, distance(a, p.x, p.y) > mergePx {
        var b = a
        b.box.x += p.x - ax; b.box.y += p.y - ay
        b.centerX = Float(p.x); b.centerY = Float(p.y)
        b.confidence = min(a.confidence, q)
        out.append(b)
      }
    }
    return out
  }
}
