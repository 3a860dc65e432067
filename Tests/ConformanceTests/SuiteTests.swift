import Conformance
import Core
import Testing

/// The built-in suite: sizes the contract promises, and answers that come from the library.
struct SuiteTests {
  @Test func everyStageHasEnoughCases() throws {
    let suite = try VectorSuite.builtIn()
    var counts: [Stage: Int] = [:]
    for v in suite.vectors { counts[v.stage, default: 0] += 1 }
    #expect(counts[.score] ?? 0 >= 2000)
    for stage in Stage.allCases where stage != .score {
      #expect(counts[stage] ?? 0 >= 200, "\(stage)")
    }
    #expect(Set(suite.vectors.map(\.id)).count == suite.vectors.count, "ids are unique")
  }
}
