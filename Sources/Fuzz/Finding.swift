import Core
import Scoring

/// One thing the campaign found: a broken property (violation) or a case where
/// two named semantics disagree (discrepancy).
package struct Finding: Sendable, Hashable {
  /// `violation` or `discrepancy`.
  let severity: String
  /// The property or disagreement, e.g. `monotonic`, `persistence-float32`.
  let property: String
  let face: String
  /// The rule(s) or variants compared, e.g. `inclusive vs floor`.
  let compared: String
  let x: Double, y: Double
  /// Distance in the spot frame, and the boundary it sits on (nil: none near).
  let distance: Double
  let boundary: Double?
  /// Scores of the compared variants, in `compared` order.
  let scores: [Int]
  let detail: String

  /// Deduplication key: one finding per property, face, comparison and boundary.
  var key: String { "\(severity)|\(property)|\(face)|\(compared)|\(boundary.map { $0.description } ?? "none")" }

  /// `{severity, property, face, compared, x, y, distance, distance_hex, boundary, scores, detail}`.
  var json: JSONValue {
    .object([
      "severity": .string(severity), "property": .string(property), "face": .string(face), "compared": .string(compared),
      "x": .double(x), "y": .double(y), "distance": .double(distance), "distance_hex": .string(hexString(distance)),
      "boundary": boundary.map(JSONValue.double) ?? .null, "scores": .array(scores.map(JSONValue.int)), "detail": .string(detail),
    ])
  }
}
