import Canvas
import Foundation
import Inference
import Obstacles
import Pipelines
@testable import Harness
import SetCards
import Testing

/// Replays Tests/FuzzCorpus (the seeds `make fuzz` starts from) through the
/// calls the fuzz targets make — Sources/FuzzPNG, FuzzONNX and FuzzScenario,
/// with their limits — so `make test` catches a crash or a hang in them without
/// a fuzzing build. The seeds are valid inputs: each must be accepted, not just
/// survive. Tests/BadInputs/png and /onnx are replayed by `BadInputTests`; its
/// yaml files go through `Verifier.render` there, so they are replayed here
/// through the three scenario decoders too (a fuzz crash saved there must stay fixed).
///
/// Lives in HarnessTests because FuzzTests does not depend on Canvas, Inference,
/// Pipeline, Obstacles or SetCards.
@Suite(.timeLimit(.minutes(1)))
struct CorpusReplayTests {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  /// The regular, non-hidden files in Tests/<folder>, sorted. A missing folder throws.
  static func files(_ folder: String) throws -> [String] {
    let dir = tests.appendingPathComponent(folder).path
    return try FileManager.default.contentsOfDirectory(atPath: dir).sorted().filter { !$0.hasPrefix(".") }
      .map { dir + "/" + $0 }
      .filter { var isDir: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &isDir) && !isDir.boolValue }
  }

  static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

  // The fuzz targets' calls (`fuzzOne` in each), minus their `try?`.

  /// FuzzPNG.
  static func decodePNG(_ bytes: [UInt8]) throws -> RGBA8Image {
    try PNG.decode(bytes, limits: ImageLimits(maxSide: 4096, maxPixels: 4096 * 4096))
  }

  /// FuzzONNX.
  static func loadONNX(_ bytes: [UInt8]) throws -> InferenceModel {
    try InferenceModel(bytes: bytes, memoryLimit: 64 << 20)
  }

  /// FuzzScenario: the text through all three decoders; the names of those that accepted it.
  /// (`try?` here: a text of one kind is meant to be refused by the other two decoders.)
  static func decodeScenario(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var accepted: [String] = []
    if (try? ArcheryScenario.decode(text, path: "fuzz.yaml")) != nil { accepted.append("archery") }
    if (try? ObstacleScenario.decode(text, path: "fuzz.yaml")) != nil { accepted.append("obstacles") }
    if (try? SetScenarioFile.decode(text, path: "fuzz.yaml")) != nil { accepted.append("setcards") }
    return accepted
  }

  @Test(arguments: ["FuzzCorpus/png", "FuzzCorpus/onnx", "FuzzCorpus/scenario", "BadInputs/yaml"])
  func corpusIsNotEmpty(folder: String) throws {
    #expect(!(try Self.files(folder)).isEmpty, "no files in Tests/\(folder): nothing would be replayed")
  }

  @Test(arguments: try files("FuzzCorpus/png"))
  func pngSeedDecodes(path: String) throws {
    let image = try Self.decodePNG(try Self.bytes(path))
    #expect(image.width > 0 && image.height > 0, "\(path)")
  }

  @Test(arguments: try files("FuzzCorpus/onnx"))
  func onnxSeedLoads(path: String) throws {
    let model = try Self.loadONNX(try Self.bytes(path))
    #expect(!model.inputs.isEmpty && !model.outputs.isEmpty, "\(path)")
  }

  /// Each seed scenario is one kind: exactly one of the three decoders takes it.
  @Test(arguments: try files("FuzzCorpus/scenario"))
  func scenarioSeedDecodesAsOneKind(path: String) throws {
    let accepted = Self.decodeScenario(try Self.bytes(path))
    #expect(accepted.count == 1, "\(path): accepted by \(accepted)")
  }

  /// Known-bad scenario files: no crash through the decoders (some fail only
  /// when rendered — a model path outside the root, an absurd size — which
  /// `BadInputTests.scenarioIsRefused` checks).
  @Test(arguments: try files("BadInputs/yaml"))
  func badScenarioDoesNotCrashTheDecoders(path: String) throws {
    _ = Self.decodeScenario(try Self.bytes(path))
  }
}
