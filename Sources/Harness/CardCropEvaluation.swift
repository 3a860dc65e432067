import Foundation
import Imaging
import SetCards
import Core

/// A labelled-crop folder that cannot be measured: one line naming what is wrong.
public struct CardCropError: Error, CustomStringConvertible {
  /// The line to print.
  public let description: String
}

/// One attribute's counts over the crops: `confusion[true][predicted]` in head order.
public struct AttributeConfusion: Sendable, Hashable {
  /// `number`, `colour`, `shape` or `fill`.
  public let attribute: String
  /// The English names of the three values, in head order.
  public let values: [String]
  /// 3×3 counts, rows = true value, columns = predicted value.
  public var confusion: [[Int]]
  /// Crops counted.
  public var total: Int { confusion.joined().reduce(0, +) }
  /// Crops whose value was right (the diagonal).
  public var correct: Int { (0..<3).reduce(0) { $0 + confusion[$1][$1] } }
  /// `correct / total`, 0 when empty.
  public var accuracy: Double { total > 0 ? Double(correct) / Double(total) : 0 }
}

/// The classifier measured on labelled crops.
public struct CardCropEvaluation: Sendable {
  /// Crops read.
  public let crops: Int
  /// Card folders that held at least one crop.
  public let folders: Int
  /// Crops with all four attributes right.
  public let allFourRight: Int
  /// Number, colour, shape, fill, in head order.
  public let attributes: [AttributeConfusion]
  /// Every crop not entirely right: path relative to the folder, truth, prediction; sorted by path.
  public let misses: [(file: String, truth: Card, predicted: Card)]
  /// `allFourRight / crops`.
  public var allFourAccuracy: Double { crops > 0 ? Double(allFourRight) / Double(crops) : 0 }
}

/// Runs a classifier on a folder of a user's own crops: sub-folders named by
/// card (`CardNames`), each holding PNG, JPEG or HEIC crops of that card. Every
/// crop goes through the pipeline's own crop preprocessing (`SetPipeline.classify`).
public enum CardCropEvaluator {
  /// The four attributes' names and value names, in head order.
  static let heads: [(String, [String])] = [
    ("number", CardNumber.allCases.map(\.name)), ("colour", CardColor.allCases.map(\.name)),
    ("shape", CardShape.allCases.map(\.name)), ("fill", CardFill.allCases.map(\.name)),
  ]

  /// The labelled crops under `dir`, sorted by relative path. Hidden entries and
  /// plain files directly in `dir` are skipped; a sub-folder whose name is no
  /// card, or a non-image inside one, is an error naming it.
  public static func labelledCrops(in dir: String) throws -> [(file: String, card: Card)] {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
      throw CardCropError(description: "'\(dir)' is not a folder: expected a folder of card sub-folders (\(CardNames.expected))")
    }
    let entries = try fm.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.sorted()
    var out: [(String, Card)] = []
    for folder in entries {
      let path = dir + "/" + folder
      guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
      guard let card = CardNames.card(folder) else {
        throw CardCropError(description: "folder '\(path)' is not a card name: expected \(CardNames.expected)")
      }
      for file in try fm.contentsOfDirectory(atPath: path).filter({ !$0.hasPrefix(".") }).sorted() {
        out.append((folder + "/" + file, card))
      }
    }
    return out
  }

  /// Classifies every crop under `dir` with `classifier` and counts per attribute.
  public static func run(dir: String, classifier: any CardClassifier) throws -> CardCropEvaluation {
    let crops = try labelledCrops(in: dir)
    guard !crops.isEmpty else {
      throw CardCropError(description: "no crops in '\(dir)': expected sub-folders named \(CardNames.expected) holding PNG, JPEG or HEIC crops")
    }
    var confusion = [[[Int]]](repeating: [[Int]](repeating: [0, 0, 0], count: 3), count: 4)
    var allFour = 0
    var misses: [(file: String, truth: Card, predicted: Card)] = []
    for (file, truth) in crops {
      let path = dir + "/" + file
      let image: RGBA8Image
      do { image = try ImageFile.read(path: path).upright } catch {
        throw CardCropError(description: "'\(path)' is not a readable image (\(error)): expected a PNG, JPEG or HEIC crop of \(CardNames.name(truth))")
      }
      let got = try SetPipeline.classify(crop: image, with: classifier).card
      let t = digits(truth), p = digits(got)
      for h in 0..<4 { confusion[h][t[h]][p[h]] += 1 }
      if got == truth { allFour += 1 } else { misses.append((file, truth, got)) }
    }
    let attributes = heads.enumerated().map { h, head in
      AttributeConfusion(attribute: head.0, values: head.1, confusion: confusion[h])
    }
    return CardCropEvaluation(crops: crops.count, folders: Set(crops.map(\.file).map { $0.split(separator: "/")[0] }).count,
                              allFourRight: allFour, attributes: attributes, misses: misses)
  }

  /// The card's values in head order (number, colour, shape, fill).
  static func digits(_ c: Card) -> [Int] { [c.number.rawValue, c.color.rawValue, c.shape.rawValue, c.fill.rawValue] }
}

extension CardCropEvaluation {
  /// The report as one JSON object: counts, accuracies, per-attribute confusion
  /// (`confusion[true][predicted]` keyed by value names) and the misses.
  public var json: JSONValue {
    var attrs: [String: JSONValue] = [:]
    for a in attributes {
      var rows: [String: JSONValue] = [:]
      for (t, row) in a.confusion.enumerated() {
        rows[a.values[t]] = .object(Dictionary(uniqueKeysWithValues: row.enumerated().map { (a.values[$0.offset], JSONValue.int($0.element)) }))
      }
      attrs[a.attribute] = .object([
        "accuracy": .double(a.accuracy), "correct": .int(a.correct), "total": .int(a.total),
        "values": .array(a.values.map(JSONValue.string)), "confusion": .object(rows),
      ])
    }
    return .object([
      "crops": .int(crops), "folders": .int(folders), "all_four_right": .int(allFourRight),
      "all_four_accuracy": .double(allFourAccuracy), "attributes": .object(attrs),
      "misses": .array(misses.map {
        .object(["file": .string($0.file), "truth": .string(CardNames.name($0.truth)), "predicted": .string(CardNames.name($0.predicted))])
      }),
    ])
  }

  /// The report as text: the headline, per-attribute accuracy, then one
  /// confusion table per attribute (rows true, columns predicted).
  public var text: String {
    func pct(_ v: Double) -> String { String(format: "%.1f %%", v * 100) }
    var lines = ["\(crops) crops in \(folders) card folders: all four attributes right on \(allFourRight)/\(crops) (\(pct(allFourAccuracy)))"]
    for a in attributes { lines.append("\(a.attribute.padding(toLength: 7, withPad: " ", startingAt: 0)) \(a.correct)/\(a.total) (\(pct(a.accuracy)))") }
    for a in attributes {
      lines.append("")
      lines.append("\(a.attribute): rows true, columns predicted")
      let width = max(8, (a.values.map(\.count).max() ?? 0) + 1)
      func cell(_ s: String) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
      func head(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
      lines.append(head("") + a.values.map(cell).joined())
      for (t, row) in a.confusion.enumerated() { lines.append(head(a.values[t]) + row.map { cell(String($0)) }.joined()) }
    }
    return lines.joined(separator: "\n")
  }
}
