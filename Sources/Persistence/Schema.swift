import GRDB

/// The app database's schema as named, append-only migrations (never edited
/// once shipped). Version numbers mirror the app's Room versions.
enum Schema {
  static let baseline = "v36-baseline"
  static let cameraScoring = "v37-camera-scoring"

  static var migrator: DatabaseMigrator {
    var m = DatabaseMigrator()
    m.registerMigration(baseline) { db in
      try db.execute(sql: """
        CREATE TABLE rounds (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          face TEXT NOT NULL,
          arrows_per_end INTEGER NOT NULL,
          end_count INTEGER NOT NULL,
          status TEXT NOT NULL DEFAULT 'IN_PROGRESS',
          created_at TEXT NOT NULL);
        CREATE TABLE end_scores (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
          end_number INTEGER NOT NULL,
          total_score INTEGER NOT NULL DEFAULT 0,
          x_count INTEGER NOT NULL DEFAULT 0,
          is_completed INTEGER NOT NULL DEFAULT 0,
          UNIQUE (round_id, end_number));
        CREATE TABLE arrow_scores (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          end_score_id INTEGER NOT NULL REFERENCES end_scores(id) ON DELETE CASCADE,
          arrow_number INTEGER NOT NULL,
          score_value INTEGER NOT NULL,
          is_x INTEGER NOT NULL,
          x_coordinate REAL,
          y_coordinate REAL,
          input_method TEXT NOT NULL DEFAULT 'MANUAL',
          UNIQUE (end_score_id, arrow_number));
        CREATE TABLE settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          theme TEXT NOT NULL DEFAULT 'system');
        INSERT INTO settings (id) VALUES (1);
        PRAGMA user_version = 36;
        """)
    }
    // Seed 001: migration 36 → 37 adds the camera-scoring settings.
    m.registerMigration(cameraScoring) { db in
      try db.execute(sql: """
        ALTER TABLE settings ADD COLUMN camera_score_enabled INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE settings ADD COLUMN save_arrow_images INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE settings ADD COLUMN arrow_image_storage_uri TEXT;
        PRAGMA user_version = 37;
        """)
    }
    return m
  }
}
