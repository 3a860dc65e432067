import Conformance
import Foundation
import XCTest

/// `make test` runs the built-in suite against `bullseye conform testee` for
/// every value of every axis: a truthful declaration passes, and an untruthful
/// one is caught and classified as what the answers really are.
final class ConformSelfTests: XCTestCase {
  func conform(_ args: [String]) throws -> (Int32, [String: Any]) {
    let r = try CLIRunner.run(["conform", "run", "--json"] + args)
    let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    return (r.status, obj ?? ["stderr": r.stderr])
  }

  func testee(_ semantics: String, declare: String? = nil) -> String {
    "'\(CLIRunner.binary.path)' conform testee --semantics \(semantics)" + (declare.map { " --declare \($0)" } ?? "")
  }

  func testEveryAxisValueDeclaredTruthfullyPasses() throws {
    for axis in AxisTable.all {
      for value in axis.values {
        let (status, o) = try conform(["--testee", testee("\(axis.name)=\(value)"), "--stages", axis.stage.rawValue])
        XCTAssertEqual(status, 0, "\(axis.name)=\(value): \(o["failed"] ?? o)")
        XCTAssertEqual(o["failed"] as? Int, 0, "\(axis.name)=\(value)")
        XCTAssertEqual(o["errored"] as? Int, 0, "\(axis.name)=\(value)")
        let c = (o["classification"] as? [String: Any])?[axis.name] as? [String: Any]
        XCTAssertEqual(c?["observed"] as? String, value, "\(axis.name)=\(value) is classified as itself")
      }
    }
  }

  func testEveryUntruthfulDeclarationIsCaughtAndClassified() throws {
    for axis in AxisTable.all {
      for (i, value) in axis.values.enumerated() {
        let lie = axis.values[(i + 1) % axis.values.count]
        let (status, o) = try conform(["--testee", testee("\(axis.name)=\(value)", declare: "\(axis.name)=\(lie)"),
                                       "--stages", axis.stage.rawValue])
        XCTAssertEqual(status, 1, "\(axis.name): computing \(value) while declaring \(lie) must fail")
        let c = (o["classification"] as? [String: Any])?[axis.name] as? [String: Any]
        XCTAssertEqual(c?["declared"] as? String, lie)
        XCTAssertEqual(c?["observed"] as? String, value, "\(axis.name): the answers are classified as \(value)")
        XCTAssertEqual(c?["contradicted"] as? Bool, true)
      }
    }
  }

  func testAContradictionFailsEvenWhenExpectationsListEveryFailure() throws {
    let dir = try CLIRunner.scratch("conform-contradiction")
    let file = dir + "/expected.txt"
    let t = testee("nms_overlap=greater-or-equal", declare: "nms_overlap=greater")
    let fix = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "nms", "--expectations", file, "--fix"])
    XCTAssertEqual(fix.status, 1, "the contradiction still fails the run: \(fix.stdout.suffix(300))")
    XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("nms."), "--fix wrote the failures")
    let again = try CLIRunner.run(["conform", "run", "--testee", t, "--stages", "nms", "--expectations", file])
    XCTAssertEqual(again.status, 1)
    XCTAssertTrue(again.stdout.contains("the declaration is contradicted"), again.stdout)
  }
}
