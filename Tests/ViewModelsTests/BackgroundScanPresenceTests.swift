// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Scan in the Background: Favorites knows what is nearby without the Scanner, the Scanner
/// still scans its own way, and a failing background scan stays quiet.
@MainActor
final class BackgroundScanPresenceTests: XCTestCase {

    private final class Radio {
        var scanners: [FakeScanner] = []
        var modes: [ScanMode] = []
    }

    private struct Setup {
        let live: LiveDevices
        let favorites: FavoritesViewModel
        let scanner: ScannerViewModel
        let policy: ScanPolicy
        let radio: Radio
        let clock: WallClock
    }

    private let buds = TestDevices.id(1, kind: .leRandom)

    private func make() async -> Setup {
        let clock = WallClock(Date(timeIntervalSince1970: 100_000))
        let radio = Radio()
        let live = LiveDevices(makeScanner: { mode in
            let scanner = FakeScanner()
            radio.scanners.append(scanner)
            radio.modes.append(mode)
            return scanner
        }, sightings: nil, refreshesPerSecond: 50, now: { clock.now })
        let repository = FakeFavoritesRepository([
            Favorite(id: buds, nickname: "Buds", lastKnownName: nil,
                     addedAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)),
        ])
        let owner = Favorites(useCases: FavoritesUseCases(repository: repository), live: live, now: { clock.now })
        let favorites = FavoritesViewModel(favorites: owner, now: { clock.now })
        let policy = ScanPolicy(live: live)
        let scanner = ScannerViewModel(live: live, policy: policy, favorites: owner, now: { clock.now })
        await favorites.load()
        return Setup(live: live, favorites: favorites, scanner: scanner, policy: policy, radio: radio, clock: clock)
    }

    private func presence(_ s: Setup) -> String? { s.favorites.rows.first?.presence }

    func testTheSettingIsOffByDefaultAndNothingScansOnFavorites() async {
        let s = await make()
        XCTAssertFalse(ScanSettings().backgroundScan)
        XCTAssertTrue(s.radio.modes.isEmpty)
        XCTAssertEqual(presence(s), "Not seen yet")
    }

    func testWithTheSettingOnFavoritesSaysNearbyWithoutTheScanner() async throws {
        let s = await make()
        s.policy.settings.backgroundScan = true
        XCTAssertEqual(s.radio.modes, [.periodic(windowSeconds: 10, intervalSeconds: 60)], "Auto Scan's rhythm")
        await s.live.drain()
        s.radio.scanners[0].feed(Observation(id: buds, timestamp: s.clock.now, rssi: -52))
        await s.live.drain()
        XCTAssertEqual(presence(s), "Nearby · \u{2212}52 dBm")

        // Between two quiet scans nobody listens: the favorite is still nearby.
        s.radio.scanners[0].set(.waiting)
        s.clock.now.addTimeInterval(45)
        await s.live.drain()
        XCTAssertEqual(presence(s), "Nearby · \u{2212}52 dBm")

        s.policy.settings.backgroundScan = false
        XCTAssertFalse(s.live.isStarted)
        XCTAssertEqual(presence(s), "Last seen just now")
    }

    func testTheScannerScansItsOwnWayAndLeavingItReturnsToTheQuietScan() async {
        let s = await make()
        s.policy.settings.backgroundScan = true
        s.scanner.start()
        XCTAssertEqual(s.radio.modes.last, .continuous, "opening the Scanner gives its normal scan")
        s.scanner.leave()
        XCTAssertEqual(s.radio.modes.last, .periodic(windowSeconds: 10, intervalSeconds: 60))
        XCTAssertTrue(s.live.isBackground)

        // Turning Auto Scan on in Preferences meanwhile does not start the Scanner's own scan.
        s.policy.settings.periodic = true
        XCTAssertTrue(s.live.isBackground)
        XCTAssertEqual(s.radio.modes.count, 3)
        s.policy.settings.backgroundScan = false
    }

    func testAFailingBackgroundScanShowsNoErrorOnFavorites() async throws {
        let s = await make()
        s.policy.settings.backgroundScan = true
        await s.live.drain()
        s.radio.scanners[0].feed(Observation(id: buds, timestamp: s.clock.now, rssi: -60))
        await s.live.drain()
        s.radio.scanners[0].set(.failed(.disconnected("the adapter was unplugged")))
        s.clock.now.addTimeInterval(5)
        await s.live.drain()
        XCTAssertTrue(s.favorites.messages.isEmpty, "no banner, no error page")
        XCTAssertEqual(presence(s), "Last seen just now", "no longer claims it is nearby")
        s.policy.settings.backgroundScan = false
    }
}
