import Core
import Scoring

/// How a drag moves a marker. Both apps once had the stale-capture bug and
/// fixed it differently; all three are kept so a golden can show the drift.
public enum DragSemantics: String, Sendable, Hashable, CaseIterable {
  /// iOS fix: remember the start, position = start + translation / radius.
  case startPlusTranslation = "start-plus-translation"
  /// Android fix: apply each change in translation (delta) to the current state.
  case delta
  /// The bug: the cumulative translation added to the already-updated position.
  case staleCapture = "stale-capture"
}

/// One marker being adjusted (seed 000's `EditableArrow`).
public struct EditableArrow: Sendable, Hashable {
  public var id: String
  public var x: Double, y: Double
  public var isManual: Bool
  /// Detector confidence (1.0 for manual placements).
  var confidence: Double

  /// A marker; detected ones carry the detector's confidence.
  public init(id: String, x: Double, y: Double, isManual: Bool, confidence: Double) {
    self.id = id; self.x = x; self.y = y; self.isManual = isManual; self.confidence = confidence
  }

  /// Distance from the centre, `sqrt(x² + y²)`.
  var distance: Double { (x * x + y * y).squareRoot() }
  /// Off the face: distance > 1.
  var isOffTarget: Bool { distance > 1.0 }

  /// Marker colour tier: manual green; else ≥ 0.7 red, ≥ 0.5 orange, else deep orange.
  public var tier: String {
    if isManual { return "green" }
    return confidence >= 0.7 ? "red" : confidence >= 0.5 ? "orange" : "deep-orange"
  }
}

/// Where the flow is (seed 000's `CameraScoringState`, as far as the adjustment sees it).
public enum Phase: Sendable, Hashable {
  case adjusting, confirmed, cancelled
  case error(String)
}

/// The whole adjustment state, a value: every gesture maps one state to the next.
public struct AdjustmentState: Sendable, Hashable {
  public var arrows: [EditableArrow] = []
  var expected: Int = 0
  public var isPlacementMode = false
  public var showMissingBanner = false
  public var phase: Phase = .adjusting
  /// Position of each arrow when the adjustment began (detected arrows only).
  var original: [String: Double2] = [:]
  /// The drags in progress, per marker id: start position and last cumulative
  /// translation. Per marker because in seed 000 each `DraggableArrowMarkerFixed`
  /// keeps its own `@State dragStartPosition`, so interleaved drags do not share one.
  var drags: [String: DragProgress] = [:]

  public var extraCount: Int { max(0, arrows.count - expected) }
  public var missingCount: Int { max(0, expected - arrows.count) }
  public var showExtraWarning: Bool { arrows.count > expected }

  public static func == (a: Self, b: Self) -> Bool {
    a.arrows == b.arrows && a.expected == b.expected && a.isPlacementMode == b.isPlacementMode
      && a.showMissingBanner == b.showMissingBanner && a.phase == b.phase && a.original == b.original
      && a.drags == b.drags
  }
  public func hash(into h: inout Hasher) { h.combine(arrows); h.combine(expected); h.combine(isPlacementMode) }
}

/// One marker's drag in progress.
struct DragProgress: Sendable, Hashable {
  var start: Double2
  var last: Double2
}

/// A pair of Doubles (positions and translations).
public struct Double2: Sendable, Hashable {
  public var x: Double, y: Double
  public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// One confirmed arrow (seed 000's `ArrowPlacementResult`).
public struct ConfirmedArrow: Sendable, Hashable {
  public let id: String
  public let x: Double, y: Double
  public let score: Int
  public let isX: Bool
  public let wasAdjusted: Bool
  public let isManual: Bool
}
