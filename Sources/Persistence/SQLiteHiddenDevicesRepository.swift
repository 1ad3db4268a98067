// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Hidden devices in `hidden_devices`; the "Only New Devices" mark as its time in
/// `schema_info` and the devices known then in `known_devices`.
public struct SQLiteHiddenDevicesRepository: HiddenDevicesRepository {
    private let database: SQLiteDatabase
    private static let markKey = "new-devices-since"

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func all() async throws -> [HiddenDevice] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM hidden_devices").compactMap { row in
                // A row with an unparsable id is skipped rather than trapping.
                guard let key: String = row["device_id"], let id = try? DeviceID(storageKey: key) else { return nil }
                return HiddenDevice(id: id, name: row["name"], hiddenAt: Date(timeIntervalSince1970: row["hidden_at"]))
            }
        }
    }

    public func hide(_ device: HiddenDevice) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO hidden_devices (device_id, name, hidden_at) VALUES (?, ?, ?)",
                           arguments: [device.id.storageKey, device.name, device.hiddenAt.timeIntervalSince1970])
        }
    }

    public func unhide(_ id: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM hidden_devices WHERE device_id = ?", arguments: [id.storageKey])
        }
    }

    public func newDevicesMark() async throws -> NewDevicesMark? {
        try await database.pool.read { db in
            guard let value = try String.fetchOne(db, sql: "SELECT value FROM schema_info WHERE key = ?",
                                                  arguments: [Self.markKey]),
                  let seconds = Double(value) else { return nil }
            let keys = try String.fetchAll(db, sql: "SELECT device_id FROM known_devices")
            return NewDevicesMark(since: Date(timeIntervalSince1970: seconds),
                                  known: Set(keys.compactMap { try? DeviceID(storageKey: $0) }))
        }
    }

    public func setNewDevicesMark(_ mark: NewDevicesMark?) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM known_devices")
            guard let mark else {
                try db.execute(sql: "DELETE FROM schema_info WHERE key = ?", arguments: [Self.markKey])
                return
            }
            try db.execute(sql: "INSERT OR REPLACE INTO schema_info (key, value) VALUES (?, ?)",
                           arguments: [Self.markKey, String(mark.since.timeIntervalSince1970)])
            let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO known_devices (device_id) VALUES (?)")
            for id in mark.known { try insert.execute(arguments: [id.storageKey]) }
        }
    }
}
