import ArgumentParser
import Canvas
import Core
import Foundation
import Harness
import Imaging
import Inference
import Obstacles
import Overlays
import Dataset
import SetCards
import Synth

/// `bullseye run obstacles`: BatSight's pipeline over a frame sequence.
struct RunObstaclesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "obstacles", abstract: "Run the obstacle-announcing pipeline over a scenario's frames.",
    discussion: "Example: bullseye run obstacles --scenario Scenarios/obstacles/hallway-walk.yaml --out result.json")
  @Option(help: "An obstacles scenario file (YAML).") var scenario: String
  @Option(help: "Result JSON path; - (the default) writes it to standard output.") var out: String = AtomicFile.standardOutput

  func run() throws {
    try OutputPaths.checkWritable(out, flag: "--out")
    try OutputPaths.checkDistinct(inputs: [("--scenario", scenario)], outputs: [("--out", out)])
    guard let text = try? String(contentsOfFile: scenario, encoding: .utf8) else {
      throw CLIError(message: "--scenario '\(scenario)' cannot be read: expected a readable YAML file")
    }
    do {
      let s = try ObstacleScenario.decode(text, path: scenario)
      let result = try ObstacleResult.run(s)
      try AtomicFile.write(try result.canonicalText(), to: out)
    } catch let e as ObstacleError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) }
  }

}

/// `bullseye run setcards --image PHOTO.png --out RESULT.json`: the shipped card
/// models (or `--model`/`--classifier`), or with `--truth` (a synth truth file) a
/// perfect detector and classifier.
struct RunSetCardsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setcards", abstract: "Find the Sets on a photo of a table of cards.",
    discussion: "Example: bullseye run setcards --image table.png --out sets.json")
  @Option(help: "Input photo: PNG, JPEG or HEIC (told apart by content).") var image: String
  @Option(help: "apply: turn the photo upright by its orientation first; ignore: the stored pixels as they are.")
  var orientation: OrientationSemantics = .apply
  @Option(help: "Card detector ONNX (default: the shipped Models/setcards-detector.onnx).") var model: String?
  @Option(help: "Card classifier ONNX (default: the shipped Models/setcards-classifier.onnx).") var classifier: String?
  @Option(help: "Truth JSON from `synth --kind setcards`, standing in for both models.") var truth: String?
  @Option(help: "Result JSON path; - (the default) writes it to standard output.") var out: String = AtomicFile.standardOutput
  @Option(help: "Also draw the overlay of the first Set (or of no Set) to this PNG.") var overlay: String?
  @Option(help: "How the overlay names cards: english (2 red oval striped) or seed (the seed's 2实红菱).")
  var labels: SetLabelStyle = .english
  @Option(help: "Which rules decide the cards and Sets (docs/semantics.md).")
  var profile: SetCardProfile = .photos
  @Option(parsing: .unconditional, help: "Threads the card detector runs on (default: the CPUs this process may use).")
  var threads: Int?

  func validate() throws {
    if let threads, !(1...256).contains(threads) { throw ValidationError("--threads \(threads) is out of range: expected 1...256") }
  }

  func run() throws {
    try OutputPaths.checkWritable(out, flag: "--out")
    if let overlay { try OutputPaths.checkWritable(overlay, flag: "--overlay") }
    try OutputPaths.checkDistinct(inputs: [("--image", image), ("--truth", truth), ("--model", model), ("--classifier", classifier)],
                                  outputs: [("--out", out), ("--overlay", overlay)])
    let photo: RGBA8Image
    do { photo = try orientation.pixels(of: try readPhoto(image, flag: "--image"), threads: threads ?? ProcessorCount.available) } catch let e as ImageError {
      throw CLIError(message: "--image '\(image)': \(e)")
    }
    let result = try truth.map { try Self.byTruth($0, photo: photo, profile: profile) } ?? byModels(photo)
    // The result and the overlay placed together: a failure at either leaves neither.
    do {
      var batch = OutputBatch()
      batch.add(try result.canonicalJSON(), to: out)
      if let overlay, let first = try SetOverlay.renderAll(image: photo, result: result, labels: labels).first {
        batch.add(try PNG.encode(first), to: overlay)
      }
      try batch.commit()
    } catch let e as SetCardsError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) } catch let e as CanvasError {
      throw CLIError(message: "--overlay '\(overlay ?? "")': \(e)")
    }
  }

  /// The Set pipeline with a synth truth file standing in for both models.
  static func byTruth(_ truth: String, photo: RGBA8Image, profile: SetCardProfile) throws -> SetResult {
    guard let text = try? String(contentsOfFile: truth, encoding: .utf8) else {
      throw CLIError(message: "--truth '\(truth)' cannot be read: expected the truth JSON written by synth --kind setcards")
    }
    do {
      let oracle = try TruthOracle(truthJSON: text, path: truth)
      return try SetPipeline.run(image: photo, detections: oracle.detections, classifier: oracle.classifier, profile: profile)
    } catch let e as SetCardsError { throw CLIError(e) }
  }

  /// The Set pipeline with the card models. Both are read and their interfaces
  /// checked before anything runs, so a wrong file is named as such.
  func byModels(_ photo: RGBA8Image) throws -> SetResult {
    let det = model ?? ProductPaths.model("setcards-detector.onnx") ?? ProductPaths.expected("setcards-detector.onnx")
    let cls = classifier ?? ProductPaths.model("setcards-classifier.onnx") ?? ProductPaths.expected("setcards-classifier.onnx")
    guard FileManager.default.fileExists(atPath: det), FileManager.default.fileExists(atPath: cls) else {
      throw CLIError(message: "run setcards needs the card models (\(det), \(cls)) or --truth TRUTH.json")
    }
    let detFlag = model == nil ? "the shipped card detector" : "--model"
    let clsFlag = classifier == nil ? "the shipped card classifier" : "--classifier"
    let detModel = try Self.load(det, flag: detFlag)
    do { try ONNXCardDetector.check(detModel, name: det) } catch { throw Self.refusal(error, flag: detFlag, path: det) }
    let clsLoaded = try Self.load(cls, flag: clsFlag)
    let clsModel: ONNXCardClassifier
    do { clsModel = try ONNXCardClassifier(model: clsLoaded, name: cls) } catch { throw Self.refusal(error, flag: clsFlag, path: cls) }
    do {
      let detections = try ONNXCardDetector.detections(model: detModel, name: det, image: photo, threads: threads ?? ProcessorCount.available)
      return try SetPipeline.run(image: photo, detections: detections, classifier: .model(clsModel), profile: profile)
    } catch let e as CoreError { throw CLIError(e) } catch {
      // A broken classifier is named like a broken detector (whose errors name their file).
      let line = firstLine(error)
      throw CLIError(message: line.hasPrefix("classifier output") ? "\(clsFlag) '\(cls)': \(line)" : line)
    }
  }

  /// Reads `path` as an ONNX model; a failure is one line naming `flag` and the file.
  static func load(_ path: String, flag: String) throws -> InferenceModel {
    do { return try InferenceModel(contentsOf: path) } catch {
      throw CLIError(message: "\(flag) '\(path)': \(firstLine(error))")
    }
  }

  /// A model's interface refusal (`SetCardsError.file` naming the file) as one line naming `flag`.
  static func refusal(_ error: Error, flag: String, path: String) -> CLIError {
    if case .file(_, let message) = error as? SetCardsError { return CLIError(message: "\(flag) '\(path)' \(message)") }
    return CLIError(message: "\(flag) '\(path)': \(firstLine(error))")
  }
}

extension SynthCommand {
  /// `synth --kind setcards --seed S --cards N --out PATH.png --truth PATH.json`.
  func synthSetCards() throws {
    do {
      var spec = SetTableSpec(seed: seed, size: size, cardCount: cards)
      spec.style = style?.cards
      let r = try TableSynthesizer.render(spec)
      try PNG.write(r.image, to: out ?? "")
      if let truth { try AtomicFile.write(try r.canonicalTruth(), to: truth) }
    } catch let e as SetCardsError { throw CLIError(e) } catch let e as CanvasError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) }
  }
}

extension SynthCommand {
  /// `synth --dataset DIR --kind target|setcards --count N --seed S`.
  func writeDataset(_ dir: String) throws {
    let dk = kind.dataset
    let s = size
    let set = impacts ?? .shafts, total = count ?? 100
    var spec = DatasetSpec(kind: dk, count: total, seed: seed)
    spec.width = s.width; spec.height = s.height; spec.impacts = set
    spec.impactBox = impactBox ?? .wide
    spec.touchingShare = touchingShare
    spec.cardStyle = style?.cards ?? .realism
    spec.archeryStyle = style?.archery ?? .classic
    spec.faces = faces.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) } }
    do {
      let counts = try DatasetWriter.write(spec, to: dir) { n in if n % 100 == 0 { writeLine("\(n)/\(total) images") } }
      writeLine("wrote \(counts["train"] ?? 0) train and \(counts["val"] ?? 0) val images to \(dir) (YOLO labels, data.yaml, COCO JSON)")
    } catch let e as CoreError { throw CLIError(e) } catch let e as SynthError { throw CLIError(e) } catch let e as SetCardsError { throw CLIError(e) } catch let e as CanvasError { throw CLIError(e) }
  }
}

extension SetLabelStyle: ExpressibleByArgument {}

/// `synth --style`: the Set tables' looks and the target scenes' looks under one
/// option; each kind accepts its own (`classic` both).
enum SynthStyle: String, CaseIterable, ExpressibleByArgument {
  case classic, realism, realismHoldout = "realism-holdout", realistic

  /// The Set-table look, when this is one.
  var cards: CardStyle? { CardStyle(rawValue: rawValue) }
  /// The target-scene look, when this is one.
  var archery: ArcheryStyle? { ArcheryStyle(rawValue: rawValue) }

  /// Whether `kind` draws this look.
  func applies(to kind: SynthKind) -> Bool { kind == .setcards ? cards != nil : archery != nil }
}

extension CardStyle: ExpressibleByArgument {}

/// `--profile seed|photos` of the Set-card commands; `--help` gives each value's sentence.
extension SetCardProfile: ExpressibleByArgument {
  public static var allValueDescriptions: [String: String] {
    Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.summary) })
  }
}
