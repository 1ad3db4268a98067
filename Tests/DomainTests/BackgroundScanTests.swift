// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import XCTest

/// The quiet background scan: it runs while no page holds the scan, gives way to the
/// Scanner's own scan, comes back when the Scanner is left, and retries quietly after a failure.
@MainActor
final class BackgroundScanTests: XCTestCase {

    /// Opens a fresh fake scanner each time and remembers the mode it was opened in.
    private final class Radio {
        var scanners: [FakeScanner] = []
        var modes: [ScanMode] = []
        func make(_ mode: ScanMode) -> DeviceScanner {
            let scanner = FakeScanner()
            scanners.append(scanner)
            modes.append(mode)
            return scanner
        }
    }

    private let quiet = ScanMode.periodic(windowSeconds: 10, intervalSeconds: 60)

    /// Retries wait on `ticks`, a clock the test advances.
    private let ticks = TestClock()

    private func make(clock: WallClock = WallClock()) -> (LiveDevices, Radio) {
        let radio = Radio()
        // Folds come from drain() and tick(); the timer's rare beat keeps advancing the clock cheap.
        let live = LiveDevices(makeScanner: { radio.make($0) }, sightings: nil, refreshesPerSecond: 0.001, clock: ticks,
                               now: { clock.now })
        return (live, radio)
    }

    func testWithoutTheSettingNothingScansUntilTheScannerOpens() {
        let (live, radio) = make()
        XCTAssertFalse(live.isStarted)
        live.start(mode: .continuous)
        live.release()
        XCTAssertFalse(live.isStarted, "leaving the Scanner stops scanning, as before")
        XCTAssertEqual(radio.modes, [.continuous])
    }

    func testTheSettingScansQuietlyInThePeriodicModeWithoutTheScanner() {
        let (live, radio) = make()
        live.backgroundMode = quiet
        XCTAssertTrue(live.isBackground)
        XCTAssertEqual(radio.modes, [quiet])
        live.backgroundMode = nil
        XCTAssertFalse(live.isStarted, "turning the setting off stops the quiet scan")
    }

    func testOpeningTheScannerScansContinuouslyAndLeavingItReturnsToTheQuietMode() {
        let (live, radio) = make()
        live.backgroundMode = quiet
        live.start(mode: .continuous)
        XCTAssertTrue(live.isForeground)
        XCTAssertFalse(live.isBackground)
        live.release()
        XCTAssertTrue(live.isBackground)
        XCTAssertEqual(radio.modes, [quiet, .continuous, quiet])
    }

    func testStopInTheScannerHoldsUntilTheScannerIsLeft() {
        let (live, radio) = make()
        live.backgroundMode = quiet
        live.start(mode: .continuous)
        live.stop()
        XCTAssertFalse(live.isRunning, "Stop means stop while the Scanner is open")
        live.backgroundMode = .periodic(windowSeconds: 5, intervalSeconds: 30)
        XCTAssertFalse(live.isStarted, "a changed background setting does not restart a scan the user stopped")
        live.release()
        XCTAssertTrue(live.isBackground)
        XCTAssertEqual(radio.modes.last, .periodic(windowSeconds: 5, intervalSeconds: 30))
    }

    func testAFailedBackgroundScanTriesAgainOneIntervalLaterWithoutAPageAsking() async throws {
        let (live, radio) = make()
        live.backgroundMode = .periodic(windowSeconds: 10, intervalSeconds: 60)
        radio.scanners[0].set(.failed(.disconnected("gone")))
        await live.drain()
        await ticks.advance(by: .seconds(59))
        XCTAssertEqual(radio.scanners.count, 1, "not at once: a missing adapter would be hammered")
        await ticks.advance(by: .seconds(1))
        let retried = await untilTrue { radio.scanners.count == 2 }
        XCTAssertTrue(retried, "tried again after the interval")
        XCTAssertTrue(live.isBackground)
        live.backgroundMode = nil
    }

    func testAFailedScannerScanIsNotRetriedBehindTheUsersBack() async throws {
        let (live, radio) = make()
        live.backgroundMode = .periodic(windowSeconds: 10, intervalSeconds: 60)
        live.start(mode: .continuous)
        radio.scanners[1].set(.failed(.disconnected("gone")))
        await live.drain()
        await ticks.advance(by: .seconds(120))
        let retried = await untilTrue({ radio.scanners.count > 2 }, yields: 1000)
        XCTAssertFalse(retried, "the Scanner shows its failure and offers Try Again")
        live.backgroundMode = nil
        live.release()
    }

    func testAnAutoScansPauseDoesNotCountAgainstADevice() async throws {
        let clock = WallClock()
        let (live, radio) = make(clock: clock)
        live.fadeAfter = 30
        live.removeAfter = 60
        live.backgroundMode = quiet
        let id = TestDevices.id(1, kind: .leRandom)
        radio.scanners[0].feed(Observation(id: id, timestamp: clock.now, rssi: -52))
        await live.drain()
        // Heard at the start of a 10 s window; nobody listens for the 50 s after it.
        clock.now.addTimeInterval(75)
        live.tick()
        let device = try XCTUnwrap(live[id], "kept through the pause")
        XCTAssertFalse(live.isStale(device, at: clock.now))
        clock.now.addTimeInterval(10)
        XCTAssertTrue(live.isStale(device, at: clock.now), "30 s of listening without a report")
        clock.now.addTimeInterval(30)
        live.tick()
        XCTAssertNil(live[id])
        live.backgroundMode = nil
    }
}
