import Foundation
import Imaging
import SetCards
import Core
import Inference

/// One labelled card on a table photo: the card and, when given, its box.
public struct LabelledCard: Sendable, Hashable {
  /// The card.
  public let card: Card
  /// `[x1, y1, x2, y2]` in upright photo pixels, or nil.
  public let box: Box?
}

/// How one photo went.
public struct PhotoSetOutcome: Sendable {
  /// The photo's name as `labels.json` gives it.
  public let photo: String
  /// Labelled cards, and how many a detection recalled with all four attributes right.
  public let cards: Int, recalled: Int
  /// Cards the pipeline reported.
  public let detections: Int
  /// Whether the Sets found equal the Sets among the labelled cards, as card triples.
  public let setsRight: Bool
  /// Sets among the labelled cards, and among the detected ones.
  public let trueSets: Int, foundSets: Int
}

/// The whole pipeline measured on a user's own table photos.
public struct PhotoSetEvaluation: Sendable {
  /// One per labelled photo, sorted by name.
  public let photos: [PhotoSetOutcome]
  /// Labelled cards over all photos, and how many were recalled right.
  public var cards: Int { photos.reduce(0) { $0 + $1.cards } }
  /// Labelled cards a detection recalled with all four attributes right.
  public var recalled: Int { photos.reduce(0) { $0 + $1.recalled } }
  /// `recalled / cards`.
  public var cardRecall: Double { cards > 0 ? Double(recalled) / Double(cards) : 0 }
  /// Photos whose Sets are exactly right, and their share.
  public var exactPhotos: Int { photos.filter(\.setsRight).count }
  /// `exactPhotos / photos.count`.
  public var exactShare: Double { photos.isEmpty ? 0 : Double(exactPhotos) / Double(photos.count) }
}

/// Reads `labels.json` (`{"photo.jpg": [{"card": "2-red-oval-striped", "box": [x1,y1,x2,y2]}, …]}`)
/// and runs the pipeline `run setcards` runs on each photo.
public enum PhotoSetEvaluator {
  /// The labels, sorted by photo name. Within a photo every card has a box or none does.
  public static func labels(_ text: String, path: String) throws -> [(photo: String, cards: [LabelledCard])] {
    let expected = "expected {\"photo.jpg\": [{\"card\": \"2-red-oval-striped\", \"box\": [x1, y1, x2, y2]}, ...]} (box optional)"
    let root: JSONValue
    do { root = try JSONParser.parse(text) } catch { throw CardCropError(description: "'\(path)' is not JSON (\(error)): \(expected)") }
    guard case .object(let photos) = root, !photos.isEmpty else {
      throw CardCropError(description: "'\(path)' is not a non-empty object of photos: \(expected)")
    }
    var out: [(String, [LabelledCard])] = []
    for name in photos.keys.sorted() {
      guard case .array(let items) = photos[name] else {
        throw CardCropError(description: "'\(path)': photo '\(name)' has no list of cards: \(expected)")
      }
      var cards: [LabelledCard] = []
      for (i, item) in items.enumerated() {
        let at = "'\(path)': photo '\(name)' card \(i)"
        guard case .object(let f) = item, case .string(let cardName)? = f["card"] else {
          throw CardCropError(description: "\(at) has no \"card\" name: \(expected)")
        }
        if let extra = f.keys.sorted().first(where: { $0 != "card" && $0 != "box" }) {
          throw CardCropError(description: "\(at) has unknown key '\(extra)': expected only \"card\" and \"box\"")
        }
        guard let card = CardNames.card(cardName) else {
          throw CardCropError(description: "\(at) '\(cardName)' is not a card: expected \(CardNames.expected)")
        }
        var box: Box? = nil
        if let b = f["box"], b != .null {
          let bad = CardCropError(description: "\(at) box is not [x1, y1, x2, y2] with x2 > x1, y2 > y1")
          guard case .array(let v) = b else { throw bad }
          let xyxy = v.compactMap(number)
          guard xyxy.count == 4, v.count == 4, xyxy.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), xyxy[2] > xyxy[0], xyxy[3] > xyxy[1] else { throw bad }
          box = Box(xyxy)
        }
        cards.append(LabelledCard(card: card, box: box))
      }
      let boxed = cards.filter { $0.box != nil }.count
      guard boxed == 0 || boxed == cards.count else {
        throw CardCropError(description: "'\(path)': photo '\(name)' gives boxes for \(boxed) of \(cards.count) cards: expected a box on every card or on none")
      }
      out.append((name, cards))
    }
    return out
  }

  /// A JSON number as a Double; nil for anything else.
  static func number(_ v: JSONValue) -> Double? {
    switch v {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }

  /// Reads `dir/labels.json`, checks every photo exists, then runs detector and
  /// classifier on each (upright) photo under `profile`'s rules.
  public static func run(dir: String, detector: String, classifier: String,
                         profile: SetCardProfile = .photos) throws -> PhotoSetEvaluation {
    let labelsPath = dir + "/labels.json"
    guard let text = try? String(contentsOfFile: labelsPath, encoding: .utf8) else {
      throw CardCropError(description: "'\(labelsPath)' cannot be read: expected the photos' labels.json beside them")
    }
    let labelled = try labels(text, path: labelsPath)
    for (photo, _) in labelled where !FileManager.default.fileExists(atPath: dir + "/" + photo) {
      throw CardCropError(description: "'\(dir)/\(photo)' named in labels.json does not exist")
    }
    let cls = try ONNXCardClassifier(path: classifier)
    let det = try InferenceModel(contentsOf: detector)
    var outcomes: [PhotoSetOutcome] = []
    for (photo, cards) in labelled {
      let path = dir + "/" + photo
      let image: RGBA8Image
      do { image = try ImageFile.read(path: path).upright } catch {
        throw CardCropError(description: "'\(path)' is not a readable photo (\(error)): expected PNG, JPEG or HEIC")
      }
      let boxes = try ONNXCardDetector.detections(model: det, name: detector, image: image)
      let result = try SetPipeline.run(image: image, detections: boxes, classifier: .model(cls), profile: profile)
      outcomes.append(outcome(photo: photo, labelled: cards, result: result))
    }
    return PhotoSetEvaluation(photos: outcomes)
  }

  /// Compares one photo's result with its labels: recall by box (IoU ≥ 0.5, one
  /// detection per card, best overlap first) or, without boxes, by the multiset
  /// of cards; Sets compared as sorted lists of card triples.
  static func outcome(photo: String, labelled: [LabelledCard], result: SetResult) -> PhotoSetOutcome {
    var recalled = 0
    if labelled.allSatisfy({ $0.box != nil }) && !labelled.isEmpty {
      var pairs: [(iou: Double, t: Int, d: Int)] = []
      for (t, l) in labelled.enumerated() {
        for (d, c) in result.cards.enumerated() {
          let iou = l.box.map { $0.iou(c.box) } ?? 0
          if iou >= 0.5 { pairs.append((iou, t, d)) }
        }
      }
      pairs.sort { ($1.iou, $0.t, $0.d) < ($0.iou, $1.t, $1.d) }
      var usedT = Set<Int>(), usedD = Set<Int>()
      for p in pairs where !usedT.contains(p.t) && !usedD.contains(p.d) {
        usedT.insert(p.t); usedD.insert(p.d)
        if result.cards[p.d].card == labelled[p.t].card { recalled += 1 }
      }
    } else {
      var left: [Card: Int] = [:]
      for c in result.cards { left[c.card, default: 0] += 1 }
      for l in labelled where left[l.card, default: 0] > 0 {
        left[l.card, default: 0] -= 1
        recalled += 1
      }
    }
    let truthCards = labelled.map(\.card)
    let trueSets = triples(SetFinder.bruteForce(truthCards), truthCards)
    let foundSets = triples(result.sets, result.cards.map(\.card))
    return PhotoSetOutcome(photo: photo, cards: labelled.count, recalled: recalled, detections: result.cards.count,
                           setsRight: trueSets == foundSets, trueSets: trueSets.count, foundSets: foundSets.count)
  }

  /// Each Set as its three card names sorted, the list sorted.
  static func triples(_ sets: [[Int]], _ cards: [Card]) -> [[String]] {
    sets.map { $0.map { CardNames.name(cards[$0]) }.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
  }
}

extension PhotoSetEvaluation {
  /// The report as one JSON object, photos sorted by name.
  public var json: JSONValue {
    .object([
      "photos": .int(photos.count), "cards": .int(cards), "recalled": .int(recalled), "card_recall": .double(cardRecall),
      "exact_photos": .int(exactPhotos), "exact_share": .double(exactShare),
      "per_photo": .array(photos.map {
        .object(["photo": .string($0.photo), "cards": .int($0.cards), "recalled": .int($0.recalled), "detections": .int($0.detections),
                 "sets_right": .bool($0.setsRight), "true_sets": .int($0.trueSets), "found_sets": .int($0.foundSets)])
      }),
    ])
  }

  /// The report as text: the headline, then one line per photo.
  public var text: String {
    var lines = ["\(exactPhotos)/\(photos.count) photos with exactly the true Sets (\(String(format: "%.1f", exactShare * 100)) %); cards recalled with all four attributes right \(recalled)/\(cards) (\(String(format: "%.1f", cardRecall * 100)) %)"]
    for p in photos {
      lines.append("  \(p.photo): \(p.recalled)/\(p.cards) cards, \(p.detections) detections, Sets \(p.setsRight ? "right" : "wrong") (\(p.foundSets) found, \(p.trueSets) true)")
    }
    return lines.joined(separator: "\n")
  }
}
