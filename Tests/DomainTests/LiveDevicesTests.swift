// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

/// The live-device model: folding on its own timer, staleness by the wall clock, and the
/// batching of favorites' readings.
final class LiveDevicesTests: XCTestCase {
    private final class Clock: @unchecked Sendable { var now = Date(timeIntervalSince1970: 1_000) }

    private func seen(_ n: UInt8, rssi: Int, at time: Date) -> Observation {
        Observation(id: TestDevices.id(n, kind: .leRandom), timestamp: time, rssi: rssi, name: "Device \(n)")
    }

    @MainActor
    private static func make(_ sightings: SightingsRepository? = nil, clock: Clock) -> (LiveDevices, FakeScanner) {
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: sightings, refreshesPerSecond: 50, now: { clock.now })
        return (live, scanner)
    }

    func testDevicesAreFoldedByTheModelsOwnTimer() async throws {
        let clock = Clock()
        let (live, scanner) = await Self.make(clock: clock)
        let folds = Counter()
        let token = await live.observe { if case .devices = $0 { folds.add() } }
        await live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        scanner.feed(seen(1, rssi: -60, at: clock.now.addingTimeInterval(2)))
        try await Task.sleep(nanoseconds: 300_000_000)
        let device = await live[TestDevices.id(1, kind: .leRandom)]
        XCTAssertEqual(device?.reports, 2, "folded without anyone calling tick()")
        XCTAssertEqual(device?.rssi, -60)
        XCTAssertGreaterThan(folds.value, 2, "observers hear every fold")
        await live.stop()
        _ = token
    }

    func testADeviceTheSourceSaysLeftFadesAtOnceAndIsBackWhenHeardAgain() async throws {
        let clock = Clock()
        let (live, scanner) = await Self.make(clock: clock)
        await live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        scanner.feed(seen(2, rssi: -60, at: clock.now))
        try await Task.sleep(nanoseconds: 200_000_000)
        scanner.depart(TestDevices.id(1, kind: .leRandom))
        try await Task.sleep(nanoseconds: 200_000_000)
        let (gone, other) = await MainActor.run { () -> (Bool?, Bool?) in
            let one = live[TestDevices.id(1, kind: .leRandom)], two = live[TestDevices.id(2, kind: .leRandom)]
            return (one.map { live.isStale($0, at: clock.now) }, two.map { live.isStale($0, at: clock.now) })
        }
        XCTAssertEqual(gone, true, "faded at once, though just heard")
        XCTAssertEqual(other, false)
        scanner.feed(seen(1, rssi: -52, at: Date()))
        try await Task.sleep(nanoseconds: 200_000_000)
        let back = await MainActor.run { live[TestDevices.id(1, kind: .leRandom)].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(back, false, "heard again: live again")
        await live.stop()
    }

    func testASilentDeviceFadesThenGoesByTheWallClockWithoutAnyReport() async throws {
        let clock = Clock()
        let (live, scanner) = await Self.make(clock: clock)
        await MainActor.run {
            live.fadeAfter = 5
            live.removeAfter = 10
            live.start(mode: .continuous)
        }
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        try await Task.sleep(nanoseconds: 100_000_000)
        let id = TestDevices.id(1, kind: .leRandom)
        clock.now.addTimeInterval(6)
        try await Task.sleep(nanoseconds: 100_000_000)
        let stale = await MainActor.run { live[id].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(stale, true, "faded after 5 s with no report at all")
        clock.now.addTimeInterval(5)
        try await Task.sleep(nanoseconds: 100_000_000)
        let gone = await live[id]
        XCTAssertNil(gone, "removed after 10 s by the timer alone")
        await live.stop()
    }

    func testAConnectedDeviceStaysListedThoughSilentAndGoesOnceItIsNot() async throws {
        let clock = Clock()
        let (live, scanner) = await Self.make(clock: clock)
        let connected = TestDevices.id(1, kind: .leRandom)
        final class Flag: @unchecked Sendable { var on = true }
        let flag = Flag()
        await MainActor.run {
            live.removeAfter = 10
            live.keepsListed = { $0 == connected && flag.on }
            live.start(mode: .continuous)
        }
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        scanner.feed(seen(2, rssi: -50, at: clock.now))
        try await Task.sleep(nanoseconds: 100_000_000)
        clock.now.addTimeInterval(40)
        try await Task.sleep(nanoseconds: 100_000_000)
        let kept = await live[connected]
        let other = await live[TestDevices.id(2, kind: .leRandom)]
        XCTAssertNotNil(kept, "the connected device stays though it no longer advertises")
        XCTAssertNil(other, "a silent device that is not connected goes")
        flag.on = false
        try await Task.sleep(nanoseconds: 100_000_000)
        let gone = await live[connected]
        XCTAssertNil(gone, "once disconnected it goes like any other")
        await live.stop()
    }

    func testAFinishedReplayKeepsItsDevicesAndNoneLooksStale() async throws {
        let clock = Clock()
        let (live, scanner) = await Self.make(clock: clock)
        await live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        try await Task.sleep(nanoseconds: 100_000_000)
        scanner.set(.finished)
        clock.now.addTimeInterval(600)
        try await Task.sleep(nanoseconds: 100_000_000)
        let kept = await MainActor.run { live[TestDevices.id(1, kind: .leRandom)].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(kept, false)
        await live.stop()
    }

    func testOnlyFavoritesReadingsAreStoredOneBatchPerFold() async throws {
        let clock = Clock()
        let store = RecordingSightings()
        let favorite = TestDevices.id(2, kind: .leRandom)
        let (live, scanner) = await Self.make(store, clock: clock)
        await MainActor.run { live.keepsSightings = { $0 == favorite } }
        await MainActor.run { live.start(mode: .continuous) }
        for step in 0..<10 {
            scanner.feed(seen(1, rssi: -50, at: clock.now.addingTimeInterval(Double(step))))
            scanner.feed(seen(2, rssi: -60 - step, at: clock.now.addingTimeInterval(Double(step))))
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        await live.stop()
        try await Task.sleep(nanoseconds: 100_000_000)
        let stored = store.batches.joined()
        XCTAssertEqual(stored.count, 10, "every reading of the favorite, none of the other device")
        XCTAssertTrue(stored.allSatisfy { $0.id == favorite })
        XCTAssertEqual(stored.map(\.rssi), (0..<10).map { -60 - $0 }, "in order")
        XCTAssertLessThan(store.batches.count, 10, "batched per fold, not one write per report")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func add() { lock.lock(); count += 1; lock.unlock() }
}
