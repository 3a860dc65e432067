/// How a re-saved arrow (same round, end and arrow number) is written.
public enum UpsertSemantics: String, Sendable, Hashable, CaseIterable {
  /// Seed 002: look for the row, UPDATE it in place (row id kept) or INSERT.
  case update
  /// Room's `OnConflictStrategy.REPLACE`: delete and insert (row id changes).
  case replace
}

/// What the app hands to `addScore` after confirming camera placements.
public enum CoordinatePolicy: String, Sendable, Hashable, CaseIterable {
  /// Seed 000: only score and X flag reach `addScore`; coordinates are dropped.
  case seed
  /// Coordinates persisted (as 32-bit floats) with input method `coordinateClick`.
  case keepCoordinates = "keep-coordinates"
}

/// How a round resumes after the app restarts.
public enum ResumeSemantics: String, Sendable, Hashable, CaseIterable {
  /// Seed 002 `loadRound`: the first end that is not completed; its arrows come
  /// back sorted by arrow number with `currentArrowNumber = count + 1`, and
  /// nothing is restored when that end is empty (even if a later end has arrows).
  case seed002 = "seed-002"
  /// The Android docs: next end number, arrow 1; an unfinished end's arrows are not restored.
  case androidDocs = "android-docs"
  /// Bullseye's earlier reading: the first unfinished end *that has arrows*
  /// (empty unfinished ends are skipped), else the next end.
  case skipEmptyEnds = "skip-empty-ends"
}

/// How one arrow's save reaches the database.
public enum SaveMode: String, Sendable, Hashable, CaseIterable {
  /// Bullseye's choice: the three steps in one transaction, so a kill leaves
  /// all of the save or none of it, and an end's total always equals its arrows.
  case atomic
  /// Seed 002's `saveArrowScore`: three awaited statements, each committed on
  /// its own, so a kill between them leaves an end without its arrow or an
  /// arrow whose end total was not updated.
  case seed002Steps = "seed-002-steps"
}

/// The steps of one arrow's save, in the order seed 002 performs them.
public enum SaveStep: String, Sendable, Hashable, CaseIterable {
  /// Get or create the end row.
  case end
  /// Insert or update the arrow row.
  case arrow
  /// Recompute the end's total and X count.
  case total
}

/// One persisted arrow.
public struct StoredArrow: Sendable, Hashable {
  let rowID: Int64
  public let endNumber: Int
  public let arrowNumber: Int
  public let score: Int
  public let isX: Bool
  /// As stored: 32-bit floats, nil when the coordinates were dropped.
  public let x: Float?, y: Float?
  public let inputMethod: String
}

/// The database's camera-scoring settings (nil before migration 37).
struct CameraSettings: Sendable, Hashable {
  let userVersion: Int
  let cameraScoreEnabled: Bool?
  let saveArrowImages: Bool?
  let arrowImageStorageURI: String?
}

/// A round as it is on disk.
struct RoundSnapshot: Sendable, Hashable {
  struct End: Sendable, Hashable {
    let number: Int
    let total: Int
    let xCount: Int
    let isCompleted: Bool
    let arrows: [StoredArrow]
  }
  let id: Int64
  let name: String
  let face: String
  let arrowsPerEnd: Int
  let endCount: Int
  let status: String
  let ends: [End]
}

/// Persistence's error: one sentence naming what failed and why.
public struct PersistenceError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ d: String) { description = d }
}
