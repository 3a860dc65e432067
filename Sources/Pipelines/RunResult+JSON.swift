import Adjustment
import Core
import Detection
import Scoring

extension RunResult {
  /// The canonical result: every stage's output. Contract keys: `target`
  /// (`center_x`, `center_y`, `radius_x`, `radius_y`), `detections` (`pixel_x`,
  /// `pixel_y`, `normalized_x`, `normalized_y`, `distance`, `confidence`,
  /// `score`, `is_x`), `confirmed` (`normalized_x`, `normalized_y`, `score`,
  /// `is_x`, `was_adjusted`).
  public var json: JSONValue {
    let r = request
    let p = r.profile
    var out: [String: JSONValue] = [
      "version": .string("1.0"), "timestamp": .string(r.timestamp),
      "profile": .object([
        "name": .string(p.name), "preprocess": .string(p.preprocess), "rounded_padding": .bool(p.roundedPadding),
        "input_size": .int(p.inputSize), "confidence": .double(p.confidence), "nms": .string(p.nms.rawValue),
        "iou": .double(p.iou), "ids": .string(p.ids.rawValue), "drag": .string(p.drag.rawValue), "layout": .string(p.layout.rawValue),
      ].merging(p.refine || p.outside != .keep ? ["refine": .bool(p.refine), "outside": .string(p.outside.rawValue)] : [:]) { a, _ in a }
        .merging(p.zoom.map { ["zoom": .object(["margin": .double($0.margin), "maximum_share": .double($0.maximumShare),
                                                            "windows": .string($0.windows.rawValue)])] } ?? [:]) { a, _ in a }
        .merging(p.shaftCheck.map { ["shaft_check": .object(["keep_above": .double($0.keepAbove)])] } ?? [:]) { a, _ in a }),
      "image": .object(["width": .int(r.image.width), "height": .int(r.image.height)]),
      "face": .string(r.face.id), "diameter_cm": .double(r.diameterCm), "rule": .string(r.rule.rawValue),
      "precision": .string(r.precision.rawValue), "arrow_mm": .double(r.arrowMM), "expected_arrows": .int(r.expectedArrows),
      "candidates": .int(candidates), "above_threshold": .int(aboveThreshold), "suppressed": .int(suppressed),
      "error": error.map(JSONValue.string) ?? .null,
    ]
    if let t = target {
      out["target"] = .object([
        "center_x": .double(t.centerX), "center_y": .double(t.centerY), "radius_x": .double(t.ellipse.a),
        "ellipse_center": .array([.double(t.ellipse.cx), .double(t.ellipse.cy)]), "rectified": .bool(t.rectified),
        "radius_y": .double(t.ellipse.b), "angle_deg": .double(t.ellipse.angleDeg), "method": .string(t.method),
        "edge_points": .int(t.edgePoints), "median_residual": .double(t.medianResidual),
        "ring_agreement": t.ringAgreement.map(JSONValue.double) ?? .null,
      ])
    } else {
      out["target"] = .null
    }
    if p.zoom != nil {
      // Under a profile with a closer look: the region it read, or null when the face filled the photo.
      out["closer_look"] = closerLook.map { c in
        .object(["x": .int(c.x), "y": .int(c.y), "width": .int(c.width), "height": .int(c.height)])
      } ?? .null
    }
    out["detections"] = .array(detections.map { d in
      var o: [String: JSONValue] = [
        "id": .string(d.id), "pixel_x": .double(Double(d.pixelX)), "pixel_y": .double(Double(d.pixelY)),
        "normalized_x": .double(Double(d.normalizedX)), "normalized_y": .double(Double(d.normalizedY)),
        "distance": .double(Double(d.distanceFromCenter)), "clock_position_deg": .double(Double(d.clockPositionDeg)),
        "confidence": .double(d.confidence), "score": .int(d.score.score), "is_x": .bool(d.score.isX),
        "label": .string(d.score.label), "spot": .int(d.score.spot),
        "box": .array([d.box.x, d.box.y, d.box.width, d.box.height].map(JSONValue.double)),
      ]
      if d.outside { o["outside"] = .bool(true) }  // only under OutsideImpacts.mark
      return .object(o)
    })
    let s = adjustment.final
    out["adjustment"] = .object([
      "phase": .string(phaseName(s.phase)), "placement_mode": .bool(s.isPlacementMode),
      "missing_banner": .bool(s.showMissingBanner), "extra_warning": .bool(s.showExtraWarning),
      "missing": .int(s.missingCount), "extra": .int(s.extraCount),
      "arrows": .array(s.arrows.map { a in
        .object(["id": .string(a.id), "x": .double(a.x), "y": .double(a.y), "manual": .bool(a.isManual), "tier": .string(a.tier)])
      }),
      "events": .array(adjustment.events.map { e in
        .object(["index": .int(e.index), "gesture": .string(describe(e.gesture)), "outcome": .string(e.outcome),
                 "position": e.position.map { .array([.double($0.x), .double($0.y)]) } ?? .null])
      }),
    ])
    if let c = confirmed {
      out["confirmed"] = .array(c.map { a in
        .object(["id": .string(a.id), "normalized_x": .double(a.x), "normalized_y": .double(a.y), "score": .int(a.score),
                 "is_x": .bool(a.isX), "was_adjusted": .bool(a.wasAdjusted), "manual": .bool(a.isManual)])
      })
      out["end_total"] = .int(c.reduce(0) { $0 + $1.score })
    } else {
      out["confirmed"] = .null
      out["end_total"] = .null
    }
    out["persisted"] = persisted.map { .object(["round": .int(Int($0.round)), "end": .int($0.end), "arrows": .int($0.arrows)]) } ?? .null
    return .object(out)
  }

  func phaseName(_ p: Phase) -> String {
    switch p {
    case .adjusting: return "adjusting"
    case .confirmed: return "confirmed"
    case .cancelled: return "cancelled"
    case .error(let m): return "error: \(m)"
    }
  }
}

/// A gesture as one short line.
func describe(_ g: Gesture) -> String {
  switch g {
  case .dragChanged(let a, let t): return "drag \(a) by (\(t.x), \(t.y))"
  case .dragEnded(let a): return "drag end \(a)"
  case .tap(let p): return "tap (\(p.x), \(p.y))"
  case .togglePlacement: return "toggle placement"
  case .confirm: return "confirm"
  case .cancel: return "cancel"
  case .reset: return "reset"
  case .detectionError(let m): return "detection error: \(m)"
  case .manualEntry: return "manual entry"
  }
}
