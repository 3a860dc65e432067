import Core
import Scoring

/// The adjustment view model as a pure state machine (seed 000), with the drag
/// semantics of either platform or the stale-capture bug.
public struct Adjuster: Sendable {
  let drag: DragSemantics
  /// Radius of the target in the adjustment view, in points.
  let viewRadius: Double
  /// Clamp on each axis while dragging (seed: ±1.5).
  let clamp: Double
  /// Movement above which a detected arrow counts as adjusted (seed: 0.01).
  let adjustedThreshold: Double
  /// Makes ids for manual placements.
  var ids: ArrowIDs

  public init(drag: DragSemantics, viewRadius: Double = 150, clamp: Double = 1.5,
              adjustedThreshold: Double = 0.01, ids: ArrowIDs) {
    self.drag = drag; self.viewRadius = viewRadius; self.clamp = clamp
    self.adjustedThreshold = adjustedThreshold; self.ids = ids
  }

  /// `initializeWithDetectionResult`: placement mode when fewer than expected.
  func start(detected: [EditableArrow], expected: Int) -> AdjustmentState {
    var s = AdjustmentState()
    s.arrows = detected
    s.expected = expected
    s.isPlacementMode = detected.count < expected
    s.showMissingBanner = detected.count < expected
    for a in detected { s.original[a.id] = Double2(a.x, a.y) }
    return s
  }

  /// Applies one gesture; returns the next state and what happened.
  mutating func apply(_ g: Gesture, to s: inout AdjustmentState) -> String {
    if case .error = s.phase {
      switch g {
      case .manualEntry:
        // initializeForManualEntry: no arrows, placement mode on.
        let expected = s.expected
        s = AdjustmentState()
        s.expected = expected
        s.isPlacementMode = true
        s.showMissingBanner = expected > 0
        return "applied"
      case .cancel: s.phase = .cancelled; return "applied"
      default: return "ignored: the flow is on the error screen"
      }
    }
    guard s.phase == .adjusting else { return "ignored: the adjustment is over" }
    switch g {
    case .dragChanged(let i, let t):
      guard s.arrows.indices.contains(i) else { return "ignored: arrow \(i) does not exist" }
      let id = s.arrows[i].id
      let d = s.drags[id] ?? DragProgress(start: Double2(s.arrows[i].x, s.arrows[i].y), last: Double2(0, 0))
      let target: Double2
      switch drag {
      case .startPlusTranslation:
        target = Double2(d.start.x + t.x / viewRadius, d.start.y + t.y / viewRadius)
      case .delta:
        target = Double2(s.arrows[i].x + (t.x - d.last.x) / viewRadius, s.arrows[i].y + (t.y - d.last.y) / viewRadius)
      case .staleCapture:
        target = Double2(s.arrows[i].x + t.x / viewRadius, s.arrows[i].y + t.y / viewRadius)
      }
      s.arrows[i].x = min(clamp, max(-clamp, target.x))
      s.arrows[i].y = min(clamp, max(-clamp, target.y))
      s.drags[id] = DragProgress(start: d.start, last: t)
      return "applied"
    case .dragEnded(let i):
      guard s.arrows.indices.contains(i) else { return "ignored: arrow \(i) does not exist" }
      s.drags[s.arrows[i].id] = nil
      if s.arrows[i].isOffTarget { remove(at: i, from: &s); return "applied: removed off the face" }
      return "applied"
    case .tap(let p):
      guard s.isPlacementMode else { return "ignored: not in placement mode" }
      s.arrows.append(EditableArrow(id: ids.next(), x: p.x, y: p.y, isManual: true, confidence: 1.0))
      let missing = s.arrows.count < s.expected
      s.isPlacementMode = missing
      s.showMissingBanner = missing
      return "applied"
    case .togglePlacement:
      s.isPlacementMode.toggle()
      return "applied"
    case .confirm:
      s.phase = .confirmed
      return "applied"
    case .cancel:
      s = AdjustmentState(); s.phase = .cancelled
      return "applied"
    case .reset:
      s = AdjustmentState()
      return "applied"
    case .detectionError(let m):
      s.phase = .error(m)
      return "applied"
    case .manualEntry:
      return "ignored: manual entry is offered only after a detection error"
    }
  }

  func remove(at i: Int, from s: inout AdjustmentState) {
    s.arrows.remove(at: i)
    s.showMissingBanner = s.arrows.count < s.expected
    s.isPlacementMode = s.arrows.count < s.expected
  }

  /// `confirmPlacements`: scores each arrow (Double coordinates, as
  /// `EditableArrow`) on the spot `spot(i)` gives the i-th arrow, and flags it
  /// adjusted when manual or moved > threshold.
  func confirm(_ s: AdjustmentState, face: Face, rule: BoundaryRule, diameterCm: Double,
                      arrowMM: Double, precision: Precision = .double,
                      spot: (Int) -> SpotAssignment = { _ in .nearest }) -> [ConfirmedArrow] {
    s.arrows.enumerated().map { i, a in
      let r = Scorer.scoreUnchecked(ScoreRequest(face: face, x: a.x, y: a.y, rule: rule, diameterCm: diameterCm, arrowMM: arrowMM,
                                                 precision: precision, spot: spot(i)))
      let moved = s.original[a.id].map { o in
        let dx = a.x - o.x, dy = a.y - o.y
        return (dx * dx + dy * dy).squareRoot() > adjustedThreshold
      } ?? false
      return ConfirmedArrow(id: a.id, x: a.x, y: a.y, score: r.score, isX: r.isX, wasAdjusted: a.isManual || moved, isManual: a.isManual)
    }
  }
}

/// Arrow ids as each platform makes them: iOS UUIDs (derived from the seed,
/// never random), Android sequential Ints.
public struct ArrowIDs: Sendable {
  public enum Style: String, Sendable { case uuid, int }
  let style: Style
  var rng: SeededGenerator
  var counter: Int

  public init(style: Style, seed: UInt64, startAt: Int = 0) {
    self.style = style; rng = SeededGenerator(seed: seed ^ 0x1D5); counter = startAt
  }

  /// The next id.
  public mutating func next() -> String {
    counter += 1
    guard style == .uuid else { return String(counter) }
    let a = rng.next(), b = rng.next()
    // RFC 4122 version 4 layout, bits from our generator.
    let hi = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
    let lo = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    func hex(_ v: UInt64, _ n: Int) -> String {
      let s = String(v, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, n - s.count)) + s
    }
    let h = hex(hi, 16), l = hex(lo, 16)
    return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
  }
}
