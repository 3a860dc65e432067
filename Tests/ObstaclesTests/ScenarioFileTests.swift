import Foundation
import Testing
@testable import Obstacles
@testable import Harness
@testable import Synth

struct ScenarioFileTests {
  @Test func thereAreAtLeastEighteenScenarios() {
    #expect(ScenarioFiles.paths.count >= 18, "found \(ScenarioFiles.paths.count) in \(ScenarioFiles.directory)")
  }

  @Test(arguments: ScenarioFiles.paths)
  func everyScenarioDecodesRunsAndMeetsItsExpectations(path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let s = try ObstacleScenario.decode(text, path: path)
    #expect(path.hasSuffix("/\(s.id).yaml"), "id \(s.id) does not match the file name")
    let r = try ObstacleResult.run(s)
    #expect(r.frames.count == s.frames.count)
    #expect(r.expectationFailures.isEmpty, "\(s.id): \(r.expectationFailures)")
    let json = try r.canonicalText()
    #expect(json.contains("\"announcements\""))
    // Running twice gives the same bytes: no hidden clock or randomness.
    #expect(try ObstacleResult.run(s).canonicalText() == json)
  }

  @Test func everyAnnouncementHasTimeAndText() throws {
    let r = try ScenarioFiles.run("mode-bypasses-interval")
    guard case .object(let top) = r.json, case .array(let list)? = top["announcements"] else {
      Issue.record("no announcements array in \(r.json)")
      return
    }
    #expect(list.count == 4)
    for item in list {
      guard case .object(let a) = item else { Issue.record("not an object: \(item)"); continue }
      #expect(a["time_s"] != nil && a["text"] != nil && a["kind"] != nil)
    }
    #expect(r.announcements.map(\.kind) == [.object, .mode, .mode, .object])
  }
}
