// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

@MainActor
private final class Notes: DesktopNotifier {
    var sent: [(id: String, title: String, body: String, device: DeviceID)] = []
    func send(id: String, title: String, body: String, opening device: DeviceID) { sent.append((id, title, body, device)) }
}

@MainActor
private final class Places: PlaceSource {
    var current: String?
    var isAvailable = true
}

/// The tracker guard in the app's loop: off until turned on, an alert once the rule is met
/// across places, none for a favorite, and Not a Threat for a day.
@MainActor
final class TrackerGuardTests: XCTestCase {
    private let tag = TestDevices.id(7, kind: .leRandom)
    private var clock = Date(timeIntervalSince1970: 1_800_000_000)

    private func airTag(at time: Date) -> Observation {
        Observation(id: tag, timestamp: time, rssi: -60,
                    manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.",
                                                        data: [0x12, 0x19, 0x10] + Array(repeating: 0x33, count: 24))])
    }

    private func rig(favorite: Bool = false) async -> (LiveDevices, FakeScanner, Notes, Places, TrackerGuard, Favorites) {
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let repository = FakeFavoritesRepository(favorite ? [Favorite(id: tag, nickname: "My keys", lastKnownName: nil,
                                                                       addedAt: Date(), updatedAt: Date())] : [])
        let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live, sightings: nil)
        await favorites.load()
        let notes = Notes(), places = Places()
        let guarded = TrackerGuard(live: live, favorites: favorites, notifier: notes, places: places, sensitivity: .high,
                                   now: { [unowned self] in self.clock })
        live.start(mode: .continuous)
        return (live, scanner, notes, places, guarded, favorites)
    }

    /// The tag heard once a minute for `minutes`, at `place(minute)`.
    private func follow(_ scanner: FakeScanner, _ live: LiveDevices, _ places: Places, minutes: Range<Int>, place: (Int) -> String) async {
        for m in minutes {
            places.current = place(m)
            scanner.feed(airTag(at: Date(timeIntervalSince1970: 1_800_000_000 + Double(m) * 60)))
            await live.drain()
        }
    }

    func testOffUntilTurnedOnThenOneAlertOnceTheRuleIsMet() async {
        let (live, scanner, notes, places, guarded, _) = await rig()
        await follow(scanner, live, places, minutes: 0..<40, place: { $0 < 15 ? "home" : "bus" })
        XCTAssertTrue(notes.sent.isEmpty, "tracker alerts are off by default")
        guarded.isOn = true
        await follow(scanner, live, places, minutes: 40..<80, place: { $0 < 55 ? "bus" : "office" })
        XCTAssertEqual(notes.sent.map(\.title), ["An AirTag has been moving with you for 30 minutes"])
        XCTAssertEqual(notes.sent.first?.device, tag, "a click opens the tracker's page")
        XCTAssertEqual(guarded.status(of: tag)?.alert?.places, 2)
        live.stop()
    }

    func testAFavoriteNeverAlerts() async {
        let (live, scanner, notes, places, guarded, _) = await rig(favorite: true)
        guarded.isOn = true
        await follow(scanner, live, places, minutes: 0..<90, place: { "place \($0 / 20)" })
        XCTAssertTrue(notes.sent.isEmpty)
        live.stop()
    }

    func testAScanStartedAgainAtOnceIsTheSameSessionAndOneStoppedTenMinutesIsAnother() async {
        let (live, scanner, _, places, guarded, _) = await rig()
        guarded.isOn = true
        places.isAvailable = false
        places.current = nil
        func hear(_ minute: Int) async {
            clock = Date(timeIntervalSince1970: 1_800_000_000 + Double(minute) * 60)
            scanner.feed(airTag(at: clock))
            await live.drain()
        }
        await hear(0)
        // The Scanner opening starts the scan again: no new session.
        live.stop()
        live.start(mode: .continuous)
        await hear(2)
        XCTAssertEqual(Set(guarded.sightings(of: tag).map(\.session)).count, 1)
        // Stopped for a quarter of an hour: another.
        live.stop()
        clock = Date(timeIntervalSince1970: 1_800_000_000 + 17 * 60)
        live.start(mode: .continuous)
        await hear(18)
        XCTAssertEqual(Set(guarded.sightings(of: tag).map(\.session)).count, 2)
        live.stop()
    }

    func testNotAThreatSilencesItForADay() async {
        let (live, scanner, notes, places, guarded, _) = await rig()
        guarded.isOn = true
        await follow(scanner, live, places, minutes: 0..<2, place: { _ in "home" })
        guarded.silence(tag)
        XCTAssertNotNil(guarded.status(of: tag)?.silencedUntil)
        await follow(scanner, live, places, minutes: 2..<90, place: { "place \($0 / 20)" })
        XCTAssertTrue(notes.sent.isEmpty)
        live.stop()
    }
}
