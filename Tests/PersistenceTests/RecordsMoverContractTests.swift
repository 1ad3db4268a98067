// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import XCTest

/// Pairing shows a private address to be an identity: everything kept under the address moves
/// to the identity, on both backends, and a record the identity had already is kept.
final class RecordsMoverContractTests: XCTestCase {
    private var directory = ""
    private let old = DeviceID(octets: [0x5C, 1, 2, 3, 4, 5], kind: .leRandom)
    private let identity = DeviceID(octets: [0xF0, 1, 2, 3, 4, 5], kind: .lePublic)
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUp() {
        directory = NSTemporaryDirectory() + "favblue-move-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func backends() -> [(String, Store)] {
        [("sqlite", StoreFactory.open(.sqlite, directory: directory)), ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    private func message(_ text: String, _ device: DeviceID, _ seconds: Double) -> ChatMessage {
        ChatMessage(device: device, direction: .incoming, body: .text(text), time: t0.addingTimeInterval(seconds), delivery: .sent)
    }

    func testEverythingKeptUnderThePrivateAddressMovesToTheIdentity() async throws {
        for (name, store) in backends() {
            try await store.favorites.save(Favorite(id: old, nickname: "My Band", lastKnownName: "Fitness Band", addedAt: t0, updatedAt: t0))
            try await store.sightings.record([Sighting(id: old, time: t0, rssi: -50), Sighting(id: old, time: t0.addingTimeInterval(1), rssi: -52)])
            try await store.chats.append([message("one", old, 1), message("two", old, 2)])
            try await store.mover.moveRecords(from: old, to: identity)
            let favorites = try await store.favorites.all()
            XCTAssertEqual(favorites.map(\.id), [identity], name)
            XCTAssertEqual(favorites.first?.nickname, "My Band", name)
            XCTAssertEqual(favorites.first?.addedAt, t0, name)
            let sightings = try await store.sightings.history(for: identity, since: .distantPast)
            XCTAssertEqual(sightings.map(\.rssi), [-50, -52], name)
            let left = try await store.sightings.history(for: old, since: .distantPast)
            XCTAssertEqual(left.count, 0, name)
            let chat = try await store.chats.page(for: identity, offset: 0, limit: 10)
            XCTAssertEqual(chat.map(\.body), [.text("one"), .text("two")], name)
            XCTAssertTrue(chat.allSatisfy { $0.device == identity }, name)
            let oldCount = try await store.chats.count(for: old)
            XCTAssertEqual(oldCount, 0, name)
        }
    }

    func testAFavoriteTheIdentityHadStaysAndTakesTheNicknameOnlyWhenItHasNone() async throws {
        for (name, store) in backends() {
            try await store.favorites.save(Favorite(id: identity, nickname: nil, lastKnownName: "Band", addedAt: t0, updatedAt: t0))
            try await store.favorites.save(Favorite(id: old, nickname: "Mine", lastKnownName: nil, addedAt: t0, updatedAt: t0))
            try await store.chats.append([message("new", identity, 5), message("old", old, 1)])
            try await store.mover.moveRecords(from: old, to: identity)
            let favorites = try await store.favorites.all()
            XCTAssertEqual(favorites.count, 1, name)
            XCTAssertEqual(favorites.first?.nickname, "Mine", name)
            XCTAssertEqual(favorites.first?.lastKnownName, "Band", name)
            let chat = try await store.chats.page(for: identity, offset: 0, limit: 10)
            XCTAssertEqual(chat.map(\.body), [.text("old"), .text("new")], "merged in time order: \(name)")
        }
    }

    func testASensorsReadingsAndLimitsMoveWithIt() async throws {
        for (name, store) in backends() {
            let limits = [ReadingLimit(key: "temperature", above: -15)]
            try await store.favorites.save(Favorite(id: old, nickname: "Freezer", lastKnownName: nil, addedAt: t0, updatedAt: t0,
                                                    readingLimits: limits))
            try await store.readings.record([SensorSample(id: old, time: t0, key: "temperature", value: -18.5)])
            try await store.mover.moveRecords(from: old, to: identity)
            let moved = try await store.readings.history(for: identity, since: .distantPast)
            XCTAssertEqual(moved.map(\.value), [-18.5], name)
            let left = try await store.readings.history(for: old, since: .distantPast)
            XCTAssertEqual(left.count, 0, name)
            let favorite = try await store.favorites.favorite(identity)
            XCTAssertEqual(favorite?.readingLimits, limits, name)
        }
    }

    func testAFavoriteTheIdentityHadTakesTheLimitsOnlyWhenItHasNone() async throws {
        for (name, store) in backends() {
            try await store.favorites.save(Favorite(id: identity, nickname: nil, lastKnownName: nil, addedAt: t0, updatedAt: t0))
            try await store.favorites.save(Favorite(id: old, nickname: nil, lastKnownName: nil, addedAt: t0, updatedAt: t0,
                                                    readingLimits: [ReadingLimit(key: "humidity", above: 70)]))
            try await store.mover.moveRecords(from: old, to: identity)
            let favorite = try await store.favorites.favorite(identity)
            XCTAssertEqual(favorite?.readingLimits, [ReadingLimit(key: "humidity", above: 70)], name)
        }
    }

    func testTheMoveSurvivesReopeningTheFile() async throws {
        let store = StoreFactory.open(.sqlite, directory: directory)
        try await store.favorites.save(Favorite(id: old, nickname: "My Band", lastKnownName: nil, addedAt: t0, updatedAt: t0))
        try await store.hidden.hide(HiddenDevice(id: old, name: nil, hiddenAt: t0))
        try await store.mover.moveRecords(from: old, to: identity)
        let reopened = StoreFactory.open(.sqlite, directory: directory)
        let favorite = try await reopened.favorites.favorite(identity)
        XCTAssertEqual(favorite?.nickname, "My Band")
        let hidden = try await reopened.hidden.all()
        XCTAssertEqual(hidden.map(\.id), [identity])
    }
}
