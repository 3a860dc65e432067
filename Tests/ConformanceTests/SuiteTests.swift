import Conformance
import Core
import XCTest

/// The built-in suite: sizes the contract promises, and answers that come from the library.
final class SuiteTests: XCTestCase {
  func testEveryStageHasEnoughCases() throws {
    let suite = try VectorSuite.builtIn()
    var counts: [Stage: Int] = [:]
    for v in suite.vectors { counts[v.stage, default: 0] += 1 }
    XCTAssertGreaterThanOrEqual(counts[.score] ?? 0, 2000)
    for stage in Stage.allCases where stage != .score {
      XCTAssertGreaterThanOrEqual(counts[stage] ?? 0, 200, "\(stage)")
    }
    XCTAssertEqual(Set(suite.vectors.map(\.id)).count, suite.vectors.count, "ids are unique")
  }
}
