import GRDB

extension RoundStore {
  /// The round with every end and arrow, ends and arrows in number order.
  /// A value of the wrong kind (text where a number belongs, a coordinate past
  /// Float's range, a round with no arrows per end) is an error naming its
  /// table, row and column, never a trap.
  func snapshot(round: Int64) throws(PersistenceError) -> RoundSnapshot {
    try read { db in
      guard let r = try Row.fetchOne(db, sql: "SELECT * FROM rounds WHERE id = ?", arguments: [round]) else {
        throw PersistenceError("round \(round) does not exist in '\(path)'")
      }
      let rc = Cells(row: r, table: "rounds", id: round)
      let arrowsPerEnd = try rc.whole("arrows_per_end", in: 1...Self.numberLimit)
      let endCount = try rc.whole("end_count", in: 0...Self.numberLimit)
      let ends = try Row.fetchAll(db, sql: "SELECT * FROM end_scores WHERE round_id = ? ORDER BY end_number", arguments: [round])
      return RoundSnapshot(
        id: round, name: try rc.value("name"), face: try rc.value("face"), arrowsPerEnd: arrowsPerEnd, endCount: endCount,
        status: try rc.value("status"),
        ends: try ends.map { e in
          let ec = Cells(row: e, table: "end_scores", id: e["id"] as Int64?)
          let endNumber = try ec.whole("end_number", in: 1...Self.numberLimit), endID: Int64 = try ec.value("id")
          let arrows = try Row.fetchAll(db, sql: "SELECT * FROM arrow_scores WHERE end_score_id = ? ORDER BY arrow_number", arguments: [endID])
          return RoundSnapshot.End(
            number: endNumber, total: try ec.value("total_score"), xCount: try ec.value("x_count"),
            isCompleted: try ec.flag("is_completed"),
            arrows: try arrows.map { a in
              let ac = Cells(row: a, table: "arrow_scores", id: a["id"] as Int64?)
              return StoredArrow(rowID: try ac.value("id"), endNumber: endNumber, arrowNumber: try ac.whole("arrow_number", in: 1...Self.numberLimit),
                                 score: try ac.whole("score_value", in: -Self.numberLimit...Self.numberLimit), isX: try ac.flag("is_x"),
                                 x: try ac.coordinate("x_coordinate"), y: try ac.coordinate("y_coordinate"),
                                 inputMethod: try ac.value("input_method"))
            })
        })
    }
  }

  /// The largest end, arrow or per-end count a stored round may hold: far beyond any
  /// real round, and small enough that the arithmetic on it cannot overflow.
  static let numberLimit = 1_000_000

  /// Arrows per end of round `round`, or nil when there is no such round: the
  /// most arrow numbers an end of it may hold and still resume.
  public func arrowsPerEnd(round: Int64) throws(PersistenceError) -> Int? {
    try read { db in try Int.fetchOne(db, sql: "SELECT arrows_per_end FROM rounds WHERE id = ?", arguments: [round]) }
  }

  /// The face round `round` is scored on, or nil when there is no such round.
  public func face(round: Int64) throws(PersistenceError) -> String? {
    try read { db in try String.fetchOne(db, sql: "SELECT face FROM rounds WHERE id = ?", arguments: [round]) }
  }

  /// The settings row and schema version.
  func settings() throws(PersistenceError) -> CameraSettings {
    try read { db in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      let row = try Row.fetchOne(db, sql: "SELECT * FROM settings WHERE id = 1")
      let has = row?.hasColumn("camera_score_enabled") ?? false
      return CameraSettings(userVersion: version,
                            cameraScoreEnabled: has ? row?["camera_score_enabled"] : nil,
                            saveArrowImages: has ? row?["save_arrow_images"] : nil,
                            arrowImageStorageURI: has ? row?["arrow_image_storage_uri"] : nil)
    }
  }

  /// `PRAGMA integrity_check` ("ok" when sound).
  func integrityCheck() throws(PersistenceError) -> String {
    try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
  }

  /// A deterministic text dump of every table (row order by id), for goldens.
  public func dump() throws(PersistenceError) -> String {
    try read { db in
      var out = "user_version \(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)\n"
      for table in ["rounds", "end_scores", "arrow_scores", "settings"] {
        out += "# \(table)\n"
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
          out += row.columnNames.map { name in "\(name)=\(Self.text(row[name] as DatabaseValue))" }.joined(separator: " ") + "\n"
        }
      }
      return out
    }
  }

  static func text(_ v: DatabaseValue) -> String {
    switch v.storage {
    case .null: return "NULL"
    case .int64(let i): return String(i)
    case .double(let d): return d.description
    case .string(let s): return "'\(s)'"
    case .blob(let b): return "blob(\(b.count))"
    }
  }
}

/// One row's cells read with their kind checked: GRDB's subscripts trap on a
/// value they cannot convert, and a database is input a user may hand over.
struct Cells {
  let row: Row, table: String, id: Int64?

  /// The error for `column`'s value: "arrow_scores row 3, x_coordinate 'abc': expected a number".
  func wrong(_ column: String, _ expected: String) -> PersistenceError {
    let v: DatabaseValue = row[column] ?? .null
    return PersistenceError("\(table) row \(id.map(String.init) ?? "?"), \(column) \(RoundStore.text(v)): \(expected)")
  }

  /// The cell as T, or an error naming it (a NULL where a value belongs too).
  func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
    guard row.hasColumn(column) else { throw PersistenceError("\(table) has no column \(column): expected the app's schema") }
    let v: DatabaseValue = row[column]
    guard let t = T.fromDatabaseValue(v) else { throw wrong(column, "expected \(Self.kind(T.self))") }
    return t
  }

  /// A whole number stored as one (not 9.5, not text) within `range`.
  func whole(_ column: String, in range: ClosedRange<Int>) throws -> Int {
    guard row.hasColumn(column) else { throw PersistenceError("\(table) has no column \(column): expected the app's schema") }
    let v: DatabaseValue = row[column]
    guard case .int64(let i) = v.storage, let n = Int(exactly: i), range.contains(n) else {
      throw wrong(column, "expected a whole number in \(range.lowerBound)...\(range.upperBound)")
    }
    return n
  }

  /// A stored flag: 0 or 1, nothing else.
  func flag(_ column: String) throws -> Bool {
    guard row.hasColumn(column) else { throw PersistenceError("\(table) has no column \(column): expected the app's schema") }
    let v: DatabaseValue = row[column]
    guard case .int64(let i) = v.storage, i == 0 || i == 1 else { throw wrong(column, "expected 0 or 1") }
    return i == 1
  }

  /// A stored coordinate: NULL (dropped), or a finite number within Float's range.
  func coordinate(_ column: String) throws -> Float? {
    guard row.hasColumn(column) else { throw PersistenceError("\(table) has no column \(column): expected the app's schema") }
    let v: DatabaseValue = row[column]
    if v.isNull { return nil }
    guard let d = Double.fromDatabaseValue(v), d.isFinite, abs(d) <= Double(Float.greatestFiniteMagnitude) else {
      throw wrong(column, "expected a finite number within Float's range, or NULL")
    }
    return Float(d)
  }

  static func kind(_ t: Any.Type) -> String {
    switch t {
    case is Int.Type, is Int64.Type: return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    case is Bool.Type: return "0 or 1"
    case is String.Type: return "text"
    default: return "\(t)"
    }
  }
}
