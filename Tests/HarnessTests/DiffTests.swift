import Canvas
import Core
import Foundation
import Testing
@testable import Harness

struct DiffTests {
  @Test func jsonTreesCompareByValueWithPathTolerances() throws {
    let golden = try JSONParser.parse(#"{"a": 1, "b": {"x": 0.1, "y": [1, 2]}, "c": "s"}"#)
    #expect(diffJSON(expected: golden, actual: try JSONParser.parse(#"{"c": "s", "b": {"y": [1, 2], "x": 0.1}, "a": 1.0}"#)).isEmpty)
    let drift = try JSONParser.parse(#"{"a": 1, "b": {"x": 0.1000000001, "y": [1, 2]}, "c": "s"}"#)
    let exact = diffJSON(expected: golden, actual: drift)
    #expect(exact.count == 1 && exact[0].path == "b.x" && exact[0].tolerance == .exact)
    let tol = [PathTolerance(pattern: "b.*", tolerance: .close, reason: "fit")]
    #expect(diffJSON(expected: golden, actual: drift, tolerances: tol).isEmpty)
    let shape = diffJSON(expected: golden, actual: try JSONParser.parse(#"{"a": 1, "b": {"x": 0.1, "y": [1]}}"#))
    #expect(shape.map(\.path).sorted() == ["b.y.count", "c"])
  }

  @Test func imagesExactThenThresholded() throws {
    let a = try RGBA8Image(width: 4, height: 3, fill: RGBA(10, 20, 30))
    var b = a
    #expect(diffImages(expected: a, actual: b, tolerance: .zero).identical)
    b[2, 1] = RGBA(10, 24, 30)
    let strict = diffImages(expected: a, actual: b, tolerance: .zero)
    #expect(strict.differing == 1 && strict.maxDelta == 4 && strict.first! == (2, 1) && strict.diffImage != nil)
    #expect(strict.diffImage![2, 1] == RGBA(255, 0, 0))
    let loose = diffImages(expected: a, actual: b, tolerance: ImageTolerance(threshold: 4, maxPixels: 0, reason: "test"))
    #expect(loose.differing == 0)
    let other = try RGBA8Image(width: 3, height: 3, fill: RGBA(0, 0, 0))
    #expect(diffImages(expected: a, actual: other, tolerance: .zero).sizeMismatch)
  }

  @Test func pathsStayInsideTheScenarioTree() throws {
    let root = NSTemporaryDirectory() + "bullseye-guard-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: root + "/sub/model.onnx", contents: Data([1]))
    try FileManager.default.createSymbolicLink(atPath: root + "/sub/escape", withDestinationPath: "/etc")
    let file = root + "/sub/s.yaml"
    #expect(try PathGuard.resolve("model.onnx", from: file, root: root) == root + "/sub/model.onnx")
    for bad in ["/etc/passwd", "../../etc/passwd", "sub/../../x", "escape/passwd"] {
      #expect(throws: GoldenError.self, "\(bad)") { try PathGuard.resolve(bad, from: file, root: root) }
    }
  }
}
