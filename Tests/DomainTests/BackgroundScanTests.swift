// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

/// The quiet background scan: it runs while no page holds the scan, gives way to the
/// Scanner's own scan, comes back when the Scanner is left, and retries quietly after a failure.
@MainActor
final class BackgroundScanTests: XCTestCase {
    private final class Clock: @unchecked Sendable { var now = Date(timeIntervalSince1970: 1_000) }

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

    private func make(clock: Clock = Clock()) -> (LiveDevices, Radio) {
        let radio = Radio()
        let live = LiveDevices(makeScanner: { radio.make($0) }, sightings: nil, refreshesPerSecond: 50, now: { clock.now })
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
        live.backgroundMode = .periodic(windowSeconds: 0.05, intervalSeconds: 0.3)
        try await Task.sleep(nanoseconds: 50_000_000)
        radio.scanners[0].set(.failed(.disconnected("gone")))
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(radio.scanners.count, 1, "not at once: a missing adapter would be hammered")
        try await Task.sleep(nanoseconds: 500_000_000)
        XCTAssertEqual(radio.scanners.count, 2, "tried again after the interval")
        XCTAssertTrue(live.isBackground)
        live.backgroundMode = nil
    }

    func testAFailedScannerScanIsNotRetriedBehindTheUsersBack() async throws {
        let (live, radio) = make()
        live.backgroundMode = .periodic(windowSeconds: 0.05, intervalSeconds: 0.1)
        live.start(mode: .continuous)
        try await Task.sleep(nanoseconds: 50_000_000)
        radio.scanners[1].set(.failed(.disconnected("gone")))
        try await Task.sleep(nanoseconds: 400_000_000)
        XCTAssertEqual(radio.scanners.count, 2, "the Scanner shows its failure and offers Try Again")
        live.backgroundMode = nil
        live.release()
    }

    func testAnAutoScansPauseDoesNotCountAgainstADevice() async throws {
        let clock = Clock()
        let (live, radio) = make(clock: clock)
        live.fadeAfter = 30
        live.removeAfter = 60
        live.backgroundMode = quiet
        let id = TestDevices.id(1, kind: .leRandom)
        radio.scanners[0].feed(Observation(id: id, timestamp: clock.now, rssi: -52))
        try await Task.sleep(nanoseconds: 100_000_000)
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
