import Canvas
import Foundation
import Inference
import Testing
@testable import Harness

/// The bad-input corpus (Tests/BadInputs): every file must end in a clear,
/// one-line error — never a crash, never a result.
struct BadInputTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("BadInputs").path
  /// The corpus files of one kind. A missing or unreadable folder throws, which
  /// fails the parameterised test that lists it rather than leaving it no cases.
  static func files(_ kind: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root + "/" + kind).sorted().filter { !$0.hasPrefix(".") && $0 != "escape" }
  }

  /// A corpus file's bytes; an unreadable file throws (it must not be refused as if empty).
  static func bytes(_ kind: String, _ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + kind + "/" + name)))
  }

  @Test(arguments: ["png", "onnx", "yaml"])
  func corpusIsNotEmpty(kind: String) throws {
    #expect(!(try Self.files(kind)).isEmpty, "no bad inputs in \(Self.root)/\(kind)")
  }

  @Test(arguments: try files("png"))
  func pngIsRefused(name: String) throws {
    let bytes = try Self.bytes("png", name)
    #expect(throws: CanvasError.self) { try PNG.decode(bytes) }
    if name.hasPrefix("bomb") {
      #expect { try PNG.decode(bytes) } throws: { "\($0)".contains("100000") }
    }
  }

  @Test(arguments: try files("onnx"))
  func onnxIsRefused(name: String) throws {
    let bytes = try Self.bytes("onnx", name)
    #expect(throws: (any Error).self) { try InferenceModel(bytes: bytes) }
  }

  @Test(arguments: try files("yaml"))
  func scenarioIsRefused(name: String) throws {
    let out = NSTemporaryDirectory() + "bullseye-bad-\(getpid())-\(name)"
    let error = #expect(throws: (any Error).self, "\(name)") {
      try Verifier.render([Self.root + "/yaml/" + name], root: Self.root + "/yaml", out: out)
    }
    if let error {
      let message = "\(error)"
      #expect(!message.isEmpty && !message.contains("\n"), "\(name): \(message)")
      if name.contains("model") { #expect(message.contains("inside") || message.contains("outside") || message.contains(".."), "\(message)") }
    }
  }

  /// A YAML tag is refused where it stands, named, rather than half-honoured
  /// (`!!int "3"` decoded as the string "3", `!include` read as a string).
  @Test(arguments: [("tag-int.yaml", "!!int", 2), ("tag-include.yaml", "!include", 4)])
  func yamlTagsAreNamedWhereTheyStand(name: String, tag: String, line: Int) throws {
    let out = NSTemporaryDirectory() + "bullseye-tag-\(getpid())-\(name)"
    #expect { try Verifier.render([Self.root + "/yaml/" + name], root: Self.root + "/yaml", out: out) } throws: { e in
      let m = "\(e)"
      return m.contains("\(name): YAML tag '\(tag)' at \(line):") && m.contains("is not taken")
    }
  }
}

