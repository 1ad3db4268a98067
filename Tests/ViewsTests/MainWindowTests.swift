// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Views
import XCTest

final class MainWindowTests: XCTestCase {
    func testSplashShowsFirstThenFavoritesFollowsAfterTheDelay() {
        MainActor.assumeIsolated {
            WindowHarness.run(splashMs: 400) { window in
                let started = Date()
                XCTAssertTrue(window.isShowingSplash, "the first thing on screen is the splash")
                XCTAssertNil(window.visiblePageKind, "nothing built under it before its first frame")
                let built = await WindowHarness.wait(5) { window.visiblePageKind == "favorites" }
                XCTAssertTrue(built && window.isShowingSplash, "Favorites is built underneath once the splash is painted")
                let ended = await WindowHarness.wait(5) { !window.isShowingSplash }
                XCTAssertTrue(ended, "the splash ends by itself")
                XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3, "not before its delay")
            }
        }
    }

    func testEscapeSkipsTheSplash() {
        MainActor.assumeIsolated {
            WindowHarness.run(splashMs: 60_000) { window in
                XCTAssertTrue(window.isShowingSplash)
                WindowHarness.activate(window, "win.back")
                XCTAssertFalse(window.isShowingSplash, "Esc (win.back) ends the splash at once")
                XCTAssertEqual(window.visiblePageKind, "favorites")
            }
        }
    }

    func testZeroSplashStartsOnFavorites() {
        MainActor.assumeIsolated {
            WindowHarness.run(splashMs: 0) { window in
                XCTAssertFalse(window.isShowingSplash)
                XCTAssertEqual(window.visiblePageKind, "favorites")
            }
        }
    }

    func testNavigationRoundTripFavoritesScannerDetailAndBack() {
        MainActor.assumeIsolated {
            WindowHarness.run(splashMs: 0) { window in
                WindowHarness.activate(window, "win.add-devices")
                XCTAssertEqual(window.visiblePageKind, "scanner")
                XCTAssertEqual(window.depth, 2)
                window.showDetail(of: try DeviceID(parsing: "AA:BB:CC:DD:EE:FF", kind: .lePublic))
                XCTAssertEqual(window.visiblePageKind, "detail")
                XCTAssertEqual(window.depth, 3)
                WindowHarness.activate(window, "win.back")
                XCTAssertEqual(window.visiblePageKind, "scanner")
                WindowHarness.activate(window, "win.back")
                XCTAssertEqual(window.visiblePageKind, "favorites")
                WindowHarness.activate(window, "win.back")
                XCTAssertEqual(window.visiblePageKind, "favorites", "Back on the home page stays home")
                XCTAssertEqual(window.depth, 1)
            }
        }
    }

    func testAddNewDevicesTwiceKeepsOneScanner() {
        MainActor.assumeIsolated {
            WindowHarness.run(splashMs: 0) { window in
                WindowHarness.activate(window, "win.add-devices")
                WindowHarness.activate(window, "win.add-devices")
                XCTAssertEqual(window.depth, 2)
            }
        }
    }
}
