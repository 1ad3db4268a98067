// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Chat messages in the `messages` table, ordered per device by time, then by insertion (`seq`).
public struct SQLiteChatRepository: ChatRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func append(_ messages: [ChatMessage]) async throws {
        guard !messages.isEmpty else { return }
        try await database.pool.write { db in
            // One past the highest sequence stored: later than every message kept, even after pruning.
            var seq = (try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM messages") ?? 0) + 1
            // An upsert, not INSERT OR REPLACE: a replaced message keeps its place among equal times.
            let statement = try db.cachedStatement(sql: """
                INSERT INTO messages (id, seq, device_id, direction, body, body_is_text, time, delivery)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                  device_id = excluded.device_id, direction = excluded.direction, body = excluded.body,
                  body_is_text = excluded.body_is_text, time = excluded.time, delivery = excluded.delivery
                """)
            for message in messages {
                let isText: Bool
                if case .text = message.body { isText = true } else { isText = false }
                try statement.execute(arguments: [
                    message.id.uuidString, seq, message.device.storageKey, message.direction.rawValue,
                    Data(message.body.bytes), isText, message.time.timeIntervalSince1970, message.delivery.rawValue,
                ])
                seq += 1
            }
        }
    }

    public func setDelivery(_ delivery: ChatDelivery, of id: UUID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "UPDATE messages SET delivery = ? WHERE id = ?", arguments: [delivery.rawValue, id.uuidString])
        }
    }

    public func page(for device: DeviceID, offset: Int, limit: Int) async throws -> [ChatMessage] {
        // SQLite reads a negative LIMIT as "no limit"; the port means "nothing".
        guard limit > 0 else { return [] }
        return try await database.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM messages WHERE device_id = ? ORDER BY time, seq LIMIT ? OFFSET ?
                """, arguments: [device.storageKey, limit, max(0, offset)]).compactMap(Self.message)
        }
    }

    public func count(for device: DeviceID) async throws -> Int {
        try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages WHERE device_id = ?", arguments: [device.storageKey]) ?? 0
        }
    }

    @discardableResult
    public func prune(_ retention: ChatRetention, now: Date) async throws -> Int {
        try await database.pool.write { db in
            var deleted = 0
            if let days = retention.days {
                let cutoff = now.addingTimeInterval(-Double(days) * 86_400).timeIntervalSince1970
                try db.execute(sql: "DELETE FROM messages WHERE time < ?", arguments: [cutoff])
                deleted += db.changesCount
            }
            let keep = max(0, retention.maxPerDevice)
            let over = try Row.fetchAll(db, sql: """
                SELECT device_id, COUNT(*) AS n FROM messages GROUP BY device_id HAVING n > ?
                """, arguments: [keep])
            let trim = try db.cachedStatement(sql: """
                DELETE FROM messages WHERE id IN
                  (SELECT id FROM messages WHERE device_id = ? ORDER BY time, seq LIMIT ?)
                """)
            for row in over {
                let device: DatabaseValue = row["device_id"]
                let count: Int64 = row["n"]
                try trim.execute(arguments: [device, count - Int64(keep)])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    /// A row as a message, or nil when any column cannot be read (a damaged or foreign row
    /// is skipped, never trapped on). Values are read as `DatabaseValue` because GRDB's
    /// typed subscripts trap on a value of the wrong type.
    static func message(_ row: Row) -> ChatMessage? {
        guard let idText = String.fromDatabaseValue(row["id"]), let id = UUID(uuidString: idText),
              let key = String.fromDatabaseValue(row["device_id"]), let device = try? DeviceID(storageKey: key),
              let direction = String.fromDatabaseValue(row["direction"]).flatMap(ChatDirection.init(rawValue:)),
              let delivery = String.fromDatabaseValue(row["delivery"]).flatMap(ChatDelivery.init(rawValue:)),
              let time = Double.fromDatabaseValue(row["time"]),
              let isText = Bool.fromDatabaseValue(row["body_is_text"]),
              let data = Data.fromDatabaseValue(row["body"])
        else { return nil }
        let bytes = [UInt8](data)
        // Text that is not UTF-8 (written by hand, say) keeps its bytes rather than being dropped.
        let body = isText ? ChatBody(decoding: bytes) : .bytes(bytes)
        return ChatMessage(id: id, device: device, direction: direction, body: body,
                           time: Date(timeIntervalSince1970: time), delivery: delivery)
    }
}
