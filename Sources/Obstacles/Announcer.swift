/// The object the announcer compares frame to frame (BatSight's DetectedObject).
struct TrackedObject: Hashable {
  var label: String
  /// Confidence as held by the arithmetic in use.
  var confidence: Double
  var zone: Zone
  /// The box direction and centre come from: the matched YOLO box, else Vision's.
  var box: NormalizedBox
}

/// DetectionState plus SpeechManager on the virtual clock (whole milliseconds).
///
/// Per frame: `previousObjects` is replaced every frame whatever happens, so a
/// change that falls inside the 4 s window is never announced later. Object
/// speech needs a change, 4.0 s since the last object announcement, and 2.0 s
/// since any speech; mode speech needs nothing but restarts the 2.0 s cooldown.
struct Announcer {
  var previous: TrackedObject?
  /// When DetectionState last asked to speak an object (nil: distant past).
  var lastObjectMs: Int?
  /// When SpeechManager last spoke anything (nil: distant past).
  var lastSpeechMs: Int?
  var speechEnabled = true

  /// A mode announcement: always spoken, restarts the speech cooldown.
  mutating func mode(_ event: ModeEvent, at ms: Int) {
    lastSpeechMs = ms
    if let enabled = event.speechEnabled { speechEnabled = enabled }
  }

  /// Decides one frame; `previous` becomes `current` in every case.
  mutating func frame(_ current: TrackedObject?, at ms: Int, arithmetic: ConfidenceArithmetic)
    -> (announced: Bool, reason: DecisionReason, detail: String)
  {
    defer { previous = current }
    guard let current else { return (false, .noObject, "no detection this frame") }
    guard speechEnabled else { return (false, .muted, "speech is disabled") }
    let change: (DecisionReason, String)
    if let previous {
      guard let c = Self.change(from: previous, to: current, arithmetic) else {
        return (false, .noChange, "same as the previous frame")
      }
      change = c
    } else {
      change = (.first, "previous frame had no object")
    }
    if let last = lastObjectMs, ms - last < Table.announceIntervalMs {
      return (false, .interval,
        "\(change.1), but \(seconds(ms - last)) s since the last object announcement < \(seconds(Table.announceIntervalMs)) s")
    }
    // DetectionState marks the time when it asks; SpeechManager may still refuse.
    lastObjectMs = ms
    if let last = lastSpeechMs, ms - last < Table.speechCooldownMs {
      return (false, .cooldown,
        "\(change.1), but \(seconds(ms - last)) s since the last speech < \(seconds(Table.speechCooldownMs)) s")
    }
    lastSpeechMs = ms
    return (true, change.0, change.1)
  }

  /// The first significant change in the app's order: position, label,
  /// confidence (|Δ| > 0.2 in the chosen arithmetic), centre (|Δx| or |Δy| > 0.1).
  /// (The count check cannot fire here: both lists hold exactly one object.)
  static func change(from a: TrackedObject, to b: TrackedObject, _ arithmetic: ConfidenceArithmetic)
    -> (DecisionReason, String)?
  {
    if a.zone != b.zone { return (.position, "position \(a.zone.rawValue) → \(b.zone.rawValue)") }
    if a.label != b.label { return (.label, "label \(a.label) → \(b.label)") }
    if arithmetic.differs(a.confidence, b.confidence, by: Table.confidenceChange) {
      let d = arithmetic.difference(a.confidence, b.confidence)
      return (.confidence, "confidence changed by \(d) > \(Table.confidenceChange)")
    }
    let dx = abs(b.box.midX - a.box.midX), dy = abs(b.box.midY - a.box.midY)
    if dx > Table.centreChange || dy > Table.centreChange {
      return (.centre, "centre moved by (\(dx), \(dy)), more than \(Table.centreChange)")
    }
    return nil
  }

  /// Milliseconds as seconds text with three decimals, e.g. "3.990".
  func seconds(_ ms: Int) -> String {
    let frac = String(ms % 1000)
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
  }
}
