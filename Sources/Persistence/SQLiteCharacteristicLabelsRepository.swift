// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Characteristic labels in `characteristic_labels`, one row per device and characteristic.
public struct SQLiteCharacteristicLabelsRepository: CharacteristicLabelsRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func labels(of device: DeviceID) async throws -> [String: CharacteristicLabel] {
        try await database.pool.read { db in
            var out: [String: CharacteristicLabel] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM characteristic_labels WHERE device_id = ?",
                                        arguments: [device.storageKey]) {
                guard let uuid: String = row["uuid"], let name: String = row["name"] else { continue }
                // An unknown format (from a newer FavBlue) keeps the name and reads as usual.
                let format = (row["format"] as String?).flatMap(ValueInputFormat.init(storageKey:))
                out[uuid] = CharacteristicLabel(uuid: uuid, name: name, format: format)
            }
            return out
        }
    }

    public func save(_ label: CharacteristicLabel, for device: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO characteristic_labels (device_id, uuid, name, format) VALUES (?, ?, ?, ?)",
                           arguments: [device.storageKey, label.uuid, label.name, label.format?.storageKey])
        }
    }

    public func remove(uuid: String, for device: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM characteristic_labels WHERE device_id = ? AND uuid = ?",
                           arguments: [device.storageKey, uuid])
        }
    }
}
