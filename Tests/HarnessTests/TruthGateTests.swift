import Foundation
import Testing
@testable import Harness

/// The truth gate, independent of goldens: an undeclared difference from the
/// truth fails (and is never recorded), a declared one passes and is shown,
/// and a declared one that no longer occurs is an unexpected pass.
struct TruthGateTests {
  /// A throwaway tree with one scenario: two arrows, the second with a confidence under
  /// the iOS threshold (0.40), so the app drops it and the run misses one true arrow.
  func tree(_ name: String, declare: String) throws -> VerifyOptions {
    try scratchTree("truthgate-\(name)", scenarios: ["gate.yaml": """
      id: gate
      face: 10_zone
      seed: 3
      size: 160x120
      profile: ios
      scene: {noise: 0, jpeg: 0}
      arrows: [{x: 0.1, y: 0.1}, {x: -0.3, y: 0.2}]
      detector: {source: truth, confidences: [0.9, 0.39]}
      \(declare)
      """])
  }

  /// The declarations the tree's run needs (one arrow missed, so the total),
  /// plus `extra` entries for ios.
  static func missingOne(plus extra: String...) -> String {
    (["expect_wrong:", "  ios:", #"    - {missed: 1, reason: "the second confidence is under the threshold"}"#,
      #"    - {total: true, reason: "one arrow fewer"}"#] + extra.map { "    - " + $0 }).joined(separator: "\n")
  }

  @Test func anUndeclaredDifferenceFailsAndIsNotRecorded() throws {
    var o = try tree("undeclared", declare: "")
    o.mode = .recordMissing
    let r = try Verifier.run(o) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.status == "failed")
    #expect(v.truthFailures.contains { $0.contains("1 arrows missed") }, "\(v.messages)")
    #expect(!FileManager.default.fileExists(atPath: o.goldenRoot + "/gate/result.json"), "a run failing the gate is never recorded")
    try Reports.write(r, to: o.reportDir)
    let junit = try String(contentsOfFile: o.reportDir + "/junit.xml", encoding: .utf8)
    #expect(junit.contains("type=\"truth\""))
  }

  @Test func aDeclaredDifferencePassesAndIsShown() throws {
    var o = try tree("declared", declare: Self.missingOne())
    o.mode = .recordMissing
    let r = try Verifier.run(o) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.status == "recorded", "\(v.messages)")
    #expect(v.truthDeclared.contains { $0.contains("under the threshold") })
  }

  /// An index past the truth's arrows says so, not "now scores as the truth".
  @Test func aDeclaredArrowPastTheTruthIsNamed() throws {
    let o = try tree("past-truth", declare: Self.missingOne(plus: #"{arrow: 5, reason: "no such arrow"}"#))
    let r = try Verifier.run(o) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.truthFailures.contains("truth: ios: expect_wrong names arrow 5: expected an index from 0 to 1 (2 arrows in the truth)"), "\(v.truthFailures)")
  }

  @Test func aDeclaredDifferenceThatNoLongerOccursIsAnUnexpectedPass() throws {
    let o = try tree("unexpected", declare: Self.missingOne(plus: #"{arrow: 0, reason: "declared, but it scores right"}"#))
    let r = try Verifier.run(o) { _ in }
    let v = try #require(r.verdicts.first)
    #expect(v.truthFailures.contains { $0.contains("arrow 0") && $0.contains("unexpected pass") }, "\(v.messages)")
  }
}
