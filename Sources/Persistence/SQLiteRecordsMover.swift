// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GRDB

/// Re-keys a device's rows in every table in one transaction, so a crash leaves them all
/// under one key or the other.
public struct SQLiteRecordsMover: RecordsMover {
    let database: SQLiteDatabase

    public init(database: SQLiteDatabase) { self.database = database }

    public func moveRecords(from old: DeviceID, to new: DeviceID) async throws {
        guard old != new else { return }
        let (from, to) = (old.storageKey, new.storageKey)
        try await database.pool.write { db in
            // The favorite: the one already there wins, taking the old nickname if it has none.
            try db.execute(sql: """
                UPDATE favorites SET nickname = (SELECT nickname FROM favorites WHERE device_id = :from)
                 WHERE device_id = :to AND (nickname IS NULL OR nickname = '');
                UPDATE favorites SET last_name = (SELECT last_name FROM favorites WHERE device_id = :from)
                 WHERE device_id = :to AND last_name IS NULL;
                UPDATE favorites SET reading_limits = (SELECT reading_limits FROM favorites WHERE device_id = :from)
                 WHERE device_id = :to AND reading_limits = '' AND EXISTS (SELECT 1 FROM favorites WHERE device_id = :from);
                UPDATE OR IGNORE favorites SET device_id = :to WHERE device_id = :from;
                DELETE FROM favorites WHERE device_id = :from;
                UPDATE OR IGNORE hidden_devices SET device_id = :to WHERE device_id = :from;
                DELETE FROM hidden_devices WHERE device_id = :from;
                UPDATE OR IGNORE known_devices SET device_id = :to WHERE device_id = :from;
                DELETE FROM known_devices WHERE device_id = :from;
                UPDATE OR IGNORE bonds SET device_id = :to WHERE device_id = :from;
                DELETE FROM bonds WHERE device_id = :from;
                UPDATE sightings SET device_id = :to WHERE device_id = :from;
                UPDATE sensor_readings SET device_id = :to WHERE device_id = :from;
                UPDATE messages SET device_id = :to WHERE device_id = :from;
                UPDATE OR IGNORE characteristic_labels SET device_id = :to WHERE device_id = :from;
                DELETE FROM characteristic_labels WHERE device_id = :from;
                """, arguments: ["from": from, "to": to])
        }
    }
}
