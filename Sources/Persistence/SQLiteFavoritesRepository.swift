// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Favorites in the SQLite file.
public struct SQLiteFavoritesRepository: FavoritesRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func all() async throws -> [Favorite] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM favorites").compactMap(Self.favorite)
        }
    }

    public func favorite(_ id: DeviceID) async throws -> Favorite? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM favorites WHERE device_id = ?", arguments: [id.storageKey])
                .flatMap(Self.favorite)
        }
    }

    public func save(_ favorite: Favorite) async throws {
        try await database.pool.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO favorites (device_id, nickname, last_name, added_at, updated_at, alerts, reading_limits)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [favorite.id.storageKey, favorite.nickname, favorite.lastKnownName,
                                 favorite.addedAt.timeIntervalSince1970, favorite.updatedAt.timeIntervalSince1970,
                                 favorite.alerts.rawValue, ReadingLimit.encode(favorite.readingLimits)])
        }
    }

    public func remove(_ id: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM favorites WHERE device_id = ?", arguments: [id.storageKey])
        }
    }

    /// A row as a favorite; a row with an unparsable id is skipped rather than trapping.
    static func favorite(_ row: Row) -> Favorite? {
        guard let key: String = row["device_id"], let id = try? DeviceID(storageKey: key) else { return nil }
        return Favorite(id: id, nickname: row["nickname"], lastKnownName: row["last_name"],
                        addedAt: Date(timeIntervalSince1970: row["added_at"]),
                        updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
                        alerts: PresenceAlerts(rawValue: row["alerts"] ?? 0),
                        readingLimits: ReadingLimit.decode(row["reading_limits"] ?? ""))
    }
}
