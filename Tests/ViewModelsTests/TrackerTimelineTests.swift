// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization
import TestSupport
import ViewModels
import XCTest

/// A tracker's page timeline: a stay per place in the order it was first seen there (numbers,
/// never the place's hash), the place you are at now said, a stay per scan session where no
/// place could be told, and the strongest signal of each stay.
final class TrackerTimelineTests: XCTestCase {
    private let t0 = Date()
    private let tag = TestDevices.id(3, kind: .leRandom)

    private func sighting(_ minute: Int, _ place: String?, session: Int = 1, rssi: Int = -70) -> TrackerSighting {
        TrackerSighting(tracker: "k", family: .appleFindMy, kind: .airTag, state: .separated, address: tag,
                        time: t0.addingTimeInterval(Double(minute - 60) * 60), rssi: rssi, place: place, session: session)
    }

    func testAStayPerPlaceNumberedInTheOrderItWasSeenThere() throws {
        let timeline = try XCTUnwrap(TrackerTimeline([
            sighting(0, "9f3a"), sighting(1, "9f3a", rssi: -58), sighting(2, "c001"), sighting(3, "c001"),
            sighting(4, "9f3a"), sighting(5, "77ee", rssi: -80),
        ], here: "77ee"))
        XCTAssertEqual(timeline.stretches.map(\.place), [1, 2, 1, 3])
        XCTAssertEqual(timeline.stretches.map(\.title), ["Place 1", "Place 2", "Place 1", "Place 3 · where you are now"])
        XCTAssertEqual(timeline.stretches.map(\.readings), [2, 2, 1, 1])
        XCTAssertEqual(timeline.stretches.first?.strongest, -58)
        XCTAssertTrue(timeline.stretches[0].detail.hasSuffix("· 2 times · strongest −58 dBm"), timeline.stretches[0].detail)
        XCTAssertFalse(timeline.stretches.map(\.detail).joined().contains("9f3a"), "a place's hash is never shown")
        XCTAssertTrue(timeline.summary.hasPrefix("Seen between "))
        XCTAssertTrue(timeline.summary.hasSuffix(", at 3 places."), timeline.summary)
        XCTAssertEqual(timeline.signal.count, 6)
    }

    func testWithoutPlacesAStayPerScanSession() throws {
        let timeline = try XCTUnwrap(TrackerTimeline([sighting(0, nil, session: 1), sighting(1, nil, session: 1),
                                                      sighting(30, nil, session: 2)], here: nil))
        XCTAssertEqual(timeline.stretches.map(\.title), ["Heard", "Heard"])
        XCTAssertFalse(timeline.summary.contains("place"))
        XCTAssertNil(TrackerTimeline([], here: nil), "nothing marked yet: no timeline")
    }
}
