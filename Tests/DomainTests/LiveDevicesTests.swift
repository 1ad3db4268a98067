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
        XCTAssertEqual(kept, .kept(swapped: true, matched: nil), "its own address resolved: no other device named")
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
    func localIdentity(orKeep made: LocalIdentity) -> LocalIdentity { made }
    var saved: [Bond] = []
    func all() -> BondsReading { BondsReading(bonds: saved, unreadable: []) }
    func save(_ bond: Bond) { saved.removeAll { $0.identity == bond.identity }; saved.append(bond) }
    func forget(_ identity: DeviceID) { saved.removeAll { $0.identity == identity } }
}

/// A device that changes its private address without a bond: its new address joins its row
/// when exactly one listed device with the same advertising data fell silent just before.
final class AddressChangeFoldingTests: XCTestCase {
    private let payload: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x42, 0x61, 0x6E, 0x64]

    private func address(_ n: UInt8) -> DeviceID { DeviceID(octets: [0x52, 0x11, 0x22, 0x33, 0x44, n], kind: .leRandom) }

    private func report(_ n: UInt8, at time: Date, rssi: Int = -50, data: [UInt8]? = nil) -> Observation {
        Observation(id: address(n), timestamp: time, rssi: rssi, name: "Band", rawData: data ?? payload)
    }

    @MainActor
    private func make(favorite: DeviceID? = nil) -> (LiveDevices, FakeScanner, WallClock) {
        let scanner = FakeScanner()
        let clock = WallClock()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50, clock: TestClock(),
                               now: { clock.now })
        live.keepsListed = { $0 == favorite }
        live.start(mode: .continuous)
        return (live, scanner, clock)
    }

    /// Reports from `n` every 200 ms over `seconds`, starting `start` seconds after `clock.now`.
    private func feed(_ scanner: FakeScanner, _ n: UInt8, from start: Double, for seconds: Double, clock: WallClock) {
        for step in 0 ..< Int(seconds * 5) {
            scanner.feed(report(n, at: clock.now.addingTimeInterval(start + Double(step) * 0.2)))
        }
    }

    @MainActor
    func testADeviceThatChangesItsAddressStaysOneRow() async {
        let (live, scanner, clock) = make()
        feed(scanner, 1, from: 0, for: 3, clock: clock)
        await live.drain()
        // It goes on from address 1 to 2, then to 3, each time within a report interval.
        feed(scanner, 2, from: 3.1, for: 3, clock: clock)
        await live.drain()
        feed(scanner, 3, from: 6.2, for: 3, clock: clock)
        await live.drain()
        XCTAssertEqual(Array(live.all.keys), [address(1)], "one row, under the address first heard")
        let band = live[address(1)]
        XCTAssertEqual(band?.reports, 45, "no report lost")
        XCTAssertEqual(band?.formerAddresses, [address(1), address(2)])
        XCTAssertEqual(band?.currentAddress, address(3))
        XCTAssertEqual(band?.identifierLine.hasSuffix("changes its address"), true)
        live.stop()
    }

    @MainActor
    func testARoomOfIdenticalDevicesIsNeverMerged() async {
        let (live, scanner, clock) = make()
        // Two identical devices heard all along: a third like them has two candidates.
        feed(scanner, 1, from: 0, for: 4, clock: clock)
        feed(scanner, 2, from: 0, for: 4, clock: clock)
        feed(scanner, 3, from: 2, for: 2, clock: clock)
        await live.drain()
        XCTAssertEqual(Set(live.all.keys), [address(1), address(2), address(3)])
        live.stop()
    }

    @MainActor
    func testAnIdenticalDeviceAppearingBesideAnotherIsADeviceOfItsOwn() async {
        let (live, scanner, clock) = make()
        // Heard in time order, interleaved: 4 all along, 5 from the second second. 5 is held
        // back a moment, then listed on its own, since 4 never fell silent.
        for step in 0 ..< 20 {
            let time = clock.now.addingTimeInterval(Double(step) * 0.2)
            scanner.feed(report(4, at: time))
            if step >= 5 { scanner.feed(report(5, at: time.addingTimeInterval(0.05))) }
        }
        await live.drain()
        XCTAssertNotNil(live[address(5)], "a device of its own")
        XCTAssertEqual(live[address(5)]?.reports, 15, "none of its reports lost while it was held back")
        XCTAssertEqual(live[address(4)]?.reports, 20)
        XCTAssertEqual(live[address(4)]?.formerAddresses, [])
        live.stop()
    }

    @MainActor
    func testAFavoriteIsNeverFoldedAndAHeldAddressIsReleasedWhenReportsStop() async {
        let (live, scanner, clock) = make(favorite: address(1))
        feed(scanner, 1, from: 0, for: 2, clock: clock)
        feed(scanner, 2, from: 2.1, for: 2, clock: clock)
        await live.drain()
        XCTAssertNotNil(live[address(2)], "a favorite's row takes no other address")
        // A lone new address with one silent candidate, then nothing more: released by the wall clock.
        feed(scanner, 3, from: 10, for: 0.2, clock: clock)
        feed(scanner, 4, from: 10.25, for: 0.2, clock: clock)
        await live.drain()
        clock.advance(5)
        await live.drain()
        let three = live[address(3)], four = live[address(4)]
        XCTAssertEqual((three?.reports ?? 0) + (four?.reports ?? 0), 2, "both reports are listed, folded or not")
        live.stop()
    }
}
