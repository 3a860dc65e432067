import Imaging
import Synth
import SetCards
import Canvas
import Core
import Inference

/// How well the shipped models find the Sets on held-out boards.
public struct BoardEvaluation: Sendable {
  public let boards: Int
  /// Boards whose set of Sets equals the truth exactly.
  public let exactBoards: Int
  /// True cards matched by a detection (IoU ≥ 0.5).
  public let cardsFound: Int, cardsTotal: Int
  /// Matched cards whose four attributes are all right.
  public let cardsCorrect: Int
  public let medianMS: Double
  /// Seeds of the boards whose Sets differ from the truth (to reproduce them).
  public let failedSeeds: [UInt64]
  public var boardAccuracy: Double { boards > 0 ? Double(exactBoards) / Double(boards) : 0 }
}

/// Synthesizes boards with seeds `seed ..< seed + boards` (never used in
/// training), runs the model-backed pipeline and compares Sets with the truth
/// — as sets of true cards, matched by box overlap, since detection order differs.
public enum BoardEvaluator {
  /// `style` picks the boards' look (classic: the synthesizer's first look, the figures Models/README.md started
  /// from); `profile` the rules (the seed's by default, as the reported figures).
  public static func run(boards: Int, cards: Int, seed: UInt64, detector: String, classifier: String,
                         style: CardStyle = .classic, profile: SetCardProfile = .seed, clock: () -> Double) throws -> BoardEvaluation {
    let cls = try ONNXCardClassifier(path: classifier)
    let det = try InferenceModel(contentsOf: detector)
    var exact = 0, found = 0, total = 0, correct = 0
    var times: [Double] = []
    var failed: [UInt64] = []
    for b in 0..<boards {
      var spec = SetTableSpec(seed: seed + UInt64(b), size: ImageSize(width: 960, height: 720), cardCount: cards)
      spec.style = style
      let render = try TableSynthesizer.render(spec)
      let t0 = clock()
      let boxes = try ONNXCardDetector.detections(model: det, name: detector, image: render.image)
      let result = try SetPipeline.run(image: render.image, detections: boxes, classifier: .model(cls), profile: profile)
      times.append((clock() - t0) * 1000)
            // One detection per true card, best overlap first, so a card boxed twice counts once.
      var pairs: [(det: Int, card: Int, iou: Double)] = []
      for (i, c) in result.cards.enumerated() {
        for (j, t) in render.cards.enumerated() where t.box.iou(c.box) >= 0.5 { pairs.append((i, j, t.box.iou(c.box))) }
      }
      pairs.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.det, $0.card) < ($1.det, $1.card) }
      var truthOf: [Int: Int] = [:]
      var taken = Set<Int>()
      for p in pairs where truthOf[p.det] == nil && !taken.contains(p.card) {
        truthOf[p.det] = p.card
        taken.insert(p.card)
      }
      let matched = Set(truthOf.values)
      total += render.cards.count
      found += matched.count
      correct += truthOf.filter { result.cards[$0.key].card == render.cards[$0.value].card }.count
      let detectedSets = Set(result.sets.compactMap { s -> [Int]? in
        let m = s.compactMap { truthOf[$0] }
        return m.count == 3 ? m.sorted() : nil
      })
      if detectedSets == Set(render.sets.map { $0.sorted() }) && detectedSets.count == result.sets.count {
        exact += 1
      } else {
        failed.append(seed + UInt64(b))
      }
    }
    times.sort()
    return BoardEvaluation(boards: boards, exactBoards: exact, cardsFound: found, cardsTotal: total, cardsCorrect: correct,
                           medianMS: times.isEmpty ? 0 : times[times.count / 2], failedSeeds: failed)
  }
}
