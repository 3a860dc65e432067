import Core

extension ObstacleResult {
  /// The result as canonical JSON. Top-level keys: `id`, `kind` ("obstacles"),
  /// `seed`, `size`, `semantics`, `announcements` (each `time_s`, `text`,
  /// `kind`, and `frame` for objects), `frames` (one decision each), `overlays`,
  /// `expectation_failures`.
  public var json: JSONValue {
    .object([
      "id": .string(id),
      "kind": .string("obstacles"),
      "seed": .string(String(scenario.seed)),
      "size": .string("\(scenario.width)x\(scenario.height)"),
      "semantics": .object([
        "zones": .string(scenario.semantics.zones.rawValue),
        "nms": .string(scenario.semantics.nms.rawValue),
        "confidence_arithmetic": .string(scenario.semantics.confidenceArithmetic.rawValue),
      ]),
      "announcements": .array(announcements.map(\.json)),
      "frames": .array(frames.map(\.json)),
      "overlays": .array(scenario.overlays.map { .int($0) }),
      "expectation_failures": .array(expectationFailures.map { .string($0) }),
    ])
  }

  /// `json` as canonical text (what `run --out` writes).
  public func canonicalText() throws(ObstacleError) -> String {
    do { return try json.canonicalText() } catch { throw .json(error) }
  }
}

extension Announcement {
  /// `{time_s, text, kind[, frame]}`.
  var json: JSONValue {
    var o: [String: JSONValue] = [
      "time_s": .double(time), "text": .string(text), "kind": .string(kind.rawValue),
    ]
    if let frame { o["frame"] = .int(frame) }
    return .object(o)
  }
}

extension FrameDecision {
  /// Every field; absent values are `null` so each frame has the same keys.
  var json: JSONValue {
    .object([
      "index": .int(index),
      "time_s": .double(time),
      "vision": .array(zip(detections.vision, visionStatus).map { o, status in
        .object([
          "source": .string(o.source.rawValue), "label": .string(o.label),
          "confidence": .double(o.confidence), "box": o.box.json, "status": .string(status),
        ])
      }),
      "chosen": label.map { _ in
        .object([
          "source": .string(source?.rawValue ?? ""),
          "label": .string(label ?? ""),
          "confidence": .double(confidence ?? 0),
          "box": visionBox.json,
        ])
      } ?? .null,
      "yolo": .array(zip(detections.yolo, yoloStatus).map { b, status in
        .object(["confidence": .double(b.confidence), "box": Optional(b.box).json, "status": .string(status)])
      }),
      "matched_yolo": matchedYOLO.map { .int($0) } ?? .null,
      "match_iou": matchIoU.map { .double($0) } ?? .null,
      "box": box.json,
      "zone": zone.map { .string($0.rawValue) } ?? .null,
      "area": area.map { .double($0) } ?? .null,
      "category": category.map { .string($0.name) } ?? .null,
      "distance_m": category.map { .double($0.meters) } ?? .null,
      "text": text.map { .string($0) } ?? .null,
      "announced": .bool(announced),
      "reason": .string(reason.rawValue),
      "detail": .string(detail),
    ])
  }
}

extension Optional where Wrapped == NormalizedBox {
  /// `[x, y, width, height]` or null.
  var json: JSONValue {
    guard let b = self else { return .null }
    return .array([.double(b.x), .double(b.y), .double(b.width), .double(b.height)])
  }
}
