// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import XCTest

/// One contract, both backends: every test runs against SQLite on a real file and against memory.
final class StoreContractTests: XCTestCase {
    private var directories: [String] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
        super.tearDown()
    }

    private func stores() -> [(String, Store)] {
        let directory = NSTemporaryDirectory() + "favblue-contract-\(UUID().uuidString)"
        directories.append(directory)
        return [("sqlite", StoreFactory.open(.sqlite, directory: directory)),
                ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    private func id(_ n: UInt8) -> DeviceID { DeviceID(octets: [1, 2, 3, 4, 5, n], kind: .leRandom) }

    func testSavedFavoritesComeBackExactly() async throws {
        for (name, store) in stores() {
            XCTAssertTrue(store.notices.isEmpty, name)
            let favorite = Favorite(id: id(1), nickname: "שלי 🎧 e\u{0301}", lastKnownName: "Buds",
                                    addedAt: Date(timeIntervalSince1970: 1_000), updatedAt: Date(timeIntervalSince1970: 2_000))
            try await store.favorites.save(favorite)
            let read = try await store.favorites.favorite(id(1))
            XCTAssertEqual(read, favorite, name)
            let all = try await store.favorites.all()
            XCTAssertEqual(all, [favorite], name)
        }
    }

    func testAFavoritesNotificationsAreKeptAndAnOlderFileStartsWithNone() async throws {
        for (name, store) in stores() {
            let favorite = Favorite(id: id(2), nickname: nil, lastKnownName: "Keys", addedAt: Date(timeIntervalSince1970: 1),
                                    updatedAt: Date(timeIntervalSince1970: 1), alerts: [.arrive, .leave])
            try await store.favorites.save(favorite)
            let read = try await store.favorites.favorite(id(2))
            XCTAssertEqual(read?.alerts, [.arrive, .leave], name)
            var leaveOnly = favorite
            leaveOnly.alerts = [.leave]
            try await store.favorites.save(leaveOnly)
            let again = try await store.favorites.favorite(id(2))
            XCTAssertEqual(again?.alerts, [.leave], name)
        }
    }

    func testSavingAgainReplacesAndRemovingDeletes() async throws {
        for (name, store) in stores() {
            var favorite = Favorite(id: id(2), nickname: nil, lastKnownName: nil,
                                    addedAt: Date(timeIntervalSince1970: 10), updatedAt: Date(timeIntervalSince1970: 10))
            try await store.favorites.save(favorite)
            favorite.nickname = "Kitchen"
            try await store.favorites.save(favorite)
            let all = try await store.favorites.all()
            XCTAssertEqual(all.map(\.nickname), ["Kitchen"], name)
            try await store.favorites.remove(id(2))
            try await store.favorites.remove(id(2))
            let none = try await store.favorites.favorite(id(2))
            XCTAssertNil(none, name)
        }
    }

    func testSightingsSummarizeAndReturnHistoryInOrder() async throws {
        for (name, store) in stores() {
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            try await store.sightings.record([
                Sighting(id: id(3), time: base.addingTimeInterval(20), rssi: -60),
                Sighting(id: id(3), time: base, rssi: -70),
                Sighting(id: id(4), time: base, rssi: -40),
            ])
            let summary = try await store.sightings.summary(for: id(3))
            XCTAssertEqual(summary, SightingSummary(firstSeen: base, lastSeen: base.addingTimeInterval(20), count: 2), name)
            let history = try await store.sightings.history(for: id(3), since: base.addingTimeInterval(1))
            XCTAssertEqual(history.map(\.rssi), [-60], name)
            let unknown = try await store.sightings.summary(for: id(9))
            XCTAssertNil(unknown, name)
        }
    }

    func testPruningDropsOldReadingsThenTheOldestBeyondTheLimit() async throws {
        for (name, store) in stores() {
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            var batch = [Sighting(id: id(5), time: now.addingTimeInterval(-31 * 86_400), rssi: -90)]
            for second in 0..<10 { batch.append(Sighting(id: id(5), time: now.addingTimeInterval(Double(-second)), rssi: -50)) }
            try await store.sightings.record(batch)
            let deleted = try await store.sightings.prune(SightingRetention(days: 30, maxRows: 6), now: now)
            XCTAssertEqual(deleted, 5, name)
            let summary = try await store.sightings.summary(for: id(5))
            XCTAssertEqual(summary?.count, 6, name)
            XCTAssertEqual(summary?.firstSeen, now.addingTimeInterval(-5), "\(name): the newest six remain")
        }
    }

    func testSensorReadingsComeBackInOrderPerDeviceAndArePrunedLikeSightings() async throws {
        for (name, store) in stores() {
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            var batch = [SensorSample(id: id(6), time: now.addingTimeInterval(-31 * 86_400), key: "temperature", value: -18.5)]
            for minute in (0..<5).reversed() {
                batch.append(SensorSample(id: id(6), time: now.addingTimeInterval(Double(-60 * minute)), key: "temperature_2",
                                          value: 21.25 + Double(minute)))
            }
            batch.append(SensorSample(id: id(7), time: now, key: "humidity", value: 48))
            try await store.readings.record(batch)
            let week = try await store.readings.history(for: id(6), since: now.addingTimeInterval(-7 * 86_400))
            XCTAssertEqual(week.map(\.value), [25.25, 24.25, 23.25, 22.25, 21.25], "\(name): oldest first, this device's only")
            XCTAssertEqual(week.first?.key, "temperature_2", name)
            let deleted = try await store.readings.prune(SightingRetention(days: 30, maxRows: 4), now: now)
            XCTAssertEqual(deleted, 3, "\(name): the one past 30 days, then the oldest beyond four rows")
            let kept = try await store.readings.history(for: id(6), since: .distantPast)
            XCTAssertEqual(kept.map(\.value), [23.25, 22.25, 21.25], name)
        }
    }
}
