import Core
import Obstacles
import Synth

/// One obstacle scenario's outcome: the pipeline's run and the checks of the
/// scenario's `expect` block.
public struct ObstacleResult: Sendable, Hashable {
  /// The scenario that was run.
  public let scenario: ObstacleScenario
  /// The transcript and every frame's decision.
  public let run: ObstacleRun
  /// Mismatches against the scenario's `expect` block; empty when it holds.
  public let expectationFailures: [String]

  /// Runs `scenario` through `ObstaclePipeline` on its synthesized frames:
  /// scripted detections unless `detector` is given; `detections: model`
  /// needs one.
  public static func run(_ scenario: ObstacleScenario, detector: (any ObstacleDetector)? = nil) throws(ObstacleError) -> ObstacleResult {
    let source: any ObstacleDetector
    if let detector {
      source = detector
    } else if scenario.detections == .scripted {
      source = ScriptedDetector()
    } else {
      throw .invalid(name: "detections", value: "'model'", expected: "a detector backend passed to the run, or 'scripted'")
    }
    let run = try ObstaclePipeline.run(scenario.sequence, detector: source, render: ObstacleRenderer.frames(of: scenario.scene))
    return ObstacleResult(scenario: scenario, run: run,
                          expectationFailures: scenario.expect.map { ExpectationCheck.failures($0, run) } ?? [])
  }

  /// Every spoken line, in time order.
  public var announcements: [Announcement] { run.announcements }
  /// One decision per frame.
  public var frames: [FrameDecision] { run.frames }

  /// The result as canonical JSON. Top-level keys: `id`, `kind` ("obstacles"),
  /// `seed`, `size`, `semantics`, `announcements` (each `time_s`, `text`,
  /// `kind`, and `frame` for objects), `frames` (one decision each), `overlays`,
  /// `expectation_failures`.
  public var json: JSONValue {
    .object([
      "id": .string(scenario.id),
      "kind": .string("obstacles"),
      "seed": .string(String(scenario.seed)),
      "size": .string("\(scenario.width)x\(scenario.height)"),
      "semantics": .object([
        "zones": .string(scenario.semantics.zones.rawValue),
        "nms": .string(scenario.semantics.nms.rawValue),
        "confidence_arithmetic": .string(scenario.semantics.confidenceArithmetic.rawValue),
      ]),
      "announcements": .array(run.announcements.map(\.json)),
      "frames": .array(run.frames.map(\.json)),
      "overlays": .array(scenario.overlays.map { .int($0) }),
      "expectation_failures": .array(expectationFailures.map { .string($0) }),
    ])
  }

  /// `json` as canonical text (what `run --out` writes).
  public func canonicalText() throws(ObstacleError) -> String {
    do { return try json.canonicalText() } catch { throw .json(error) }
  }
}
