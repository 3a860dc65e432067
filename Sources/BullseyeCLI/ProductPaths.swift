import ArgumentParser
import Foundation
import Harness
import Imaging
import Inference

extension ProductPaths {
  /// The shipped `name`, or a usage error naming where it was looked for.
  static func require(_ name: String) throws -> String {
    guard let path = model(name) else { throw CLIError(message: "\(expected(name)) not found; set BULLSEYE_MODELS=DIR or give the file on the command line") }
    return path
  }
}

/// `--orientation apply|ignore` (the semantics lives in Imaging).
extension OrientationSemantics: ExpressibleByArgument {}

/// Reads a user's photo (PNG, JPEG or HEIC, by content); errors name the flag and the file.
/// What the reader noticed (an EXIF orientation outside 1...8) goes to stderr as warnings.
func readPhoto(_ path: String, flag: String) throws -> Photo {
  let photo: Photo
  do { photo = try ImageFile.read(path: path) } catch { throw CLIError(message: "\(flag) '\(path)': \(error)") }
  for note in photo.notes { FileHandle.standardError.write(Data("warning: \(flag) '\(path)': \(note)\n".utf8)) }
  return photo
}

/// Loads a detector model up front so a missing, truncated or wrong-shaped
/// file is a usage error (exit 2), not a note inside the result.
func loadDetector(_ path: String, flag: String) throws -> InferenceModel {
  let m: InferenceModel
  do { m = try InferenceModel(contentsOf: path) } catch { throw CLIError(message: "\(flag) '\(path)': \(error)") }
  guard let input = m.inputs.first, let output = m.outputs.first else {
    throw CLIError(message: "\(flag) '\(path)' has no inputs or outputs: expected one image input [1, 3, H, W] and one output")
  }
  if let shape = input.shape, shape.count != 4 || shape[1] != .value(3) {
    throw CLIError(message: "\(flag) '\(path)' takes input \(shape): expected an image [1, 3, H, W]")
  }
  if let shape = input.shape, shape.count == 4, shape.dropFirst(2).contains(where: { ($0.fixed ?? 1) < 1 }) {
    throw CLIError(message: "\(flag) '\(path)' takes input \(shape): expected an image [1, 3, H, W] with sides of 1 or more")
  }
  // Every profile feeds the detector 640 x 640 (PlatformProfile's input size); another fixed side
  // would fail inside the run with the runtime's shape message instead of this one.
  if let shape = input.shape, shape.count == 4, let h = shape[2].fixed, let w = shape[3].fixed, h != 640 || w != 640 {
    throw CLIError(message: "\(flag) '\(path)' takes input \(shape): expected [1, 3, 640, 640], the size every profile gives the detector")
  }
  if let shape = output.shape, shape.count == 3, (shape[2].fixed ?? 1) < 1 {
    throw CLIError(message: "\(flag) '\(path)' gives output \(shape): expected an arrow detector's [1, 6, anchors] with at least one anchor")
  }
  // Both layouts the apps use have six rows: box, arrow and target scores
  // (Ultralytics, two classes) or box, confidence and class id (seed 001).
  if let shape = output.shape, shape.count != 3 || (shape[1] != .value(6) && shape[1].fixed != nil) {
    throw CLIError(message: "\(flag) '\(path)' gives output \(shape): expected an arrow detector's [1, 6, anchors] (box, arrow and target scores)")
  }
  return m
}
