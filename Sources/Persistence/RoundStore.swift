import GRDB

/// The round database: a real SQLite file in WAL mode, one transaction per write.
public final class RoundStore: Sendable {
  let db: DatabaseQueue
  let path: String
  let upsert: UpsertSemantics

  /// Opens (or creates) the database and migrates it to 37, or only to the
  /// 36 baseline when `baselineOnly` (to test the 36 → 37 migration).
  /// A database holding other tables is refused before anything is written to
  /// it; with `existing`, so is one holding no tables (nothing to resume).
  public init(path: String, upsert: UpsertSemantics = .update, baselineOnly: Bool = false,
              existing: Bool = false) throws(PersistenceError) {
    // SQLite reads an empty path as a private temporary database: a round saved
    // there is gone when the store closes, which no caller means.
    guard !path.isEmpty else { throw PersistenceError("the round database path is empty: expected a file path (or :memory:)") }
    self.path = path
    self.upsert = upsert
    do {
      var config = Configuration()
      config.foreignKeysEnabled = true
      db = try DatabaseQueue(path: path, configuration: config)
      try Self.checkOwn(db, path: path, existing: existing)
      try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
      if baselineOnly {
        try Schema.migrator.migrate(db, upTo: Schema.baseline)
      } else {
        try Schema.migrator.migrate(db)
      }
    } catch let e as PersistenceError {
      throw e
    } catch {
      throw PersistenceError("cannot open round database '\(path)': \(error)")
    }
  }

  /// Checks, reading only, that an existing file at `path` is a round database
  /// (or empty): what a command asks before it stages a copy to write into.
  public static func checkExisting(path: String) throws(PersistenceError) {
    do {
      var config = Configuration()
      config.readonly = true
      let q = try DatabaseQueue(path: path, configuration: config)
      try checkOwn(q, path: path, existing: false)
    } catch let e as PersistenceError {
      throw e
    } catch {
      throw PersistenceError("cannot open round database '\(path)': \(error)")
    }
  }

  /// The tables this schema and its migrator make.
  static let ownTables: Set<String> = ["rounds", "end_scores", "arrow_scores", "settings", "grdb_migrations", "sqlite_sequence"]

  /// Refuses, without writing, a database another program made (tables this
  /// schema does not have, or no migration record), and with `existing` an empty one.
  static func checkOwn(_ db: DatabaseQueue, path: String, existing: Bool) throws {
    let tables = try db.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
    if tables.isEmpty {
      if existing { throw PersistenceError("'\(path)' holds no round database: expected one bullseye or the app saved") }
      return
    }
    let foreign = tables.filter { !ownTables.contains($0) }.sorted()
    guard foreign.isEmpty, tables.contains("grdb_migrations") else {
      let named = foreign.isEmpty ? "tables \(tables.sorted().joined(separator: ", ")) without a migration record" : "table\(foreign.count == 1 ? "" : "s") \(foreign.joined(separator: ", "))"
      throw PersistenceError("'\(path)' is not a round database (it holds \(named)): expected a new file or one bullseye saved")
    }
  }

  /// Runs the remaining migrations (36 → 37).
  public func migrate() throws(PersistenceError) {
    do { try Schema.migrator.migrate(db) } catch { throw PersistenceError("migration failed: \(error)") }
  }

  /// Creates a round and its empty ends; returns the round id.
  public func createRound(name: String, face: String, arrowsPerEnd: Int, ends: Int, createdAt: String) throws(PersistenceError) -> Int64 {
    try write { db in
      try db.execute(sql: "INSERT INTO rounds (name, face, arrows_per_end, end_count, created_at) VALUES (?, ?, ?, ?, ?)",
                     arguments: [name, face, arrowsPerEnd, ends, createdAt])
      return db.lastInsertedRowID
    }
  }

  /// The round `id` if it exists; otherwise creates it under that id (so a
  /// fresh database can be addressed as round 1).
  public func ensureRound(id: Int64, name: String, face: String, arrowsPerEnd: Int, ends: Int, createdAt: String) throws(PersistenceError) -> Int64 {
    try write { db in
      if try Int64.fetchOne(db, sql: "SELECT id FROM rounds WHERE id = ?", arguments: [id]) == nil {
        try db.execute(sql: "INSERT INTO rounds (id, name, face, arrows_per_end, end_count, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [id, name, face, arrowsPerEnd, ends, createdAt])
      }
      return id
    }
  }

  /// Saves one arrow: get or create the end, update or insert the arrow (by
  /// `upsert`), then recompute the end's total and X count — in one transaction
  /// (`atomic`) or as three committed statements (`seed-002-steps`). With
  /// `completesFullEnds` (a whole round saved arrow by arrow, as `simulate-round`
  /// does), the atomic save also completes a full end and finishes a full round.
  /// A confirmed end saved by the camera flow leaves completion to the app.
  /// `afterStep` runs after each step (inside the transaction when atomic): a
  /// crash test kills the process there, or throws to abandon the save.
  public func saveArrowScore(round: Int64, end: Int, arrow: Int, score: Int, isX: Bool, x: Double?, y: Double?,
                             mode: SaveMode = .atomic, completesFullEnds: Bool = false,
                             afterStep: ((SaveStep) throws -> Void)? = nil) throws(PersistenceError) {
    switch mode {
    case .atomic:
      try write { db in
        let endID = try Self.endID(db, round: round, end: end)
        try afterStep?(.end)
        try upsertArrow(db, endID: endID, arrow: arrow, score: score, isX: isX, x: x, y: y)
        try afterStep?(.arrow)
        try Self.updateTotals(db, endID: endID)
        try afterStep?(.total)
        if completesFullEnds { try Self.completeIfFull(db, round: round, end: end, endID: endID) }
      }
    case .seed002Steps:
      let endID = try write { db in try Self.endID(db, round: round, end: end) }
      do { try afterStep?(.end) } catch { throw PersistenceError("\(error)") }
      try write { db in try upsertArrow(db, endID: endID, arrow: arrow, score: score, isX: isX, x: x, y: y) }
      do { try afterStep?(.arrow) } catch { throw PersistenceError("\(error)") }
      try write { db in try Self.updateTotals(db, endID: endID) }
      do { try afterStep?(.total) } catch { throw PersistenceError("\(error)") }
    }
  }

  /// Step 2: the arrow row, updated in place or replaced (by `upsert`), or inserted.
  func upsertArrow(_ db: Database, endID: Int64, arrow: Int, score: Int, isX: Bool, x: Double?, y: Double?) throws {
    // Stored as 32-bit floats, as the apps do (KotlinFloat).
    let fx = x.map { Double(Float($0)) }, fy = y.map { Double(Float($0)) }
    let method = (x != nil && y != nil) ? "COORDINATE_CLICK" : "MANUAL"
    let existing = try Int64.fetchOne(db, sql: "SELECT id FROM arrow_scores WHERE end_score_id = ? AND arrow_number = ?",
                                      arguments: [endID, arrow])
    switch (existing, upsert) {
    case (let id?, .update):
      try db.execute(sql: "UPDATE arrow_scores SET score_value = ?, is_x = ?, x_coordinate = ?, y_coordinate = ?, input_method = ? WHERE id = ?",
                     arguments: [score, isX, fx, fy, method, id])
    case (let id?, .replace):
      try db.execute(sql: "DELETE FROM arrow_scores WHERE id = ?", arguments: [id])
      fallthrough
    default:
      try db.execute(sql: "INSERT INTO arrow_scores (end_score_id, arrow_number, score_value, is_x, x_coordinate, y_coordinate, input_method) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     arguments: [endID, arrow, score, isX, fx, fy, method])
    }
  }

  /// Bullseye's atomic mode: the arrow that fills its end completes the end, and
  /// the one that fills the last end finishes the round, in the same transaction,
  /// so a kill can never leave a full end open or a finished round in progress
  /// (seed 002 completes the end in a later call and never finishes the round).
  static func completeIfFull(_ db: Database, round: Int64, end: Int, endID: Int64) throws {
    guard let shape = try Row.fetchOne(db, sql: "SELECT arrows_per_end, end_count FROM rounds WHERE id = ?", arguments: [round]) else { return }
    let perEnd: Int = shape["arrows_per_end"], ends: Int = shape["end_count"]
    let stored = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM arrow_scores WHERE end_score_id = ?", arguments: [endID]) ?? 0
    guard stored >= perEnd else { return }
    try db.execute(sql: "UPDATE end_scores SET is_completed = 1 WHERE id = ?", arguments: [endID])
    let done = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM end_scores WHERE round_id = ? AND is_completed = 1", arguments: [round]) ?? 0
    if done >= ends {
      try db.execute(sql: "UPDATE rounds SET status = 'COMPLETED' WHERE id = ?", arguments: [round])
    }
  }

  /// Step 3: the end's total and X count from its arrows.
  static func updateTotals(_ db: Database, endID: Int64) throws {
    try db.execute(sql: """
      UPDATE end_scores SET
        total_score = (SELECT COALESCE(SUM(score_value), 0) FROM arrow_scores WHERE end_score_id = ?),
        x_count = (SELECT COALESCE(SUM(is_x), 0) FROM arrow_scores WHERE end_score_id = ?)
      WHERE id = ?
      """, arguments: [endID, endID, endID])
  }

  /// Creates an end's row with no arrows (step 1 of a save that went no
  /// further, as a crash in seed 002's save leaves it); returns its number.
  @discardableResult
  public func openEnd(round: Int64, end: Int) throws(PersistenceError) -> Int {
    try write { db in _ = try Self.endID(db, round: round, end: end) }
    return end
  }

  /// Marks an end complete (creating it if it has no arrows yet).
  public func completeEnd(round: Int64, end: Int) throws(PersistenceError) {
    try write { db in
      let id = try Self.endID(db, round: round, end: end)
      try db.execute(sql: "UPDATE end_scores SET is_completed = 1 WHERE id = ?", arguments: [id])
    }
  }

  /// Sets the round's status (`IN_PROGRESS`, `COMPLETED`).
  func updateRoundStatus(round: Int64, status: String) throws(PersistenceError) {
    try write { db in try db.execute(sql: "UPDATE rounds SET status = ? WHERE id = ?", arguments: [status, round]) }
  }

  static func endID(_ db: Database, round: Int64, end: Int) throws -> Int64 {
    guard try Int64.fetchOne(db, sql: "SELECT id FROM rounds WHERE id = ?", arguments: [round]) != nil else {
      throw PersistenceError("round \(round) does not exist")
    }
    if let id = try Int64.fetchOne(db, sql: "SELECT id FROM end_scores WHERE round_id = ? AND end_number = ?", arguments: [round, end]) {
      return id
    }
    try db.execute(sql: "INSERT INTO end_scores (round_id, end_number) VALUES (?, ?)", arguments: [round, end])
    return db.lastInsertedRowID
  }

  func write<T>(_ body: (Database) throws -> T) throws(PersistenceError) -> T {
    do { return try db.write(body) } catch let e as PersistenceError { throw e } catch { throw PersistenceError("\(error)") }
  }

  func read<T>(_ body: (Database) throws -> T) throws(PersistenceError) -> T {
    do { return try db.read(body) } catch let e as PersistenceError { throw e } catch { throw PersistenceError("\(error)") }
  }
}
