// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
@testable import Persistence
import TestSupport
import XCTest

@MainActor
private final class Notes: DesktopNotifier {
    var sent: [String] = []
    func send(id: String, title: String, body: String, opening device: DeviceID) { sent.append(title) }
}

@MainActor
private final class NoPlaces: PlaceSource {
    var current: String? { nil }
    var isAvailable: Bool { false }
}

/// The tracker guard over a real SQLite file: what one run saw counts in the next (the rule's
/// day and its scan sessions), an alert is not raised twice across a restart, Not a Threat
/// outlasts one, and sightings older than 14 days are deleted.
@MainActor
final class TrackerSightingsStorageTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "favblue-trackers-\(UUID().uuidString)"
    private let tag = TestDevices.id(9, kind: .leRandom)
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private var clock = Date(timeIntervalSince1970: 1_800_000_000)

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One run of the app: the file's store, a fresh live model and guard, turned on.
    private struct Run {
        let store: Store
        let live: LiveDevices
        let scanner: FakeScanner
        let notes: Notes
        let guarded: TrackerGuard
        let favorites: Favorites
    }

    private func launch() async throws -> Run {
        let store = StoreFactory.open(.sqlite, directory: directory)
        let trackers = try XCTUnwrap(store.trackers)
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()), live: live, sightings: nil)
        await favorites.load()
        let notes = Notes()
        let guarded = TrackerGuard(live: live, favorites: favorites, notifier: notes, places: NoPlaces(), store: trackers,
                                   isOn: true, sensitivity: .high, now: { [unowned self] in self.clock })
        await guarded.flushed()
        XCTAssertTrue(guarded.isRestored)
        live.start(mode: .continuous)
        return Run(store: store, live: live, scanner: scanner, notes: notes, guarded: guarded, favorites: favorites)
    }

    /// The AirTag heard away from its owner once a minute over `minutes`, then stored.
    private func hear(_ run: Run, minutes: Range<Int>) async throws {
        for m in minutes {
            clock = start.addingTimeInterval(Double(m) * 60)
            run.scanner.feed(Observation(id: tag, timestamp: clock, rssi: -60 - m % 7, manufacturerData: [
                ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: [0x12, 0x19, 0x10] + Array(repeating: 0x44, count: 24)),
            ]))
            await run.live.drain()
        }
        await run.guarded.flushed()
    }

    func testTheTimeAloneBarCountsTheScanSessionOfTheRunBefore() async throws {
        let first = try await launch()
        try await hear(first, minutes: 0..<100)
        first.live.stop()
        XCTAssertTrue(first.notes.sent.isEmpty, "100 minutes in one session is under the bar of 3 hours across 2 sessions")
        let stored = try await XCTUnwrap(first.store.trackers).sightings(since: .distantPast)
        XCTAssertEqual(stored.count, 100, "one sighting a minute is kept")
        XCTAssertEqual(Set(stored.map(\.rssi)).count, 7, "with its signal")

        let second = try await launch()
        XCTAssertEqual(second.guarded.sightings(of: tag).count, 100, "the page's timeline has the run before")
        try await hear(second, minutes: 100..<181)
        XCTAssertEqual(second.notes.sent, ["An AirTag has been moving with you for 180 minutes"])
        second.live.stop()
    }

    func testAnAlertIsNotRaisedAgainAfterARestart() async throws {
        let first = try await launch()
        try await hear(first, minutes: 0..<90)
        first.live.stop()
        let second = try await launch()
        try await hear(second, minutes: 90..<200)
        XCTAssertEqual(second.notes.sent.count, 1)
        second.live.stop()
        let third = try await launch()
        try await hear(third, minutes: 200..<260)
        XCTAssertTrue(third.notes.sent.isEmpty, "it was called out already")
        XCTAssertEqual(third.guarded.status(of: tag)?.alert?.minutes, 180, "its page still says so")
        third.live.stop()
    }

    func testNotAThreatOutlastsARestart() async throws {
        let first = try await launch()
        try await hear(first, minutes: 0..<5)
        first.guarded.silence(tag)
        let until = try XCTUnwrap(first.guarded.status(of: tag)?.silencedUntil)
        await first.guarded.flushed()
        let kept = try await XCTUnwrap(first.store.trackers).silences(at: clock)
        XCTAssertEqual(kept.count, 1, "Not a Threat is written")
        first.live.stop()
        let second = try await launch()
        try await hear(second, minutes: 5..<300)
        XCTAssertTrue(second.notes.sent.isEmpty)
        XCTAssertEqual(second.guarded.status(of: tag)?.silencedUntil, until)
        second.live.stop()
    }

    func testSightingsOlderThanFourteenDaysAreDeletedAtStart() async throws {
        let store = StoreFactory.open(.sqlite, directory: directory)
        let trackers = try XCTUnwrap(store.trackers)
        func sighting(daysAgo: Double) -> TrackerSighting {
            TrackerSighting(tracker: "apple-find-my:x", family: .appleFindMy, kind: .airTag, state: .separated, address: tag,
                            time: start.addingTimeInterval(-daysAgo * 86_400), rssi: -70, place: "5f1e…", session: 1)
        }
        try await trackers.record([sighting(daysAgo: 15), sighting(daysAgo: 14.1), sighting(daysAgo: 13.9), sighting(daysAgo: 0.5)])
        try await trackers.silence("apple-find-my:x", until: start.addingTimeInterval(-15 * 86_400))
        let run = try await launch()
        let left = try await trackers.sightings(since: .distantPast).map { start.timeIntervalSince($0.time) / 86_400 }
        XCTAssertEqual(left.map { ($0 * 10).rounded() / 10 }, [13.9, 0.5])
        XCTAssertEqual(run.guarded.sightings(of: tag).count, 1, "the rule's window is one day")
        run.live.stop()
    }
}
