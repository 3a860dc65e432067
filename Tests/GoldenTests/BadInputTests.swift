import Canvas
import Foundation
import Inference
import Testing
@testable import Golden

/// The bad-input corpus (Tests/BadInputs): every file must end in a clear,
/// one-line error — never a crash, never a result.
struct BadInputTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("BadInputs").path
  static func files(_ kind: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + kind)) ?? []).sorted().filter { !$0.hasPrefix(".") && $0 != "escape" }
  }

  @Test(arguments: files("png"))
  func pngIsRefused(name: String) throws {
    let bytes = [UInt8](FileManager.default.contents(atPath: Self.root + "/png/" + name) ?? Data())
    #expect(throws: CanvasError.self) { try PNG.decode(bytes) }
    if name.hasPrefix("bomb") {
      #expect { try PNG.decode(bytes) } throws: { "\($0)".contains("100000") }
    }
  }

  @Test(arguments: files("onnx"))
  func onnxIsRefused(name: String) throws {
    let bytes = [UInt8](FileManager.default.contents(atPath: Self.root + "/onnx/" + name) ?? Data())
    #expect(throws: (any Error).self) { try InferenceModel(bytes: bytes) }
  }

  @Test(arguments: files("yaml"))
  func scenarioIsRefused(name: String) throws {
    let out = NSTemporaryDirectory() + "bullseye-bad-\(getpid())"
    #expect(throws: (any Error).self, "\(name)") {
      try Verifier.render([Self.root + "/yaml/" + name], root: Self.root + "/yaml", out: out)
    }
    do {
      _ = try Verifier.render([Self.root + "/yaml/" + name], root: Self.root + "/yaml", out: out)
    } catch {
      let message = "\(error)"
      #expect(!message.isEmpty && !message.contains("\n"), "\(name): \(message)")
      if name.contains("model") { #expect(message.contains("inside") || message.contains("outside") || message.contains(".."), "\(message)") }
    }
  }
}
