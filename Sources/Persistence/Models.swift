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
  /// Seed 002 `loadRound`: the incomplete end's arrows come back sorted by
  /// arrow number; `currentArrowNumber = count + 1`.
  case seed002 = "seed-002"
  /// The Android docs: next end number, arrow 1; an unfinished end's arrows are not restored.
  case androidDocs = "android-docs"
}

/// One persisted arrow.
public struct StoredArrow: Sendable, Hashable {
  public let rowID: Int64
  public let endNumber: Int
  public let arrowNumber: Int
  public let score: Int
  public let isX: Bool
  /// As stored: 32-bit floats, nil when the coordinates were dropped.
  public let x: Float?, y: Float?
  public let inputMethod: String
}

/// The database's camera-scoring settings (nil before migration 37).
public struct CameraSettings: Sendable, Hashable {
  public let userVersion: Int
  public let cameraScoreEnabled: Bool?
  public let saveArrowImages: Bool?
  public let arrowImageStorageURI: String?
}

/// A round as it is on disk.
public struct RoundSnapshot: Sendable, Hashable {
  public struct End: Sendable, Hashable {
    public let number: Int
    public let total: Int
    public let xCount: Int
    public let isCompleted: Bool
    public let arrows: [StoredArrow]
  }
  public let id: Int64
  public let name: String
  public let face: String
  public let arrowsPerEnd: Int
  public let endCount: Int
  public let status: String
  public let ends: [End]
}

/// Persistence's error: one sentence naming what failed and why.
public struct PersistenceError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ d: String) { description = d }
}
