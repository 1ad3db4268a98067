// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB
@testable import Persistence
import XCTest

/// What only the SQLite file can show: messages outlive the process, older files gain the
/// messages table without losing anything, the page query uses its index, and a bad row is skipped.
final class ChatStorageTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/" + StoreFactory.fileName }

    override func setUp() {
        super.setUp()
        directory = NSTemporaryDirectory() + "favblue-chatfile-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    private let device = DeviceID(octets: [0xAB, 0xCD, 0xEF, 1, 2, 3], kind: .leRandom)

    private func message(_ body: ChatBody, at seconds: Double) -> ChatMessage {
        ChatMessage(device: device, direction: .incoming, body: body,
                    time: Date(timeIntervalSince1970: 1_700_000_000 + seconds), delivery: .sent)
    }

    func testMessagesSurviveReopeningTheFile() async throws {
        let sent = [message(.text("before the restart ✓"), at: 1), message(.bytes([0xFF, 0x00, 0x80]), at: 1),
                    message(.text("last"), at: 2)]
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            try await store.chats.append(sent)
            try await store.chats.setDelivery(.notSent, of: sent[2].id)
        }
        let store = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertTrue(store.notices.isEmpty, "\(store.notices)")
        var expected = sent
        expected[2].delivery = .notSent
        let read = try await store.chats.page(for: device, offset: 0, limit: 10)
        XCTAssertEqual(read, expected)
    }

    func testADatabaseFromBeforeMessagesMigratesAndKeepsItsFavorites() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try SQLiteDatabase.migrator.migrate(queue, upTo: "v2-hidden-devices")
        try await queue.write { [device] db in
            XCTAssertFalse(try db.tableExists("messages"), "the old file has no messages table")
            try db.execute(sql: """
                INSERT INTO favorites (device_id, nickname, last_name, added_at, updated_at)
                VALUES (?, 'Bike ⚡', 'Lock', 10, 20)
                """, arguments: [device.storageKey])
        }
        try queue.close()

        let store = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertTrue(store.notices.isEmpty, "\(store.notices)")
        let favorites = try await store.favorites.all()
        XCTAssertEqual(favorites, [Favorite(id: device, nickname: "Bike ⚡", lastKnownName: "Lock",
                                            addedAt: Date(timeIntervalSince1970: 10), updatedAt: Date(timeIntervalSince1970: 20))])
        try await store.chats.append([message(.text("hi"), at: 0)])
        let count = try await store.chats.count(for: device)
        XCTAssertEqual(count, 1)
        let applied = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        // In the text order SQLite sorts them by: v10, v11 and v12 after v1.
        XCTAssertEqual(applied, ["v1-favorites-sightings", "v10-reading-limits", "v11-peripheral-setups", "v12-served-clients", "v2-hidden-devices", "v3-messages", "v4-bonds",
                                 "v5-favorite-alerts", "v6-local-identity", "v7-characteristic-labels", "v8-tracker-sightings",
                                 "v9-sensor-readings"])
    }

    func testAPageIsReadThroughTheDeviceTimeIndexWithoutSorting() throws {
        _ = StoreFactory.open(.sqlite, directory: directory)
        let plan = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT * FROM messages WHERE device_id = ? ORDER BY time, seq LIMIT ? OFFSET ?
                """, arguments: ["x", 10, 0]).map { row -> String in row["detail"] }.joined(separator: "\n")
        }
        XCTAssertTrue(plan.contains("messages_device_time"), plan)
        XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
    }

    func testARowThatCannotBeReadIsSkipped() async throws {
        let store = StoreFactory.open(.sqlite, directory: directory)
        let good = [message(.text("good"), at: 1), message(.text("also good"), at: 5)]
        try await store.chats.append(good)
        let pool = try DatabasePool(path: path)
        try await pool.write { [device] db in
            let insert = """
                INSERT INTO messages (id, seq, device_id, direction, body, body_is_text, time, delivery)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
            let key = device.storageKey
            let rows: [StatementArguments] = [
                ["not-a-uuid", 100, key, "incoming", Data("x".utf8), 1, 1_700_000_002, "sent"],
                [UUID().uuidString, 101, key, "sideways", Data("x".utf8), 1, 1_700_000_002, "sent"],
                [UUID().uuidString, 102, key, "incoming", Data("x".utf8), 1, "soon", "sent"],
                [UUID().uuidString, 103, key, "incoming", Data("x".utf8), "maybe", 1_700_000_002, "sent"],
                [UUID().uuidString, 104, key, "incoming", Data("x".utf8), 1, 1_700_000_002, "lost"],
            ]
            for arguments in rows { try db.execute(sql: insert, arguments: arguments) }
        }
        try pool.close()
        let read = try await store.chats.page(for: device, offset: 0, limit: 100)
        XCTAssertEqual(read, good)
    }
}
