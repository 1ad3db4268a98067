// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Views
import XCTest

/// A store that answers only after a delay, as a busy disk would.
final class SlowSightings: SightingsRepository, @unchecked Sendable {
    let delay: Double
    let id: DeviceID
    init(delay: Double, id: DeviceID) {
        self.delay = delay
        self.id = id
    }

    func record(_ sightings: [Sighting]) async throws {}

    func summary(for id: DeviceID) async throws -> SightingSummary? {
        // Slow on purpose: the page must show its spinner while a real store takes its time.
        try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        return SightingSummary(firstSeen: Date(timeIntervalSinceNow: -3600), lastSeen: Date(timeIntervalSinceNow: -60), count: 42)
    }

    func history(for id: DeviceID, since: Date) async throws -> [Sighting] {
        [Sighting(id: id, time: Date(timeIntervalSinceNow: -120), rssi: -71), Sighting(id: id, time: Date(timeIntervalSinceNow: -60), rssi: -64)]
    }

    func prune(_ retention: SightingRetention, now: Date) async throws -> Int { 0 }
}

final class DeviceDetailPageTests: XCTestCase {
    func testSpinnerShowsWhileTheStoreIsSlowThenTheStoredFiguresAppear() {
        MainActor.assumeIsolated {
            let id = try! DeviceID(parsing: "C0:98:E5:49:00:02", kind: .leRandom)
            WindowHarness.run(splashMs: 0, sightings: SlowSightings(delay: 1.0, id: id)) { window in
                window.showDetail(of: id)
                let page = try XCTUnwrap(window.visiblePage as? DeviceDetailPage)
                XCTAssertEqual(page.visibleContent, "loading", "a spinner shows while the store has not answered")
                // Real time on purpose: part-way through the store's one-second answer.
                try await Task.sleep(nanoseconds: 400_000_000)
                XCTAssertEqual(page.visibleContent, "loading", "still loading before the store answers")
                let loaded = await WindowHarness.wait(5) { page.visibleContent == "details" }
                XCTAssertTrue(loaded, "the details replace the spinner once the store answers")
                XCTAssertTrue(page.seenText.contains("42"), "the stored sighting count shows: \(page.seenText)")
                XCTAssertEqual(page.signalSummary, "Last 5 min: lowest −71 dBm, highest −64 dBm, last −64 dBm",
                               "the stored readings of the last minutes are plotted and described")
            }
        }
    }
}
