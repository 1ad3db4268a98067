// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The rule on a test clock with made-up places: when an alert is due, once per tracker however
/// often it changes its address, never for a trusted one, not while silenced, and time alone
/// where no place can be told.
final class TrackerWatchTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    private let key = ArraySlice(repeating: UInt8(0x5A), count: 22)

    private func address(_ n: UInt8) -> DeviceID { try! DeviceID(parsing: "F0:00:00:00:00:\(String(format: "%02X", n))", kind: .leRandom) }

    private func airTag(_ stable: ArraySlice<UInt8>? = nil) -> TrackerReading {
        TrackerReading(family: .appleFindMy, kind: .airTag, state: .separated, stableID: stable ?? key)
    }

    private func smartTag(_ aging: UInt32, _ state: TrackerState = .separated) -> TrackerReading {
        TrackerReading(family: .samsungSmartTag, kind: .smartTag, state: state, agingCounter: aging)
    }

    /// Feeds `reading` from `address` once a minute for `minutes`, at the place `place(minute)`;
    /// returns the minute of each alert.
    private func walk(_ watch: TrackerWatch, minutes: ClosedRange<Int>, session: Int = 1, address: (Int) -> DeviceID,
                      reading: (Int) -> TrackerReading, place: (Int) -> String?) -> [Int] {
        minutes.compactMap { m in
            watch.heard(address(m), reading(m), at: t0.addingTimeInterval(Double(m) * 60), place: place(m), session: session) == nil ? nil : m
        }
    }

    private func trip(_ m: Int) -> String { m < 20 ? "home" : m < 40 ? "bus" : "office" }

    func testNoAlertBeforeTheThresholdThenOneAtIt() {
        let watch = TrackerWatch(rule: TrackerRule(.medium))
        let alerts = walk(watch, minutes: 0...90, address: { _ in self.address(1) }, reading: { _ in self.airTag() }, place: trip)
        XCTAssertEqual(alerts, [60], "an hour and three places: due at minute 60, once")
        let alert = watch.alerts.first
        XCTAssertEqual(alert?.places, 3)
        XCTAssertEqual(alert?.minutes, 60)
        XCTAssertEqual(alert?.kind, .airTag)
    }

    func testOneAlertNotThreeForATagThatRotatesUnderIt() {
        let watch = TrackerWatch(rule: TrackerRule(.medium))
        // A new address every 15 minutes, the same key all along.
        let alerts = walk(watch, minutes: 0...180, address: { self.address(UInt8(10 + $0 / 15)) }, reading: { _ in self.airTag() },
                          place: { ["home", "bus", "office", "gym"][($0 / 30) % 4] })
        XCTAssertEqual(alerts.count, 1)
        XCTAssertEqual(watch.trackers.count, 1, "one tracker")
        XCTAssertEqual(watch.alerts.first?.addresses.count, 5, "with every address it used so far")
    }

    func testASmartTagsNewAddressIsLinkedByItsAgingCounter() {
        let watch = TrackerWatch(rule: TrackerRule(.medium))
        let first = address(1), second = address(2)
        watch.heard(first, smartTag(100), at: t0, place: "home", session: 1)
        watch.heard(first, smartTag(100), at: t0.addingTimeInterval(60), place: "home", session: 1)
        watch.heard(second, smartTag(101), at: t0.addingTimeInterval(120), place: "home", session: 1)
        XCTAssertEqual(watch.key(of: second), watch.key(of: first), "the counter carries on")
        // A third address whose counter went backwards is another tag.
        watch.heard(address(3), smartTag(50), at: t0.addingTimeInterval(240), place: "home", session: 1)
        XCTAssertNotEqual(watch.key(of: address(3)), watch.key(of: first))
    }

    func testAFindMyDeviceTagReMatchesByItsIdentifierWithinADayNotAfter() {
        let watch = TrackerWatch(rule: TrackerRule(.medium))
        let eid = ArraySlice(repeating: UInt8(0x42), count: 20)
        let tag = TrackerReading(family: .googleFindMyDevice, kind: .findMyDeviceTag, state: .separated, stableID: eid)
        watch.heard(address(1), tag, at: t0, place: "home", session: 1)
        watch.heard(address(2), tag, at: t0.addingTimeInterval(20 * 3600), place: "office", session: 2)
        XCTAssertEqual(watch.key(of: address(2)), watch.key(of: address(1)), "silent 20 hours: the same tag")
        watch.heard(address(3), tag, at: t0.addingTimeInterval(45 * 3600), place: "home", session: 3)
        XCTAssertNotEqual(watch.key(of: address(3)), watch.key(of: address(1)), "silent 25 hours: not taken for it")
    }

    func testTwoIdenticalSeparatedTagsHeardAtOnceAreNeverMerged() {
        let watch = TrackerWatch(rule: TrackerRule(.medium))
        for s in 0..<10 {
            let time = t0.addingTimeInterval(Double(s))
            watch.heard(address(1), smartTag(7), at: time, place: nil, session: 1)
            watch.heard(address(2), smartTag(7), at: time.addingTimeInterval(0.5), place: nil, session: 1)
            watch.heard(address(3), airTag(), at: time, place: nil, session: 1)
            watch.heard(address(4), airTag(), at: time.addingTimeInterval(0.5), place: nil, session: 1)
        }
        XCTAssertNotEqual(watch.key(of: address(1)), watch.key(of: address(2)), "two SmartTags with one counter, both heard")
        XCTAssertNotEqual(watch.key(of: address(3)), watch.key(of: address(4)), "two tags with one key, both heard")
        XCTAssertEqual(watch.trackers.count, 4)
    }

    func testATrustedTrackerNeverAlerts() {
        let watch = TrackerWatch(rule: TrackerRule(.high))
        watch.trusted = [address(1).storageKey]
        XCTAssertEqual(walk(watch, minutes: 0...180, address: { _ in self.address(1) }, reading: { _ in self.airTag() }, place: trip), [])
    }

    func testNotAThreatSilencesItForADay() {
        let watch = TrackerWatch(rule: TrackerRule(.high))
        watch.heard(address(1), airTag(), at: t0, place: "home", session: 1)
        let tracker = try! XCTUnwrap(watch.key(of: address(1)))
        watch.silence(tracker, until: t0.addingTimeInterval(24 * 3600))
        XCTAssertEqual(walk(watch, minutes: 1...600, address: { _ in self.address(1) }, reading: { _ in self.airTag() }, place: trip), [],
                       "silenced for the day")
        let later = walk(watch, minutes: (24 * 60 + 1)...(24 * 60 + 90), address: { _ in self.address(1) }, reading: { _ in self.airTag() },
                         place: { self.trip($0 - 24 * 60) })
        XCTAssertEqual(later.count, 1, "and due again after it")
    }

    func testNearItsOwnerItNeverAlerts() {
        let watch = TrackerWatch(rule: TrackerRule(.high))
        let near = TrackerReading(family: .appleFindMy, kind: .airTag, state: .nearOwner)
        XCTAssertEqual(walk(watch, minutes: 0...180, address: { _ in self.address(1) }, reading: { _ in near }, place: trip), [])
    }

    func testWithoutPlacesTimeAloneDecidesWithAHigherBar() {
        let watch = TrackerWatch(rule: TrackerRule(.high))
        let one = walk(watch, minutes: 0...240, address: { _ in self.address(1) }, reading: { _ in self.airTag() }, place: { _ in nil })
        XCTAssertEqual(one, [], "four hours in one scan session is not enough")
        let two = walk(watch, minutes: 250...260, session: 2, address: { _ in self.address(1) }, reading: { _ in self.airTag() },
                       place: { _ in nil })
        XCTAssertEqual(two, [250], "three hours across two sessions is")
    }

    func testSensitivityChangesTheThresholds() {
        var due: [TrackerSensitivity: Int] = [:]
        for sensitivity in TrackerSensitivity.allCases {
            let watch = TrackerWatch(rule: TrackerRule(sensitivity))
            due[sensitivity] = walk(watch, minutes: 0...200, address: { _ in self.address(1) }, reading: { _ in self.airTag() },
                                    place: { "place \($0 / 25)" }).first
        }
        XCTAssertEqual(due, [.high: 30, .medium: 60, .low: 120])
    }
}
