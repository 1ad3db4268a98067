// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// The demo's unknown AirTag: heard as a separated AirTag is, and with its story of two hours
/// through four places, called out by every sensitivity as soon as it is heard with alerts on.
final class DemoTrackerTests: XCTestCase {
    func testItsAdvertisementIsReadAsAnAirTagAwayFromItsOwner() throws {
        let time = Date()
        let observations = try ObservationDecoder.observations(inEvent: DemoTracker.advertisingEvent()[...], at: time)
        let observation = try XCTUnwrap(observations.first)
        XCTAssertEqual(observation.id, DemoTracker.id)
        var data = AdvertisedData()
        data.merge(observation)
        let reading = try XCTUnwrap(TrackerTable.read(data))
        XCTAssertEqual(reading.kind, .airTag)
        XCTAssertEqual(reading.state, .separated)
        XCTAssertNil(data.name, "nameless, as real tags are")
    }

    func testItsStoryIsCalledOutByEverySensitivityWhenItIsHeardNow() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let story = DemoTracker.story(before: now)
        XCTAssertEqual(story.first?.time, now.addingTimeInterval(-140 * 60), "two hours and twenty minutes ago")
        XCTAssertEqual(story.last?.time, now.addingTimeInterval(-6 * 60), "the last a few minutes ago")
        XCTAssertEqual(Set(story.compactMap(\.place)).count, 4)
        var data = AdvertisedData()
        for observation in try ObservationDecoder.observations(inEvent: DemoTracker.advertisingEvent()[...], at: now) { data.merge(observation) }
        let reading = try XCTUnwrap(TrackerTable.read(data))
        for sensitivity in TrackerSensitivity.allCases {
            let watch = TrackerWatch(rule: TrackerRule(sensitivity))
            watch.restore(sightings: story, alerts: [], silences: [:])
            // Heard here, where no place can be told: the story's places count.
            let alert = try XCTUnwrap(watch.heard(DemoTracker.id, reading, at: now, place: nil, session: 1), "\(sensitivity)")
            XCTAssertEqual(alert.places, 4)
            XCTAssertEqual(alert.minutes, 140)
            XCTAssertEqual(alert.addresses, [DemoTracker.id], "the live tag is the story's, not a second tracker")
        }
    }
}
