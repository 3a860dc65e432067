import Core
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif


extension Ellipse {
  /// `{center_x, center_y, semi_major, semi_minor, angle_deg}`.
  var json: JSONValue {
    .object(["center_x": .double(centerX), "center_y": .double(centerY), "semi_major": .double(semiMajor),
             "semi_minor": .double(semiMinor), "angle_deg": .double(angleDeg)])
  }
}

extension ScoreResult {
  /// `{score, is_x, label, ring, spot, distance, clock_position_deg}`.
  public var json: JSONValue {
    .object(["score": .int(score), "is_x": .bool(isX), "label": .string(label), "ring": .int(ring),
             "spot": .int(spot), "distance": .double(distance), "clock_position_deg": .double(clockPositionDeg)])
  }
}

extension GroundTruth {
  /// The truth file. Keys the contract names: `arrows[].pixel_x/pixel_y/
  /// normalized_x/normalized_y/score/is_x` (inclusive rule) and
  /// `target.center_x/center_y` (the projected face centre, in pixels).
  public var json: JSONValue {
    let s = scene
    let centre = project(u: 0, v: 0)
    var target: [String: JSONValue] = [
      "center_x": .double(centre.x), "center_y": .double(centre.y), "radius_px": .double(s.radiusPx),
      "homography": .array(homography.map(JSONValue.double)), "box": .array(targetBox.map(JSONValue.double)),
      "face": .string(s.face.id), "diameter_cm": .double(s.diameterCm),
      "spots": .array(zip(s.face.spots, spotEllipses).map { spot, e in
        let c = project(u: spot.x, v: spot.y)
        return .object(["center_x": .double(c.x), "center_y": .double(c.y), "ellipse": e?.json ?? .null])
      }),
    ]
    target["ellipse"] = ellipse?.json ?? .null
    let arrowsJSON: [JSONValue] = arrows.enumerated().map { i, a in
      let inc = a.inclusive
      var rules: [String: JSONValue] = [:]
      for (rule, r) in a.scores { rules[rule.rawValue] = r.json }
      return .object([
        "index": .int(i), "pixel_x": .double(a.pixelX), "pixel_y": .double(a.pixelY),
        "normalized_x": .double(a.normalizedX), "normalized_y": .double(a.normalizedY),
        "distance": .double(inc.distance), "clock_position_deg": .double(inc.clockPositionDeg),
        "score": .int(inc.score), "is_x": .bool(inc.isX), "label": .string(inc.label), "spot": .int(inc.spot),
        "style": .string(a.style.rawValue), "shaft_mm": .double(a.shaftMM),
        "box": .array(a.box.map(JSONValue.double)), "scores": .object(rules),
      ])
    }
    let look = s.look
    var extra: [String: JSONValue] = [:]
    // Only a turned frame says so: truth files of rendered pictures keep their keys.
    if frame != .identity { extra["frame"] = .array(frame.m.map(JSONValue.double)) }
    // Only a realistic scene says so: classic truth files keep their keys.
    if let r = s.realistic {
      extra["style"] = .string(ArcheryStyle.realistic.rawValue)
      extra["realistic"] = .object([
        "printed": .string(r.printed.rawValue), "mount": .string(r.mount.rawValue), "backdrop": .string(r.backdrop.rawValue),
        "grass": .double(r.grass), "paint_patches": .int(r.paintPatches), "foam_patches": .int(r.foamPatches),
        "contrast": .double(r.contrast), "saturation": .double(r.saturation),
      ])
    }
    return .object(extra.merging([
      "version": .int(1), "seed": .int(Int(truncatingIfNeeded: s.seed)), "face": .string(s.face.id),
      "image": .object(["width": .int(width), "height": .int(height)]),
      "camera": .object([
        "center": .array([.double(s.centerX), .double(s.centerY)]), "radius": .double(s.radiusPx),
        "rotation_deg": .double(s.rotationDeg), "tilt_deg": .double(s.tiltDeg),
        "tilt_axis_deg": .double(s.tiltAxisDeg), "focal_px": .double(s.camera.focalPx),
      ]),
      "scene": .object([
        "background": .string(look.background.rawValue), "boss": .string(look.boss.rawValue),
        "white_balance": .string(look.whiteBalance.rawValue), "lighting": .double(look.lighting),
        "vignette": .double(look.vignette), "blur": .double(look.blur), "noise": .double(look.noise),
        "jpeg": .double(look.jpeg), "old_holes": .int(look.oldHoles), "torn_centre": .bool(look.tornCentre),
      ]),
      "target": .object(target),
      "arrows": .array(arrowsJSON),
      "end_total": .int(arrows.reduce(0) { $0 + $1.inclusive.score }),
    ]) { a, _ in a })
  }
}
