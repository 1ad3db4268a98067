// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

/// What a notification service would have shown.
@MainActor
private final class RecordingNotifier: DesktopNotifier {
    var sent: [(id: String, title: String, body: String, device: DeviceID)] = []
    func send(id: String, title: String, body: String, opening device: DeviceID) { sent.append((id, title, body, device)) }
}

/// Notify When Nearby and When It Leaves: quiet, per device, and steady at the edge of range.
@MainActor
final class PresenceAlertsTests: XCTestCase {
    private let keys = TestDevices.id(9, kind: .lePublic)
    private let other = TestDevices.id(8, kind: .lePublic)

    private func setUp(alerts: PresenceAlerts) async -> (LiveDevices, FakeScanner, RecordingNotifier, Favorites, PresenceAlertsWatch) {
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let repository = FakeFavoritesRepository([
            Favorite(id: keys, nickname: "Keys", lastKnownName: nil, addedAt: Date(), updatedAt: Date(), alerts: alerts),
            Favorite(id: other, nickname: "Quiet", lastKnownName: nil, addedAt: Date(), updatedAt: Date()),
        ])
        let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live, sightings: nil)
        await favorites.load()
        let notifier = RecordingNotifier()
        let watch = PresenceAlertsWatch(live: live, favorites: favorites, notifier: notifier)
        live.start(mode: .continuous)
        return (live, scanner, notifier, favorites, watch)
    }

    private func hear(_ scanner: FakeScanner, _ live: LiveDevices, _ id: DeviceID, _ values: [Int]) async {
        for rssi in values { scanner.feed(Observation(id: id, timestamp: Date(), rssi: rssi)) }
        await live.drain()
    }

    func testWhereSeveralSourcesHearItTheNotificationSaysTheRoom() async {
        let (live, scanner, notifier, _, watch) = await setUp(alerts: [.arrive])
        for rssi in [-60, -58, -59] {
            var o = Observation(id: keys, timestamp: Date(), rssi: rssi)
            o.source = "Kitchen"
            scanner.feed(o)
        }
        await live.drain()
        XCTAssertEqual(notifier.sent.map(\.title), ["\u{2068}Keys\u{2069} is in \u{2068}Kitchen\u{2069}"])
        _ = watch
        live.stop()
    }

    func testArrivingNeedsAStrongSmoothedSignalAndThreeReportsAndLeavingSaysSoOnce() async {
        let (live, scanner, notifier, _, watch) = await setUp(alerts: [.arrive, .leave])
        await hear(scanner, live, keys, [-60, -60])
        XCTAssertTrue(notifier.sent.isEmpty, "two reports are not yet a device that came")
        await hear(scanner, live, keys, [-60])
        XCTAssertEqual(notifier.sent.map(\.title), ["\u{2068}Keys\u{2069} is nearby"])
        XCTAssertEqual(notifier.sent.first?.device, keys, "a click opens this device")
        // At the edge of range: weaker than arriving asks, stronger than leaving needs.
        await hear(scanner, live, keys, [-90, -92, -91, -89])
        XCTAssertEqual(notifier.sent.count, 1, "no flapping at the edge")
        scanner.depart(keys)
        await live.drain()
        XCTAssertEqual(notifier.sent.map(\.title), ["\u{2068}Keys\u{2069} is nearby", "\u{2068}Keys\u{2069} left"])
        XCTAssertEqual(Set(notifier.sent.map(\.id)).count, 1, "one notification per device: the second replaces the first")
        XCTAssertFalse(notifier.sent.contains { $0.body.contains("Keys") }, "no device text in the body")
        _ = watch
        live.stop()
    }

    func testAFavoriteWithoutAlertsAndOneOnlyWatchingForLeavingStayQuietOnArrival() async {
        let (live, scanner, notifier, _, watch) = await setUp(alerts: [.leave])
        await hear(scanner, live, other, [-50, -50, -50, -50])
        await hear(scanner, live, keys, [-50, -50, -50, -50])
        XCTAssertTrue(notifier.sent.isEmpty)
        scanner.depart(keys)
        await live.drain()
        XCTAssertEqual(notifier.sent.map(\.title), ["\u{2068}Keys\u{2069} left"])
        _ = watch
        live.stop()
    }

    func testNotHearingWhileNoScanRunsIsNotLeaving() async {
        let (live, scanner, notifier, _, watch) = await setUp(alerts: [.arrive, .leave])
        await hear(scanner, live, keys, [-50, -50, -50])
        XCTAssertEqual(notifier.sent.count, 1)
        live.stop()
        watch.evaluate()
        XCTAssertEqual(notifier.sent.count, 1, "the scan stopped; the device did not leave")
    }

    func testSwitchingOnWhileTheDeviceIsHereSaysNothing() async {
        let (live, scanner, notifier, favorites, watch) = await setUp(alerts: [])
        await hear(scanner, live, keys, [-50, -50, -50, -50])
        await favorites.setAlerts(keys, [.arrive, .leave])
        await hear(scanner, live, keys, [-50])
        XCTAssertTrue(notifier.sent.isEmpty, "it was here already: no news")
        _ = watch
        live.stop()
    }
}
