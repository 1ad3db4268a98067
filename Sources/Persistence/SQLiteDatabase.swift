// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GRDB

/// The FavBlue database file: a GRDB pool in WAL mode with versioned migrations.
public final class SQLiteDatabase: Sendable {
    /// The open pool.
    public let pool: DatabasePool
    /// Where the file is.
    public let path: String

    /// The migrations, in order. Never edit a shipped one; add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-favorites-sightings") { db in
            try db.execute(sql: """
                CREATE TABLE favorites (
                  device_id TEXT PRIMARY KEY NOT NULL,
                  nickname TEXT,
                  last_name TEXT,
                  added_at DOUBLE NOT NULL,
                  updated_at DOUBLE NOT NULL
                );
                CREATE TABLE sightings (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  device_id TEXT NOT NULL,
                  time DOUBLE NOT NULL,
                  rssi INTEGER NOT NULL
                );
                CREATE INDEX sightings_device_time ON sightings(device_id, time);
                CREATE INDEX sightings_time ON sightings(time);
                CREATE TABLE schema_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                INSERT INTO schema_info (key, value) VALUES ('app', 'favblue');
                """)
        }
        migrator.registerMigration("v2-hidden-devices") { db in
            try db.execute(sql: """
                CREATE TABLE hidden_devices (
                  device_id TEXT PRIMARY KEY NOT NULL,
                  name TEXT,
                  hidden_at DOUBLE NOT NULL
                );
                CREATE TABLE known_devices (device_id TEXT PRIMARY KEY NOT NULL);
                """)
        }
        // A message body is a BLOB plus a flag, so bytes that are not UTF-8 come back exactly.
        // `seq` orders messages with equal times by insertion; it is kept when a message is replaced.
        migrator.registerMigration("v3-messages") { db in
            try db.execute(sql: """
                CREATE TABLE messages (
                  id TEXT PRIMARY KEY NOT NULL,
                  seq INTEGER NOT NULL UNIQUE,
                  device_id TEXT NOT NULL,
                  direction TEXT NOT NULL,
                  body BLOB NOT NULL,
                  body_is_text INTEGER NOT NULL,
                  time DOUBLE NOT NULL,
                  delivery TEXT NOT NULL
                );
                CREATE INDEX messages_device_time ON messages(device_id, time, seq);
                """)
        }
        // Bonds keep keys: a table of their own, never joined into exports.
        migrator.registerMigration("v4-bonds") { db in
            try db.execute(sql: """
                CREATE TABLE bonds (
                  device_id TEXT PRIMARY KEY NOT NULL,
                  irk BLOB,
                  ltk BLOB,
                  ediv INTEGER,
                  rand BLOB,
                  key_size INTEGER NOT NULL,
                  authenticated INTEGER NOT NULL,
                  secure_connections INTEGER NOT NULL,
                  created_at DOUBLE NOT NULL
                );
                """)
        }
        // Which notifications a favorite sends; 0 (none) for every favorite kept before.
        migrator.registerMigration("v5-favorite-alerts") { db in
            try db.execute(sql: "ALTER TABLE favorites ADD COLUMN alerts INTEGER NOT NULL DEFAULT 0")
        }
        // FavBlue's own IRK and static address for the HCI route: one row, made once.
        migrator.registerMigration("v6-local-identity") { db in
            try db.execute(sql: """
                CREATE TABLE local_identity (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  irk BLOB NOT NULL,
                  address TEXT NOT NULL
                );
                """)
        }
        // The names and value formats the user gave a device's characteristics.
        migrator.registerMigration("v7-characteristic-labels") { db in
            try db.execute(sql: """
                CREATE TABLE characteristic_labels (
                  device_id TEXT NOT NULL,
                  uuid TEXT NOT NULL,
                  name TEXT NOT NULL,
                  format TEXT,
                  PRIMARY KEY (device_id, uuid)
                );
                """)
        }
        // What the tracker guard saw, kept 14 days: sightings (a place only as its salted hash),
        // the alerts it raised, and Not a Threat's silences.
        migrator.registerMigration("v8-tracker-sightings") { db in
            try db.execute(sql: """
                CREATE TABLE tracker_sightings (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  tracker TEXT NOT NULL,
                  family TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  state TEXT NOT NULL,
                  device_id TEXT NOT NULL,
                  time REAL NOT NULL,
                  rssi INTEGER,
                  place TEXT,
                  session INTEGER NOT NULL
                );
                CREATE INDEX tracker_sightings_time ON tracker_sightings (time);
                CREATE TABLE tracker_alerts (
                  tracker TEXT PRIMARY KEY NOT NULL,
                  family TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  addresses TEXT NOT NULL,
                  first_seen REAL NOT NULL,
                  last_seen REAL NOT NULL,
                  places INTEGER NOT NULL
                );
                CREATE TABLE tracker_silences (
                  tracker TEXT PRIMARY KEY NOT NULL,
                  until REAL NOT NULL
                );
                """)
        }
        // Favorites' sensor readings, one a minute per reading, bounded as sightings are.
        migrator.registerMigration("v9-sensor-readings") { db in
            try db.execute(sql: """
                CREATE TABLE sensor_readings (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  device_id TEXT NOT NULL,
                  time REAL NOT NULL,
                  key TEXT NOT NULL,
                  value REAL NOT NULL
                );
                CREATE INDEX sensor_readings_device_time ON sensor_readings (device_id, time);
                """)
        }
        // The limits on a favorite's readings that send a notification ("temperature>25").
        migrator.registerMigration("v10-reading-limits") { db in
            try db.execute(sql: "ALTER TABLE favorites ADD COLUMN reading_limits TEXT NOT NULL DEFAULT ''")
        }
        // The advertisements and the server set up to act as a device, as FavBlue's own file.
        migrator.registerMigration("v11-peripheral-setups") { db in
            try db.execute(sql: """
                CREATE TABLE peripheral_setups (
                  name TEXT PRIMARY KEY NOT NULL,
                  file TEXT NOT NULL,
                  updated REAL NOT NULL
                );
                """)
        }
        // What FavBlue's GATT server keeps of a bonded client between its links (its
        // subscriptions persist across connections, Vol 3, Part G, §3.3.3.3), by identity.
        migrator.registerMigration("v12-served-clients") { db in
            try db.execute(sql: """
                CREATE TABLE served_clients (
                  device_id TEXT PRIMARY KEY NOT NULL,
                  memory BLOB NOT NULL
                );
                """)
        }
        return migrator
    }

    /// Why a file could not be used.
    enum OpenError: Error {
        /// Not a database, or damaged.
        case unreadable(String)
        /// Written by a newer FavBlue.
        case newerSchema
        /// The folder or disk refuses writes.
        case notWritable(String)
    }

    /// Opens (creating if needed) the database at `path` and migrates it.
    init(path: String) throws(OpenError) {
        self.path = path
        if FileManager.default.fileExists(atPath: path) { try Self.inspect(path) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw Self.classify(error)
        }
        // The file holds personal data: owner only.
        chmod(path, 0o600)
        do {
            try Self.migrator.migrate(pool)
        } catch let error as OpenError {
            throw error
        } catch {
            throw Self.classify(error)
        }
        self.pool = pool
    }

    /// Checks an existing file read-only, because opening the pool already writes to it
    /// (WAL mode), and a damaged, foreign or newer file must stay exactly as it is.
    static func inspect(_ path: String) throws(OpenError) {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check")
                guard check == "ok" else { throw OpenError.unreadable(check ?? "quick_check failed") }
                if try isForeign(db) { throw OpenError.unreadable("not a FavBlue database") }
                if try migrator.hasBeenSuperseded(db) { throw OpenError.newerSchema }
            }
        } catch let error as OpenError {
            throw error
        } catch {
            let classified = classify(error)
            // A read-only look can be refused where writing works (a WAL file without
            // its shared-memory file); only a damaged file stops us here.
            if case .unreadable = classified { throw classified }
        }
    }

    /// A database with tables but none of our migration records belongs to something else;
    /// migrating it would write our tables into another program's file.
    static func isForeign(_ db: Database) throws -> Bool {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        return !tables.isEmpty && !tables.contains("grdb_migrations")
    }

    /// Sorts SQLite failures into "damaged file" and "cannot write here".
    static func classify(_ error: Error) -> OpenError {
        guard let error = error as? DatabaseError else { return .notWritable(String(describing: error)) }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
            return .unreadable(error.message ?? "\(error.resultCode)")
        default:
            return .notWritable(error.message ?? "\(error.resultCode)")
        }
    }
}
