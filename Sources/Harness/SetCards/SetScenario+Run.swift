import Core
import Imaging
import Synth
import SetCards
import Canvas

/// A scenario's run: the photo, its truth (when synthesized), the pipeline
/// result, and every unmet expectation as a sentence.
struct SetScenarioOutcome: Sendable {
  /// The scenario id.
  let id: String
  /// The photo the pipeline ran on.
  let image: RGBA8Image
  /// The synthesized table, when the scenario has one.
  let render: TableRender?
  /// The pipeline's result.
  let result: SetResult
  /// Unmet expectations; empty when the scenario passes.
  let failures: [String]
}

extension SetScenario {
  /// The anchor stride used to spread scripted boxes over a synthetic tensor.
  static let tensorStride = 97

  /// Renders the table (or a blank canvas), runs the pipeline with the scripted
  /// or oracle sources, and checks `expect`.
  func run(defaultID: String = "scenario") throws(SetCardsError) -> SetScenarioOutcome {
    let render = try table.map { spec throws(SetCardsError) in try TableSynthesizer.render(spec) }
    let image: RGBA8Image
    if let render {
      image = render.image
    } else {
      let s = size ?? ImageSize(width: 640, height: 480)
      do { image = try RGBA8Image(width: s.width, height: s.height, fill: RGBA(70, 90, 70)) } catch { throw .canvas(error) }
    }
    var scripted: [ScriptedDetection] = detections ?? []
    if let oracle, let render {
      scripted += render.cards.map { t in
        ScriptedDetection(box: t.box, confidence: oracle.detectionConfidence,
                          classification: .card(t.card, confidences: Array(repeating: oracle.classConfidence, count: 4)))
      }
    }
    let stride = viaTensor ? Self.tensorStride : 1
    var scripts: [Int: ScriptedClass] = [:]
    for (i, d) in scripted.enumerated() { scripts[i * stride] = d.classification }
    let source: DetectionSource
    if viaTensor {
      let frame = ModelFrame(imageWidth: image.width, imageHeight: image.height)
      source = .tensor(try Self.tensor(scripted, frame: frame, stride: stride), anchors: 8400, frame: frame)
    } else {
      source = .boxes(scripted.enumerated().map { CardDetection(box: $1.box, confidence: $1.confidence, source: $0) })
    }
    let result = try SetPipeline.run(image: image, detections: source, classifier: .scripted(scripts), config: config)
    let failures = check(result, render: render)
    return SetScenarioOutcome(id: id ?? defaultID, image: image, render: render, result: result, failures: failures)
  }

  /// Packs boxes into a `[1, 5, 8400]` tensor at anchors 0, stride, 2·stride, …
  static func tensor(_ boxes: [ScriptedDetection], frame: ModelFrame, stride: Int) throws(SetCardsError) -> [Float] {
    let n = 8400
    guard boxes.count * stride <= n else {
      throw .invalid(name: "scripted boxes", value: String(boxes.count), expected: "at most \(n / stride) with via_tensor")
    }
    var t = [Float](repeating: 0, count: 5 * n)
    for (i, d) in boxes.enumerated() {
      let m = frame.toModel(d.box), a = i * stride
      t[a] = Float((m.x1 + m.x2) / 2)
      t[n + a] = Float((m.y1 + m.y2) / 2)
      t[2 * n + a] = Float(m.width)
      t[3 * n + a] = Float(m.height)
      t[4 * n + a] = Float(d.confidence)
    }
    return t
  }

  func check(_ r: SetResult, render: TableRender?) -> [String] {
    guard let e = expect else { return [] }
    var out: [String] = []
    func compare<T: Equatable>(_ name: String, _ actual: T, _ expected: T?) {
      if let expected, actual != expected { out.append("\(name) is \(actual): expected \(expected)") }
    }
    compare("cards", r.cards.count, e.cards)
    compare("included", r.cards.filter(\.included).count, e.included)
    compare("sets", r.sets.count, e.sets)
    compare("set_list", r.sets, e.setList)
    compare("header", SetText.header(cardCount: r.cards.count, set: r.sets.isEmpty ? nil : 0, of: r.sets.count), e.header)
    if e.setsMatchTruth == true {
      if let render {
        let found = Self.cardTriples(r.sets, r.cards.map(\.card))
        let truth = Self.cardTriples(render.sets, render.cards.map(\.card))
        if found != truth { out.append("sets as cards are \(found): expected the truth's \(truth)") }
      } else {
        out.append("sets_match_truth needs a table: expected a 'table' section")
      }
    }
    return out
  }

  /// Sets as sorted card-digit triples, sorted: comparable across index orders.
  static func cardTriples(_ sets: [[Int]], _ cards: [Card]) -> [[String]] {
    sets.map { $0.map { cards[$0].description }.sorted() }
      .sorted { $0.lexicographicallyPrecedes($1) }
  }
}

extension ScriptedDetection {
  /// Memberwise.
  init(box: Box, confidence: Double, classification: ScriptedClass) {
    self.box = box
    self.confidence = confidence
    self.classification = classification
  }
}
