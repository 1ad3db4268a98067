// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import XCTest

/// The live-device model: folding on its own timer, staleness by the wall clock, and the
/// batching of favorites' readings. Folds come from `drain()` (the timer's clock is a test
/// clock nobody advances), so nothing here waits on real time but the timer's own test.
final class LiveDevicesTests: XCTestCase {

    private func seen(_ n: UInt8, rssi: Int, at time: Date) -> Observation {
        Observation(id: TestDevices.id(n, kind: .leRandom), timestamp: time, rssi: rssi, name: "Device \(n)")
    }

    @MainActor
    private static func make(_ sightings: SightingsRepository? = nil, clock: WallClock,
                             ticks: any Clock<Duration> = TestClock()) -> (LiveDevices, FakeScanner) {
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: sightings, refreshesPerSecond: 50, clock: ticks,
                               now: { clock.now })
        return (live, scanner)
    }

    @MainActor
    func testDevicesAreFoldedByTheModelsOwnTimer() async throws {
        let clock = WallClock()
        let ticks = TestClock()
        let (live, scanner) = Self.make(clock: clock, ticks: ticks)
        let folded = expectation(description: "both reports folded by the timer")
        var folds = 0
        let token = live.observe { change in
            guard case .devices = change else { return }
            folds += 1
            if live[TestDevices.id(1, kind: .leRandom)]?.reports == 2 { folded.fulfill() }
        }
        live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        scanner.feed(seen(1, rssi: -60, at: clock.now.addingTimeInterval(2)))
        XCTAssertNil(live[TestDevices.id(1, kind: .leRandom)], "nothing is folded before the timer fires")
        // The timer's interval at 50 folds a second; it fires once the clock gets there.
        folded.assertForOverFulfill = false
        let advancing = Task { @MainActor in
            for _ in 0..<100 where live[TestDevices.id(1, kind: .leRandom)]?.reports != 2 {
                await ticks.advance(by: .milliseconds(20))
            }
        }
        await fulfillment(of: [folded], timeout: 10)
        advancing.cancel()
        XCTAssertEqual(live[TestDevices.id(1, kind: .leRandom)]?.rssi, -60, "folded without anyone calling tick()")
        live.stop()
        _ = token
    }

    func testADeviceTheSourceSaysLeftFadesAtOnceAndIsBackWhenHeardAgain() async throws {
        let clock = WallClock()
        let (live, scanner) = await Self.make(clock: clock)
        await live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        scanner.feed(seen(2, rssi: -60, at: clock.now))
        await live.drain()
        scanner.depart(TestDevices.id(1, kind: .leRandom))
        await live.drain()
        let (gone, other) = await MainActor.run { () -> (Bool?, Bool?) in
            let one = live[TestDevices.id(1, kind: .leRandom)], two = live[TestDevices.id(2, kind: .leRandom)]
            return (one.map { live.isStale($0, at: clock.now) }, two.map { live.isStale($0, at: clock.now) })
        }
        XCTAssertEqual(gone, true, "faded at once, though just heard")
        XCTAssertEqual(other, false)
        scanner.feed(seen(1, rssi: -52, at: Date()))
        await live.drain()
        let back = await MainActor.run { live[TestDevices.id(1, kind: .leRandom)].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(back, false, "heard again: live again")
        await live.stop()
    }

    func testASilentDeviceFadesThenGoesByTheWallClockWithoutAnyReport() async throws {
        let clock = WallClock()
        let (live, scanner) = await Self.make(clock: clock)
        await MainActor.run {
            live.fadeAfter = 5
            live.removeAfter = 10
            live.start(mode: .continuous)
        }
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        await live.drain()
        let id = TestDevices.id(1, kind: .leRandom)
        clock.now.addTimeInterval(6)
        await live.drain()
        let stale = await MainActor.run { live[id].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(stale, true, "faded after 5 s with no report at all")
        clock.now.addTimeInterval(5)
        await live.drain()
        let gone = await live[id]
        XCTAssertNil(gone, "removed after 10 s by the timer alone")
        await live.stop()
    }

    func testAConnectedDeviceStaysListedThoughSilentAndGoesOnceItIsNot() async throws {
        let clock = WallClock()
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
        await live.drain()
        clock.now.addTimeInterval(40)
        await live.drain()
        let kept = await live[connected]
        let other = await live[TestDevices.id(2, kind: .leRandom)]
        XCTAssertNotNil(kept, "the connected device stays though it no longer advertises")
        XCTAssertNil(other, "a silent device that is not connected goes")
        flag.on = false
        await live.drain()
        let gone = await live[connected]
        XCTAssertNil(gone, "once disconnected it goes like any other")
        await live.stop()
    }

    func testAFinishedReplayKeepsItsDevicesAndNoneLooksStale() async throws {
        let clock = WallClock()
        let (live, scanner) = await Self.make(clock: clock)
        await live.start(mode: .continuous)
        scanner.feed(seen(1, rssi: -50, at: clock.now))
        await live.drain()
        scanner.set(.finished)
        clock.now.addTimeInterval(600)
        await live.drain()
        let kept = await MainActor.run { live[TestDevices.id(1, kind: .leRandom)].map { live.isStale($0, at: clock.now) } }
        XCTAssertEqual(kept, false)
        await live.stop()
    }

    func testOnlyFavoritesReadingsAreStoredOneBatchPerFold() async throws {
        let clock = WallClock()
        let store = RecordingSightings()
        let favorite = TestDevices.id(2, kind: .leRandom)
        let (live, scanner) = await Self.make(store, clock: clock)
        await MainActor.run { live.keepsSightings = { $0 == favorite } }
        await MainActor.run { live.start(mode: .continuous) }
        for step in 0..<10 {
            scanner.feed(seen(1, rssi: -50, at: clock.now.addingTimeInterval(Double(step))))
            scanner.feed(seen(2, rssi: -60 - step, at: clock.now.addingTimeInterval(Double(step))))
        }
        await live.drain()
        await live.stop()
        await live.drain()
        let stored = store.batches.joined()
        XCTAssertEqual(stored.count, 10, "every reading of the favorite, none of the other device")
        XCTAssertTrue(stored.allSatisfy { $0.id == favorite })
        XCTAssertEqual(stored.map(\.rssi), (0..<10).map { -60 - $0 }, "in order")
        XCTAssertLessThan(store.batches.count, 10, "batched per fold, not one write per report")
    }
}



/// A stand-in for ah that is easy to compute by hand: the key's first byte XOR prand.
private struct XorHashing: AddressHashing {
    func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32 { (prand ^ UInt32(irk.bytes[0])) & 0xFF_FFFF }
}

/// A resolvable private address (top bits 01) that a key starting with `firstKeyByte` resolves under XorHashing.
private func xorPrivateAddress(_ n: UInt32, firstKeyByte: UInt8) -> DeviceID {
    let prand = 0x40_0000 | n
    let value = UInt64(prand) << 24 | UInt64((prand ^ UInt32(firstKeyByte)) & 0xFF_FFFF)
    return DeviceID(octets: (0 ..< 6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }, kind: .leRandom)
}

/// Resolution at the door: a bonded device that changes its private address stays one device.
final class LiveDevicesIdentityTests: XCTestCase {
    private func privateAddress(_ n: UInt32, irk: IdentityResolvingKey) -> DeviceID { xorPrivateAddress(n, firstKeyByte: irk.bytes[0]) }

    @MainActor
    func testAddressesOfOneBondFoldIntoItsIdentityAndOthersStayApart() async throws {
        let irk = IdentityResolvingKey(bytes: [0x5A] + [UInt8](repeating: 1, count: 15))!
        let stranger = IdentityResolvingKey(bytes: [0x33] + [UInt8](repeating: 2, count: 15))!
        let identity = try DeviceID(parsing: "C4:00:00:00:00:01", kind: .leRandom)
        let scanner = FakeScanner()
        let clock = WallClock()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50, clock: TestClock(),
                               now: { clock.now })
        live.identities = Identities(hashing: XorHashing(), bonds: [Bond(identity: identity, irk: irk, ltk: nil, authenticated: false,
                                                                        secureConnections: false, createdAt: clock.now)])
        live.start(mode: .continuous)
        let first = privateAddress(1, irk: irk), second = privateAddress(2, irk: irk), other = privateAddress(3, irk: stranger)
        scanner.feed(Observation(id: first, timestamp: clock.now, rssi: -50, name: "Band"))
        scanner.feed(Observation(id: second, timestamp: clock.now.addingTimeInterval(1), rssi: -55))
        scanner.feed(Observation(id: other, timestamp: clock.now, rssi: -70, name: "Someone else"))
        await live.drain()
        XCTAssertEqual(Set(live.all.keys), [identity, other], "one row for the bonded device, one for the stranger")
        let band = try XCTUnwrap(live[identity])
        XCTAssertEqual(band.reports, 2)
        XCTAssertEqual(band.advertised.name, "Band", "what the first address said stays with the device")
        XCTAssertEqual(band.heardAddress, second, "the address heard last")
        XCTAssertNil(live[other]?.heardAddress)
        // The source says the first address left: the device was heard since under the second, so it stays.
        scanner.depart(first)
        await live.drain()
        XCTAssertEqual(live[identity].map { live.isStale($0, at: clock.now) }, false)
        // The address it uses now leaving is the device leaving.
        scanner.depart(second)
        await live.drain()
        XCTAssertEqual(live[identity].map { live.isStale($0, at: clock.now) }, true)
        live.stop()
    }
}

/// A key typed in for a device bonded elsewhere: kept in the byte order that resolves.
final class TypedKeyTests: XCTestCase {
    private func privateAddress(_ n: UInt32, firstKeyByte: UInt8) -> DeviceID { xorPrivateAddress(n, firstKeyByte: firstKeyByte) }

    @MainActor
    func testAKeyIsKeptInTheOrderThatResolvesAndOneThatResolvesNothingIsNot() async throws {
        let repository = InMemoryBonds()
        let identities = Identities(hashing: XorHashing(), repository: repository)
        // The device was saved under the address it had then; it has moved on since.
        let saved = privateAddress(1, firstKeyByte: 0x9B)
        let now = privateAddress(2, firstKeyByte: 0x9B)
        let printedBackwards = IdentityResolvingKey(bytes: [0x11] + [UInt8](repeating: 0, count: 14) + [0x9B])!
        let wrong = IdentityResolvingKey(bytes: [0x22] + [UInt8](repeating: 0, count: 14) + [0x23])!
        let refused = try await identities.addKey(wrong, for: saved, heard: [now])
        XCTAssertEqual(refused, .noMatch(ownAddress: true))
        XCTAssertFalse(identities.hasKey(saved))
        let stored = await repository.saved
        XCTAssertEqual(stored, [], "nothing kept for a key that matches nothing")
        let kept = try await identities.addKey(printedBackwards, for: saved, heard: [now])
        XCTAssertEqual(kept, .kept(swapped: true))
        XCTAssertTrue(identities.hasKey(saved))
        XCTAssertEqual(identities.identity(of: now), saved, "the new address is the saved device")
        let written = await repository.saved
        XCTAssertEqual(written.map(\.irk), [printedBackwards.byteSwapped])
        try await identities.forget(saved)
        XCTAssertEqual(identities.identity(of: now), now, "forgotten: the address is a stranger again")
        let afterForget = await repository.saved
        XCTAssertEqual(afterForget, [])
    }
}

private actor InMemoryBonds: BondsRepository {
    var saved: [Bond] = []
    func all() -> BondsReading { BondsReading(bonds: saved, unreadable: []) }
    func save(_ bond: Bond) { saved.removeAll { $0.identity == bond.identity }; saved.append(bond) }
    func forget(_ identity: DeviceID) { saved.removeAll { $0.identity == identity } }
}
