import GRDB

extension RoundStore {
  /// The round with every end and arrow, ends and arrows in number order.
  func snapshot(round: Int64) throws(PersistenceError) -> RoundSnapshot {
    try read { db in
      guard let r = try Row.fetchOne(db, sql: "SELECT * FROM rounds WHERE id = ?", arguments: [round]) else {
        throw PersistenceError("round \(round) does not exist in '\(path)'")
      }
      let ends = try Row.fetchAll(db, sql: "SELECT * FROM end_scores WHERE round_id = ? ORDER BY end_number", arguments: [round])
      return RoundSnapshot(
        id: r["id"], name: r["name"], face: r["face"], arrowsPerEnd: r["arrows_per_end"], endCount: r["end_count"],
        status: r["status"],
        ends: try ends.map { e in
          let endNumber: Int = e["end_number"]
          let arrows = try Row.fetchAll(db, sql: "SELECT * FROM arrow_scores WHERE end_score_id = ? ORDER BY arrow_number", arguments: [e["id"] as Int64])
          return RoundSnapshot.End(
            number: endNumber, total: e["total_score"], xCount: e["x_count"], isCompleted: e["is_completed"],
            arrows: arrows.map { a in
              StoredArrow(rowID: a["id"], endNumber: endNumber, arrowNumber: a["arrow_number"], score: a["score_value"],
                          isX: a["is_x"], x: (a["x_coordinate"] as Double?).map(Float.init),
                          y: (a["y_coordinate"] as Double?).map(Float.init), inputMethod: a["input_method"])
            })
        })
    }
  }

  /// Arrows per end of round `round`, or nil when there is no such round: the
  /// most arrow numbers an end of it may hold and still resume.
  public func arrowsPerEnd(round: Int64) throws(PersistenceError) -> Int? {
    try read { db in try Int.fetchOne(db, sql: "SELECT arrows_per_end FROM rounds WHERE id = ?", arguments: [round]) }
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
