// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Favorites answers "is my device nearby?" from the live scan, else from stored sightings.
final class FavoritesPresenceTests: XCTestCase {

    private static func favorite(_ n: UInt8, _ nickname: String) -> Favorite {
        Favorite(id: TestDevices.id(n, kind: .leRandom), nickname: nickname, lastKnownName: nil,
                 addedAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    func testEachFavoriteSaysWhetherItIsNearbyWhenItWasLastSeenOrThatItWasNot() async throws {
        let clock = WallClock(Date(timeIntervalSince1970: 100_000))
        let sightings = RecordingSightings()
        // The stereo was stored two hours ago; the speaker never was.
        try await sightings.record([Sighting(id: TestDevices.id(2, kind: .leRandom), time: clock.now.addingTimeInterval(-7200), rssi: -70)])
        let scanner = FakeScanner()
        let (model, live) = await MainActor.run { () -> (FavoritesViewModel, LiveDevices) in
            let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50, now: { clock.now })
            let repository = FakeFavoritesRepository([Self.favorite(1, "Buds"), Self.favorite(2, "Stereo"),
                                                                 Self.favorite(3, "Speaker")])
            let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live,
                                      sightings: sightings, now: { clock.now })
            let model = FavoritesViewModel(favorites: favorites, now: { clock.now })
            return (model, live)
        }
        await model.load()
        var presence = await Dictionary(uniqueKeysWithValues: model.rows.map { ($0.title, $0.presence) })
        XCTAssertEqual(presence["Stereo"], "Last seen 2 h ago", "from the stored sightings alone")
        XCTAssertEqual(presence["Speaker"], "Not seen yet")
        XCTAssertEqual(presence["Buds"], "Not seen yet")

        await live.start(mode: .continuous)
        scanner.feed(Observation(id: TestDevices.id(1, kind: .leRandom), timestamp: clock.now, rssi: -52))
        await live.drain()
        presence = await Dictionary(uniqueKeysWithValues: model.rows.map { ($0.title, $0.presence) })
        XCTAssertEqual(presence["Buds"], "Nearby · \u{2212}52 dBm", "heard by the running scan, whichever page shows")
        let nearby = await model.rows.first { $0.title == "Buds" }?.isNearby
        XCTAssertEqual(nearby, true)

        clock.now.addTimeInterval(40)
        await live.drain()
        presence = await Dictionary(uniqueKeysWithValues: model.rows.map { ($0.title, $0.presence) })
        XCTAssertEqual(presence["Buds"], "Last seen just now", "no longer nearby once it fades; under a minute is just now")
        await live.stop()
    }

    func testWhereRoomsHearAFavoriteItsLineNamesTheRoomAsANameNearbyAndAfterItFades() async throws {
        let clock = WallClock(Date(timeIntervalSince1970: 100_000))
        let scanner = FakeScanner()
        let (model, live) = await MainActor.run { () -> (FavoritesViewModel, LiveDevices) in
            let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50, now: { clock.now })
            let repository = FakeFavoritesRepository([Self.favorite(1, "Keys")])
            let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live,
                                      sightings: nil, now: { clock.now })
            return (FavoritesViewModel(favorites: favorites, now: { clock.now }), live)
        }
        await model.load()
        await live.start(mode: .continuous)
        for rssi in [-61, -61, -61] {
            var heard = Observation(id: TestDevices.id(1, kind: .leRandom), timestamp: clock.now, rssi: rssi)
            heard.source = "Kitchen"
            scanner.feed(heard)
        }
        await live.drain()
        var presence = await model.rows.first?.presence
        XCTAssertEqual(presence, "Kitchen · \u{2212}61 dBm", "the room's name as it is, with no \"the\" before it")

        clock.now.addTimeInterval(40)
        await live.drain()
        presence = await model.rows.first?.presence
        XCTAssertEqual(presence, "Last seen in Kitchen · just now", "faded, and still said where")
        await live.stop()
    }
}
