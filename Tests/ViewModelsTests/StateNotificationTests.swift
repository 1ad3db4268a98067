// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// What a store of readings was handed.
private actor Kept: SensorReadingsRepository {
    var samples: [SensorSample] = []
    func record(_ samples: [SensorSample]) async throws { self.samples += samples }
    func history(for id: DeviceID, since: Date) async throws -> [SensorSample] { samples.filter { $0.id == id && $0.time >= since } }
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int { 0 }
}

@MainActor
private final class Notes: DesktopNotifier {
    var sent: [(title: String, body: String)] = []
    func send(id: String, title: String, body: String, opening device: DeviceID) { sent.append((title, body)) }
}

/// Notify When It Opens: a favorite's door notifies each time it opens, once per opening, and
/// its timeline keeps each change.
@MainActor
final class StateNotificationTests: XCTestCase {
    func testADoorNotifiesEachTimeItOpensAndNotWhileItStaysOpen() async {
        let door = TestDevices.id(7, kind: .lePublic)
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let repository = FakeFavoritesRepository([
            Favorite(id: door, nickname: "Garden door", lastKnownName: "Back Door", addedAt: Date(), updatedAt: Date(),
                     readingLimits: [ReadingLimit(key: "door", above: 0.5)]),
        ])
        let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live, sightings: nil)
        await favorites.load()
        let notes = Notes()
        let watch = ReadingLimitsWatch(live: live, favorites: favorites, notifier: notes)
        watch.describe = { $0.quantity.kind == .measurement ? ReadingText.value($0) : ReadingText.text($0) }
        let kept = Kept()
        live.readingsStore = kept
        live.keepsSightings = { [weak favorites] id in favorites?.isFavorite(id) ?? false }
        live.start(mode: .continuous)
        // BTHome v2: packet number, then the door (0x1A) open or closed.
        func hear(_ packet: UInt8, open: Bool) async {
            scanner.feed(Observation(id: door, timestamp: Date(), rssi: -60, name: "Back Door",
                                     serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): [0x40, 0x00, packet, 0x1A, open ? 1 : 0]]))
            await live.drain()
        }
        await hear(1, open: false)
        XCTAssertTrue(notes.sent.isEmpty, "closed")
        await hear(2, open: true)
        await hear(2, open: true)
        await hear(3, open: true)
        XCTAssertEqual(notes.sent.map(\.title), ["\u{2068}Garden door\u{2069}: Door open"], "one opening, one notification")
        XCTAssertTrue(notes.sent.first?.body.hasPrefix("At ") ?? false)
        await hear(4, open: false)
        await hear(5, open: true)
        XCTAssertEqual(notes.sent.count, 2, "opened again")
        // The timeline: each change once, however often a state is repeated, kept for a favorite.
        XCTAssertEqual(live.recentStateChanges(of: door).map(\.value), [0, 1, 0, 1])
        await live.drain()
        let stored = await kept.samples.filter { $0.key == "door" }.map(\.value)
        XCTAssertEqual(stored, [0, 1, 0, 1])
        _ = watch
        live.stop()
    }

    func testAButtonNotifiesOfEachPressOnceAndItsSwitchSaysSo() async {
        let button = TestDevices.id(5, kind: .lePublic)
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let repository = FakeFavoritesRepository([
            Favorite(id: button, nickname: "Doorbell", lastKnownName: "Switch", addedAt: Date(), updatedAt: Date()),
        ])
        let favorites = Favorites(useCases: FavoritesUseCases(repository: repository), live: live, sightings: nil)
        await favorites.load()
        let notes = Notes()
        let watch = ReadingLimitsWatch(live: live, favorites: favorites, notifier: notes)
        live.start(mode: .continuous)
        func hear(_ packet: UInt8, _ event: UInt8) async {
            scanner.feed(Observation(id: button, timestamp: Date(), rssi: -60, name: "Switch",
                                     serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): [0x40, 0x00, packet, 0x3A, event]]))
            await live.drain()
        }
        await hear(1, 1)
        let page = DeviceDetailViewModel(id: button, favorites: favorites, live: live, sightings: nil)
        XCTAssertEqual(page.stateChoices.map(\.title), ["Notify When “Button” Is Pressed"])
        let saved = await page.setNotifies("button", true)
        XCTAssertNil(saved)
        watch.evaluate()
        XCTAssertTrue(notes.sent.isEmpty, "a press before the switch was turned on is not told")
        for (packet, event) in [(2, 1), (2, 1), (3, 0), (4, 2)] as [(UInt8, UInt8)] { await hear(packet, event) }
        XCTAssertEqual(notes.sent.map(\.title), ["\u{2068}Doorbell\u{2069}: Button pressed", "\u{2068}Doorbell\u{2069}: Button pressed twice"],
                       "each press once, however often its frame is repeated")
        XCTAssertEqual(page.stateChoices.map(\.isOn), [true])
        live.stop()
    }

    func testANightLightsMotionIsOnTheTimelineOncePerFrameAndNeverLeftOn() async {
        let light = TestDevices.id(4, kind: .lePublic)
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        live.start(mode: .continuous)
        // Xiaomi's MUE4094RT: MiBeacon with its frame counter at byte 4, then "motion seen" (0x0003).
        for counter: UInt8 in [0x1D, 0x1D, 0x1E, 0x1E, 0x1F] {
            scanner.feed(Observation(id: light, timestamp: Date(), rssi: -60, name: "Night light",
                                     serviceData: [ServiceID(BluetoothUUID(0xFE95), name: nil): [0x40, 0x30, 0xDD, 0x03, counter, 0x03, 0x00, 0x01, 0x01, 0x00]]))
            await live.drain()
        }
        let changes = live.recentStateChanges(of: light)
        XCTAssertEqual(changes.map(\.key), ["motion_seen", "motion_seen", "motion_seen"], "three frames, each once")
        XCTAssertEqual(changes.map { ReadingText.text(SensorReading(Quantity.known("motion_seen"), $0.value)) },
                       ["Motion seen", "Motion seen", "Motion seen"])
        live.stop()
    }

    func testEachButtonPressIsOnTheTimelineOnceHoweverOftenItsFrameIsRepeated() async {
        let button = TestDevices.id(6, kind: .lePublic)
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        live.start(mode: .continuous)
        // BTHome v2: packet number, then the button's event (0x3A): 1 a press, 2 a double press, 0 none.
        func hear(_ packet: UInt8, _ event: UInt8) async {
            scanner.feed(Observation(id: button, timestamp: Date(), rssi: -60, name: "Switch",
                                     serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): [0x40, 0x00, packet, 0x3A, event]]))
            await live.drain()
        }
        for (packet, event) in [(1, 1), (1, 1), (1, 1), (2, 1), (3, 0), (4, 2), (4, 2)] as [(UInt8, UInt8)] { await hear(packet, event) }
        let changes = live.recentStateChanges(of: button)
        XCTAssertEqual(changes.map(\.value), [1, 1, 2], "three presses, each once")
        XCTAssertEqual(changes.map { ReadingText.text(SensorReading(.button, $0.value)) },
                       ["Button pressed", "Button pressed", "Button pressed twice"])
        live.stop()
    }
}
