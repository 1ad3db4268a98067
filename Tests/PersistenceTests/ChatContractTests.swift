// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import XCTest

/// One chat contract, both backends: every test runs against SQLite on a real file and against memory.
final class ChatContractTests: XCTestCase {
    private var directories: [String] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
        super.tearDown()
    }

    private func stores() -> [(String, Store)] {
        let directory = NSTemporaryDirectory() + "favblue-chat-\(UUID().uuidString)"
        directories.append(directory)
        return [("sqlite", StoreFactory.open(.sqlite, directory: directory)),
                ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    private func id(_ n: UInt8) -> DeviceID { DeviceID(octets: [0xC0, 0xFF, 0xEE, 0, 0, n], kind: .lePublic) }

    /// Whole seconds since 1970 (plus halves), which a DOUBLE column stores exactly.
    private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    private func message(_ device: UInt8, _ text: String, at seconds: Double, _ direction: ChatDirection = .incoming,
                         delivery: ChatDelivery = .sent) -> ChatMessage {
        ChatMessage(device: id(device), direction: direction, body: .text(text), time: at(seconds), delivery: delivery)
    }

    private func texts(_ messages: [ChatMessage]) -> [String] {
        messages.map { message in
            if case .text(let text) = message.body { return text }
            return "bytes"
        }
    }

    private func all(_ chats: ChatRepository, _ device: UInt8) async throws -> [ChatMessage] {
        try await chats.page(for: id(device), offset: 0, limit: .max)
    }

    func testTextWithEmojiAndRTLAndBytesThatAreNotUTF8ComeBackExactly() async throws {
        for (name, store) in stores() {
            XCTAssertTrue(store.notices.isEmpty, name)
            let sent = [
                ChatMessage(device: id(1), direction: .outgoing, body: .text("שלום 👋🏽 e\u{0301} مرحبا\u{200F}!"),
                            time: at(0.5), delivery: .sending),
                ChatMessage(device: id(1), direction: .incoming, body: .bytes([0xC3, 0x28, 0x00, 0xFF, 0xFE]),
                            time: at(1), delivery: .sent),
                ChatMessage(device: id(1), direction: .incoming, body: .text("nul\u{0}inside"), time: at(2), delivery: .sent),
                ChatMessage(device: id(1), direction: .outgoing, body: .text(""), time: at(3), delivery: .notSent),
            ]
            try await store.chats.append(sent)
            let read = try await all(store.chats, 1)
            XCTAssertEqual(read, sent, name)
            XCTAssertEqual(read.map(\.body.bytes), sent.map(\.body.bytes), "\(name): byte for byte")
        }
    }

    func testEqualTimesKeepInsertionOrderAndDevicesStayApart() async throws {
        for (name, store) in stores() {
            try await store.chats.append([message(1, "a", at: 5), message(2, "other", at: 1),
                                          message(1, "b", at: 5), message(1, "first", at: 3)])
            try await store.chats.append([message(1, "c", at: 5), message(1, "last", at: 6)])
            try await store.chats.append([])
            let one = try await all(store.chats, 1)
            XCTAssertEqual(texts(one), ["first", "a", "b", "c", "last"], name)
            let two = try await all(store.chats, 2)
            XCTAssertEqual(texts(two), ["other"], name)
            let none = try await all(store.chats, 3)
            XCTAssertEqual(none, [], name)
        }
    }

    func testPagesWalkTenThousandMessagesOldestFirst() async throws {
        for (name, store) in stores() {
            // Stored newest first, and in pairs with equal times, so order comes from the store.
            let batch = (0..<10_000).reversed().map { n in message(1, "m\(n)", at: Double(n / 2)) }
            try await store.chats.append(batch)
            try await store.chats.append([message(2, "elsewhere", at: 0)])
            let count = try await store.chats.count(for: id(1))
            XCTAssertEqual(count, 10_000, name)
            var walked: [String] = []
            for offset in stride(from: 0, to: 10_000, by: 512) {
                walked += texts(try await store.chats.page(for: id(1), offset: offset, limit: 512))
            }
            let expected = (0..<10_000).map { n in "m\(n ^ 1)" }  // each pair was stored odd first
            XCTAssertEqual(walked, expected, name)
            let tail = try await store.chats.page(for: id(1), offset: 9_990, limit: 50)
            XCTAssertEqual(texts(tail), Array(expected.suffix(10)), name)
            let past = try await store.chats.page(for: id(1), offset: 10_000, limit: 50)
            XCTAssertEqual(past, [], name)
            let empty = try await store.chats.page(for: id(1), offset: 0, limit: 0)
            XCTAssertEqual(empty, [], name)
            let unknown = try await store.chats.count(for: id(9))
            XCTAssertEqual(unknown, 0, name)
        }
    }

    func testDeliveryMovesFromSendingToSentOrNotSent() async throws {
        for (name, store) in stores() {
            let ok = message(1, "ok", at: 1, .outgoing, delivery: .sending)
            let lost = message(1, "lost", at: 2, .outgoing, delivery: .sending)
            try await store.chats.append([ok, lost])
            try await store.chats.setDelivery(.sent, of: ok.id)
            try await store.chats.setDelivery(.notSent, of: lost.id)
            try await store.chats.setDelivery(.sent, of: UUID())
            let read = try await all(store.chats, 1)
            XCTAssertEqual(read.map(\.delivery), [.sent, .notSent], name)
            XCTAssertEqual(read.map(\.id), [ok.id, lost.id], name)
        }
    }

    func testAppendingAStoredIdReplacesItAndKeepsItsPlace() async throws {
        for (name, store) in stores() {
            let retried = message(1, "retry me", at: 5, .outgoing, delivery: .notSent)
            try await store.chats.append([message(1, "before", at: 5), retried, message(1, "after", at: 5)])
            var again = retried
            again.delivery = .sending
            try await store.chats.append([again])
            let read = try await all(store.chats, 1)
            XCTAssertEqual(texts(read), ["before", "retry me", "after"], name)
            XCTAssertEqual(read[1], again, name)
            let count = try await store.chats.count(for: id(1))
            XCTAssertEqual(count, 3, name)
        }
    }

    func testPruningByDaysDeletesOlderMessagesOfEveryDevice() async throws {
        for (name, store) in stores() {
            let now = at(100 * 86_400)
            try await store.chats.append([
                message(1, "old", at: 60 * 86_400), message(2, "old too", at: 69 * 86_400),
                message(1, "recent", at: 71 * 86_400), message(2, "new", at: 100 * 86_400),
            ])
            let deleted = try await store.chats.prune(ChatRetention(days: 30, maxPerDevice: 100), now: now)
            XCTAssertEqual(deleted, 2, name)
            let one = try await all(store.chats, 1)
            let two = try await all(store.chats, 2)
            XCTAssertEqual(texts(one), ["recent"], name)
            XCTAssertEqual(texts(two), ["new"], name)
            let again = try await store.chats.prune(.standard, now: now)
            XCTAssertEqual(again, 0, "\(name): no age limit, well under the cap")
        }
    }

    func testPruningByCountDropsEachDevicesOldestFirst() async throws {
        for (name, store) in stores() {
            // Device 1 has ties at the cut, so insertion order decides which of them goes.
            try await store.chats.append([message(1, "t2a", at: 2), message(1, "t1", at: 1), message(1, "t2b", at: 2),
                                          message(1, "t3", at: 3), message(2, "x", at: 0), message(2, "y", at: 9)])
            let deleted = try await store.chats.prune(ChatRetention(days: nil, maxPerDevice: 2), now: at(10))
            XCTAssertEqual(deleted, 2, name)
            let one = try await all(store.chats, 1)
            let two = try await all(store.chats, 2)
            XCTAssertEqual(texts(one), ["t2b", "t3"], name)
            XCTAssertEqual(texts(two), ["x", "y"], "\(name): a device under the cap keeps everything")
            let rest = try await store.chats.prune(ChatRetention(days: nil, maxPerDevice: 0), now: at(10))
            XCTAssertEqual(rest, 4, name)
            let left = try await store.chats.count(for: id(1)) + store.chats.count(for: id(2))
            XCTAssertEqual(left, 0, name)
        }
    }
}
