import Scoring

/// Input of the adjustment stage: detected markers, the expected count, and a
/// gesture script.
public struct AdjustmentInput: Sendable {
  var detected: [EditableArrow]
  var expected: Int
  var gestures: [Gesture]
  /// Start on the error screen (detection failed) with this message.
  var detectionError: String?
  public init(detected: [EditableArrow], expected: Int, gestures: [Gesture], detectionError: String? = nil) {
    self.detected = detected; self.expected = expected; self.gestures = gestures; self.detectionError = detectionError
  }
}

/// Output of the adjustment stage.
public struct AdjustmentOutput: Sendable {
  public let events: [GestureEvent]
  public let final: AdjustmentState
  /// Set when the script confirmed.
  public let confirmed: [ConfirmedArrow]?
  /// Each dragged arrow's path (normalized positions), keyed by arrow id, in drag order.
  public let dragPaths: [(id: String, points: [Double2])]
}

/// The Adjustment stage's entry point.
public enum AdjustmentStage {
  /// Replays the script against the state machine and confirms if asked.
  public static func run(_ input: AdjustmentInput, adjuster: Adjuster, face: Face, rule: BoundaryRule,
                         diameterCm: Double, arrowMM: Double, precision: Precision = .double,
                         spot: (Int) -> SpotAssignment = { _ in .nearest }) -> AdjustmentOutput {
    var adj = adjuster
    var s = adj.start(detected: input.detected, expected: input.expected)
    if let m = input.detectionError { s.arrows = []; s.original = [:]; s.phase = .error(m) }
    var events: [GestureEvent] = []
    var paths: [(id: String, points: [Double2])] = []
    var confirmed: [ConfirmedArrow]?
    for (i, g) in input.gestures.enumerated() {
      let before = s.arrows
      let outcome = adj.apply(g, to: &s)
      var pos: Double2?
      if case .dragChanged(let a, _) = g, outcome == "applied", s.arrows.indices.contains(a) {
        let arrow = s.arrows[a]
        pos = Double2(arrow.x, arrow.y)
        if paths.last?.id != arrow.id || isNewDrag(i, input.gestures) {
          let startPoint = before.first { $0.id == arrow.id }.map { Double2($0.x, $0.y) }
          paths.append((arrow.id, startPoint.map { [$0] } ?? []))
        }
        paths[paths.count - 1].points.append(pos!)
      }
      if case .confirm = g, outcome == "applied" {
        confirmed = adj.confirm(s, face: face, rule: rule, diameterCm: diameterCm, arrowMM: arrowMM, precision: precision, spot: spot)
      }
      events.append(GestureEvent(index: i, gesture: g, outcome: outcome, position: pos))
    }
    return AdjustmentOutput(events: events, final: s, confirmed: confirmed, dragPaths: paths)
  }

  /// A drag change right after something that is not a change of the same arrow starts a new path.
  static func isNewDrag(_ i: Int, _ gs: [Gesture]) -> Bool {
    guard i > 0, case .dragChanged(let a, _) = gs[i] else { return true }
    if case .dragChanged(let b, _) = gs[i - 1], a == b { return false }
    return true
  }
}
