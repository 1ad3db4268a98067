// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Favorites' sensor readings in the SQLite file.
public struct SQLiteSensorReadingsRepository: SensorReadingsRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func record(_ samples: [SensorSample]) async throws {
        guard !samples.isEmpty else { return }
        try await database.pool.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO sensor_readings (device_id, time, key, value) VALUES (?, ?, ?, ?)")
            for sample in samples {
                try statement.execute(arguments: [sample.id.storageKey, sample.time.timeIntervalSince1970, sample.key, sample.value])
            }
        }
    }

    public func history(for id: DeviceID, since: Date) async throws -> [SensorSample] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT time, key, value FROM sensor_readings WHERE device_id = ? AND time >= ? ORDER BY time, id",
                             arguments: [id.storageKey, since.timeIntervalSince1970]).map { row in
                SensorSample(id: id, time: Date(timeIntervalSince1970: row["time"]), key: row["key"], value: row["value"])
            }
        }
    }

    @discardableResult
    public func prune(_ retention: SightingRetention, now: Date) async throws -> Int {
        try await database.prune("sensor_readings", retention, now: now)
    }
}

/// Favorites' sensor readings for a session that must not write.
public actor InMemorySensorReadingsRepository: SensorReadingsRepository {
    private var samples: [SensorSample] = []

    public init() {}

    public func record(_ batch: [SensorSample]) { samples.append(contentsOf: batch) }

    /// Re-keys a device's readings (`InMemoryRecordsMover`).
    func move(from old: DeviceID, to new: DeviceID) {
        samples = samples.map { $0.id == old ? SensorSample(id: new, time: $0.time, key: $0.key, value: $0.value) : $0 }
    }

    public func history(for id: DeviceID, since: Date) -> [SensorSample] {
        samples.filter { $0.id == id && $0.time >= since }.sorted { $0.time < $1.time }
    }

    @discardableResult
    public func prune(_ retention: SightingRetention, now: Date) -> Int {
        InMemoryRetention.prune(&samples, time: \.time, retention, now: now)
    }
}
