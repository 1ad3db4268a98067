// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// The tracker guard's sightings, alerts and silences in the SQLite file.
public struct SQLiteTrackerSightingsRepository: TrackerSightingsRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func record(_ sightings: [TrackerSighting]) async throws {
        guard !sightings.isEmpty else { return }
        try await database.pool.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO tracker_sightings (tracker, family, kind, state, device_id, time, rssi, place, session)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for s in sightings {
                try statement.execute(arguments: [s.tracker, s.family.rawValue, s.kind.rawValue, s.state.rawValue, s.address.storageKey,
                                                  s.time.timeIntervalSince1970, s.rssi, s.place, s.session])
            }
        }
    }

    public func sightings(since: Date) async throws -> [TrackerSighting] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tracker_sightings WHERE time >= ? ORDER BY time, id",
                             arguments: [since.timeIntervalSince1970]).compactMap(Self.sighting)
        }
    }

    /// A row read back; nil for one a newer FavBlue wrote with words this one does not know.
    private static func sighting(_ row: Row) -> TrackerSighting? {
        guard let family = TrackerFamily(rawValue: row["family"]), let kind = TrackerKind(rawValue: row["kind"]),
              let state = TrackerState(rawValue: row["state"]), let address = try? DeviceID(storageKey: row["device_id"]) else { return nil }
        return TrackerSighting(tracker: row["tracker"], family: family, kind: kind, state: state, address: address,
                               time: Date(timeIntervalSince1970: row["time"]), rssi: row["rssi"], place: row["place"], session: row["session"])
    }

    public func recordAlert(_ alert: TrackerAlert) async throws {
        try await database.pool.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO tracker_alerts (tracker, family, kind, addresses, first_seen, last_seen, places)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [alert.tracker, alert.family.rawValue, alert.kind.rawValue,
                                 alert.addresses.map(\.storageKey).joined(separator: " "),
                                 alert.firstSeen.timeIntervalSince1970, alert.lastSeen.timeIntervalSince1970, alert.places])
        }
    }

    public func alerts(since: Date) async throws -> [TrackerAlert] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tracker_alerts WHERE last_seen >= ? ORDER BY last_seen",
                             arguments: [since.timeIntervalSince1970]).compactMap { row in
                guard let family = TrackerFamily(rawValue: row["family"]), let kind = TrackerKind(rawValue: row["kind"]) else { return nil }
                let addresses = (row["addresses"] as String).split(separator: " ").compactMap { try? DeviceID(storageKey: String($0)) }
                return TrackerAlert(tracker: row["tracker"], family: family, kind: kind, addresses: addresses,
                                    firstSeen: Date(timeIntervalSince1970: row["first_seen"]),
                                    lastSeen: Date(timeIntervalSince1970: row["last_seen"]), places: row["places"])
            }
        }
    }

    public func silence(_ tracker: String, until: Date) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO tracker_silences (tracker, until) VALUES (?, ?)",
                           arguments: [tracker, until.timeIntervalSince1970])
        }
    }

    public func silences(at now: Date) async throws -> [String: Date] {
        try await database.pool.read { db in
            var found: [String: Date] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT tracker, until FROM tracker_silences WHERE until > ?",
                                        arguments: [now.timeIntervalSince1970]) {
                found[row["tracker"]] = Date(timeIntervalSince1970: row["until"])
            }
            return found
        }
    }

    @discardableResult
    public func prune(before cutoff: Date) async throws -> Int {
        try await database.pool.write { db in
            let time = cutoff.timeIntervalSince1970
            try db.execute(sql: "DELETE FROM tracker_sightings WHERE time < ?", arguments: [time])
            var deleted = db.changesCount
            try db.execute(sql: "DELETE FROM tracker_alerts WHERE last_seen < ?", arguments: [time])
            deleted += db.changesCount
            try db.execute(sql: "DELETE FROM tracker_silences WHERE until < ?", arguments: [time])
            return deleted + db.changesCount
        }
    }
}
