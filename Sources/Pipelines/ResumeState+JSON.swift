import Core
import Persistence

extension ResumeState {
  /// `{current_end, current_arrow_number, finished, arrows: [{arrow_number, score, is_x, x, y, input_method}], rescore_changes}`.
  public var json: JSONValue {
    .object([
      "round": .int(Int(round)), "semantics": .string(semantics.rawValue), "current_end": .int(currentEnd),
      "current_arrow_number": .int(currentArrowNumber), "rescored": .int(rescored), "finished": .bool(finished),
      "arrows": .array(arrows.map { a in
        .object(["end": .int(a.endNumber), "arrow_number": .int(a.arrowNumber), "score": .int(a.score), "is_x": .bool(a.isX),
                 "x": a.x.map { .double(Double($0)) } ?? .null, "y": a.y.map { .double(Double($0)) } ?? .null,
                 "input_method": .string(a.inputMethod)])
      }),
      "rescore_changes": .array(rescoreChanges.map { c in
        .object(["end": .int(c.endNumber), "arrow_number": .int(c.arrowNumber), "x": .double(Double(c.x)), "y": .double(Double(c.y)),
                 "stored_score": .int(c.storedScore), "stored_is_x": .bool(c.storedIsX), "rescored_score": .int(c.rescoredScore),
                 "rescored_is_x": .bool(c.rescoredIsX), "distance": .double(c.distance),
                 "distance_hex": .string(hexString(c.distance))])
      }),
    ])
  }
}
