import ArgumentParser
import Harness
import Core
import SetCards

/// `bullseye eval card-crops DIR`: the card classifier on a user's own labelled
/// crops, through the pipeline's crop preprocessing.
struct EvalCardCrops: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "card-crops",
    abstract: "Card classifier on your own labelled crops: per-attribute accuracy, all four right, confusion tables.",
    discussion: "DIR holds sub-folders named <number>-<colour>-<shape>-<fill> (1-red-diamond-empty, three-blue-squiggle-partial, ...), each with PNG, JPEG or HEIC crops of that card.\n\nExample: bullseye eval card-crops my-crops --json")
  @Argument(help: "Folder of card sub-folders, e.g. 2-red-oval-striped/IMG_0001.jpg.") var dir: String
  @Option(help: "Card classifier ONNX (default: the shipped Models/setcards-classifier.onnx).") var classifier: String?
  @Flag(help: "One canonical JSON object instead of text.") var json = false

  func run() throws {
    let e: CardCropEvaluation
    do {
      // The folder is checked before the model is read, so a bad label names the folder.
      _ = try CardCropEvaluator.labelledCrops(in: dir)
      let path = try classifier ?? ProductPaths.require("setcards-classifier.onnx")
      let model: ONNXCardClassifier
      do { model = try ONNXCardClassifier(path: path) } catch { throw CLIError(message: "--classifier '\(path)': \(firstLine(error))") }
      e = try CardCropEvaluator.run(dir: dir, classifier: model)
    } catch let e as CLIError { throw e } catch { throw CLIError(message: firstLine(error)) }
    if json {
      print(try e.json.canonicalText(), terminator: "")
    } else {
      print(e.text)
    }
  }
}

/// The first line of an error's description (every usage error is one line).
func firstLine(_ error: any Error) -> String {
  "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
}

extension EvalSetCards {
  /// `eval setcards --photos DIR`: the whole pipeline on labelled table photos.
  func runPhotos(_ dir: String) throws {
    let e: PhotoSetEvaluation
    do {
      let detector = try self.detector ?? ProductPaths.require("setcards-detector.onnx")
      let classifier = try self.classifier ?? ProductPaths.require("setcards-classifier.onnx")
      e = try PhotoSetEvaluator.run(dir: dir, detector: detector, classifier: classifier, profile: chosenProfile)
    } catch let e as CLIError { throw e } catch { throw CLIError(message: firstLine(error)) }
    if json {
      print(try e.json.canonicalText(), terminator: "")
    } else {
      print(e.text)
    }
  }
}
