import Core
import Foundation
import Testing
@testable import Harness

/// A tolerance whose path matches nothing loosens nothing; verify names it
/// instead of letting a mistyped path pass for a loosened check.
struct StaleToleranceTests {
  func tree(_ name: String, path: String) throws -> VerifyOptions {
    var o = try scratchTree("stale-tolerance-\(name)", scenarios: ["s.yaml": """
      id: s
      face: 10_zone
      seed: 3
      size: 160x120
      profile: ios
      scene: {noise: 0, jpeg: 0}
      arrows: [{x: 0.1, y: 0.1}]
      detector: {source: truth}
      tolerances:
        - {path: "\(path)", tolerance: close, reason: "test"}
      """])
    o.mode = .recordMissing
    return o
  }

  @Test func aPathThatMatchesNothingFailsTheScenario() throws {
    let r = try Verifier.run(try tree("typo", path: "runs.*.reslut.target.*")) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.status == "failed")
    #expect(v.messages.contains { $0.hasPrefix("tolerance 'runs.*.reslut.target.*' matches no path") }, "\(v.messages)")
  }

  @Test func aPathThatMatchesPasses() throws {
    let r = try Verifier.run(try tree("good", path: "runs.*.result.target.*")) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.status == "recorded", "\(v.messages)")
  }

  @Test func wildcardsIndicesAndKeysAreMatchedAgainstTheTree() throws {
    let tree = try JSONParser.parse(#"{"runs": {"ios": {"d": [{"x": 1}, {"y": 2}]}}}"#)
    let hits = ["runs.*.d.*.x", "runs.ios.d.1.y", "runs.*", "runs.ios.d.*"]
    let misses = ["runs.*.d.2.x", "runs.ios.d.0.y", "runs.android.*", "runs.*.d.*.x.z", "runs.ios.d.x"]
    for p in hits { #expect(PathTolerance(pattern: p, tolerance: .close, reason: "").matchesSomething(in: tree), "\(p)") }
    for p in misses { #expect(!PathTolerance(pattern: p, tolerance: .close, reason: "").matchesSomething(in: tree), "\(p)") }
  }
}
