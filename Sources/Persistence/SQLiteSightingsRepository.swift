// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Signal readings in the SQLite file.
public struct SQLiteSightingsRepository: SightingsRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func record(_ sightings: [Sighting]) async throws {
        guard !sightings.isEmpty else { return }
        try await database.pool.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO sightings (device_id, time, rssi) VALUES (?, ?, ?)")
            for sighting in sightings {
                try statement.execute(arguments: [sighting.id.storageKey, sighting.time.timeIntervalSince1970, sighting.rssi])
            }
        }
    }

    public func summary(for id: DeviceID) async throws -> SightingSummary? {
        try await database.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT MIN(time) AS first, MAX(time) AS last, COUNT(*) AS n FROM sightings WHERE device_id = ?
                """, arguments: [id.storageKey]), let count: Int = row["n"], count > 0 else { return nil }
            return SightingSummary(firstSeen: Date(timeIntervalSince1970: row["first"]),
                                   lastSeen: Date(timeIntervalSince1970: row["last"]), count: count)
        }
    }

    public func history(for id: DeviceID, since: Date) async throws -> [Sighting] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT time, rssi FROM sightings WHERE device_id = ? AND time >= ? ORDER BY time",
                             arguments: [id.storageKey, since.timeIntervalSince1970]).map { row in
                Sighting(id: id, time: Date(timeIntervalSince1970: row["time"]), rssi: row["rssi"])
            }
        }
    }

    @discardableResult
    public func prune(_ retention: SightingRetention, now: Date) async throws -> Int {
        try await database.prune("sightings", retention, now: now)
    }
}

extension SQLiteDatabase {
    /// Deletes `table`'s rows older than `retention.days` (its `time` column), then its oldest
    /// beyond `retention.maxRows`; returns how many went.
    func prune(_ table: String, _ retention: SightingRetention, now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(retention.days) * 86_400).timeIntervalSince1970
        return try await pool.write { db in
            try db.execute(sql: "DELETE FROM \(table) WHERE time < ?", arguments: [cutoff])
            var deleted = db.changesCount
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            if count > retention.maxRows {
                try db.execute(sql: "DELETE FROM \(table) WHERE id IN (SELECT id FROM \(table) ORDER BY time, id LIMIT ?)",
                               arguments: [count - retention.maxRows])
                deleted += db.changesCount
            }
            return deleted
        }
    }
}
