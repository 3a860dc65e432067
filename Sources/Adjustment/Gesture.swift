/// A scripted user action. Drags arrive as SwiftUI reports them: a sequence of
/// cumulative translations (view points) from the drag start, then an end.
public enum Gesture: Sendable, Hashable {
  /// One `onChanged` of a drag on the arrow at `arrow` (index into the current list).
  case dragChanged(arrow: Int, translation: Double2)
  /// `onEnded` of that drag.
  case dragEnded(arrow: Int)
  /// A tap at a normalized face position (placement mode adds an arrow there).
  case tap(Double2)
  /// The "Place" button.
  case togglePlacement
  case confirm
  case cancel
  case reset
  /// Detection failed: the flow shows the error screen.
  case detectionError(String)
  /// "Enter Manually" on the error screen: zero arrows, placement mode.
  case manualEntry
}

/// What one gesture did, for transcripts and goldens.
public struct GestureEvent: Sendable, Hashable {
  public let index: Int
  public let gesture: Gesture
  /// `applied`, or why it was ignored (e.g. "arrow 7 does not exist").
  public let outcome: String
  /// Position of the dragged arrow after a drag change, normalized.
  public let position: Double2?
}
