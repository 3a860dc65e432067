import Pipelines
import Persistence

extension ScenarioRunner {
  /// Compares a run with the scenario's explicit expectations; one line per miss.
  static func check(_ e: Expectations?, _ r: RunResult, _ resume: ResumeState?, profile: String) -> [String] {
    guard let e else { return [] }
    var out: [String] = []
    func miss<T: Equatable>(_ what: String, _ want: T?, _ got: T?) {
      if let want, want != got { out.append("\(profile): expected \(what) \(want), got \(got.map { "\($0)" } ?? "nothing")") }
    }
    miss("detections", e.detections, r.detections.count)
    miss("scores", e.scores, r.detections.map(\.score.score))
    miss("x flags", e.x, r.detections.map(\.score.isX))
    miss("confirmed", e.confirmed, r.confirmed?.count)
    miss("confirmed scores", e.confirmedScores, r.confirmed?.map(\.score))
    miss("was_adjusted", e.wasAdjusted, r.confirmed?.map(\.wasAdjusted))
    miss("end total", e.endTotal, r.confirmed?.reduce(0) { $0 + $1.score })
    miss("placement mode", e.placementMode, r.adjustment.final.isPlacementMode)
    miss("extra-arrows warning", e.extraWarning, r.adjustment.final.showExtraWarning)
    miss("error state", e.error, r.error != nil)
    miss("rescore changes", e.rescoreChanges, resume?.rescoreChanges.count)
    miss("resume arrow number", e.resumeArrowNumber, resume?.currentArrowNumber)
    miss("resume end", e.resumeEnd, resume?.currentEnd)
    return out
  }
}
