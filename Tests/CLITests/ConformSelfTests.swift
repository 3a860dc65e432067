import Conformance
import Foundation
import Testing

/// `make test` runs the built-in suite against `bullseye conform testee` for
/// every value of every axis: a truthful declaration passes, and an untruthful
/// one is caught and classified as what the answers really are.
struct ConformSelfTests {
  func conform(_ args: [String]) throws -> (Int32, [String: Any]) {
    let r = try CLIRunner.run(["conform", "run", "--json"] + args)
    let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    return (r.status, obj ?? ["stderr": r.stderr])
  }

  func testee(_ semantics: String, declare: String? = nil) -> String {
    "'\(CLIRunner.binary.path)' conform testee --semantics \(semantics)" + (declare.map { " --declare \($0)" } ?? "")
  }

  /// Every (axis, value) pair of the table.
  static let pairs: [AxisValue] = AxisTable.all.flatMap { a in a.values.indices.map { AxisValue(axis: a.name, index: $0) } }

  @Test func everyAxisHasValues() {
    #expect(Self.pairs.count >= 2 * AxisTable.all.count)
  }

  @Test(arguments: pairs) func declaredTruthfullyPasses(_ p: AxisValue) throws {
    let (status, o) = try conform(["--testee", testee("\(p.axis)=\(p.value)"), "--stages", p.stage])
    #expect(status == 0, "\(p): \(o["failed"] ?? o)")
    #expect(o["failed"] as? Int == 0)
    #expect(o["errored"] as? Int == 0)
    let c = (o["classification"] as? [String: Any])?[p.axis] as? [String: Any]
    #expect(c?["observed"] as? String == p.value, "\(p) is classified as itself")
  }

  @Test(arguments: pairs) func untruthfulDeclarationIsCaughtAndClassified(_ p: AxisValue) throws {
    let (status, o) = try conform(["--testee", testee("\(p.axis)=\(p.value)", declare: "\(p.axis)=\(p.lie)"), "--stages", p.stage])
    #expect(status == 1, "computing \(p.value) while declaring \(p.lie) must fail")
    let c = (o["classification"] as? [String: Any])?[p.axis] as? [String: Any]
    #expect(c?["declared"] as? String == p.lie)
    #expect(c?["observed"] as? String == p.value, "the answers are classified as \(p.value)")
    #expect(c?["contradicted"] as? Bool == true)
  }

  @Test func aContradictionFailsEvenWhenExpectationsListEveryFailure() throws {
    let dir = try CLIRunner.scratch("conform-contradiction")
    let file = dir + "/expected.txt"
    let t = testee("nms_overlap=greater-or-equal", declare: "nms_overlap=greater")
    let fix = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "nms", "--expectations", file, "--fix"], env: ["CI": "false"])
    #expect(fix.status == 1, "the contradiction still fails the run: \(fix.stdout.suffix(300))")
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains("nms."), "--fix wrote the failures")
    let again = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "nms", "--expectations", file])
    #expect(again.status == 1)
    #expect(again.stdout.contains("the declaration is contradicted"), "\(again.stdout)")
  }
}

/// One value of one axis, and the value a lie would declare instead (the next one).
struct AxisValue: Sendable, CustomStringConvertible {
  let axis: String
  let index: Int
  var values: [String] { AxisTable.axis(axis)!.values }
  var value: String { values[index] }
  var lie: String { values[(index + 1) % values.count] }
  var stage: String { AxisTable.axis(axis)!.stage.rawValue }
  var description: String { "\(axis)=\(value)" }
}
