import Core

extension Announcement {
  /// `{time_s, text, kind[, frame]}`.
  package var json: JSONValue {
    var o: [String: JSONValue] = [
      "time_s": .double(time), "text": .string(text), "kind": .string(kind.rawValue),
    ]
    if let frame { o["frame"] = .int(frame) }
    return .object(o)
  }
}

extension FrameDecision {
  /// Every field; absent values are `null` so each frame has the same keys.
  package var json: JSONValue {
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
  package var json: JSONValue {
    guard let b = self else { return .null }
    return .array([.double(b.x), .double(b.y), .double(b.width), .double(b.height)])
  }
}
