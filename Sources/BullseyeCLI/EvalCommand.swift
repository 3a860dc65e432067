import ArgumentParser
import Core
import SetCards

/// `bullseye eval`: quality of the shipped models on held-out synthesized scenes.
struct EvalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "eval", abstract: "Measure the shipped models on held-out synthesized scenes.",
                                                  subcommands: [EvalSetCards.self])
}

struct EvalSetCards: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "setcards", abstract: "Share of boards whose Sets equal the truth, with card recall and attribute accuracy.")
  @Option(parsing: .unconditional) var boards: Int = 100
  @Option(parsing: .unconditional) var cards: Int = 12
  @Option(help: "First board seed (held out: training used other seeds).") var seed: UInt64 = 9_000_000
  @Option var detector: String = "Models/setcards-detector.onnx"
  @Option var classifier: String = "Models/setcards-classifier.onnx"
  @Flag var json = false

  func run() throws {
    guard (1...10_000).contains(boards), (3...21).contains(cards) else { throw CLIError(message: "--boards 1...10000 and --cards 3...21 expected") }
    let clock = ContinuousClock(), start = clock.now
    let e: BoardEvaluation
    do {
      e = try BoardEvaluator.run(boards: boards, cards: cards, seed: seed, detector: detector, classifier: classifier) {
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
      }
    } catch { throw CLIError(message: "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)") }
    if json {
      print(try JSONValue.object([
        "boards": .int(e.boards), "exact_boards": .int(e.exactBoards), "board_accuracy": .double(e.boardAccuracy),
        "card_recall": .double(Double(e.cardsFound) / Double(max(1, e.cardsTotal))),
        "attribute_accuracy": .double(Double(e.cardsCorrect) / Double(max(1, e.cardsFound))), "median_ms": .double(e.medianMS),
      ]).canonicalText(), terminator: "")
    } else {
      print("\(e.exactBoards)/\(e.boards) boards with exactly the true Sets (\(String(format: "%.1f", e.boardAccuracy * 100)) %); cards found \(e.cardsFound)/\(e.cardsTotal); all four attributes right on \(e.cardsCorrect)/\(e.cardsFound); median \(String(format: "%.0f", e.medianMS)) ms per board")
    }
  }
}
