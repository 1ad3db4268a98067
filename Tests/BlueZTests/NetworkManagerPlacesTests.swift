// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import HomeServices
import TestSupport
import XCTest

@MainActor
private final class Notes: DesktopNotifier {
    var sent: [String] = []
    func send(id: String, title: String, body: String, opening device: DeviceID) { sent.append(title) }
}

/// Places from NetworkManager, through python-dbusmock's networkmanager template on a private
/// bus: the Wi-Fi network the machine is on, told by its name and access point, hashed; and a
/// place change during a scan counted by the tracker rule.
@MainActor
final class NetworkManagerPlacesTests: XCTestCase {
    private let nm = "org.freedesktop.NetworkManager"

    private func mock(_ bus: MockBlueZ, _ method: String, _ args: [DBusValue]) async throws -> String {
        let reply = try await bus.control.call(service: nm, path: "/org/freedesktop", interface: "org.freedesktop.DBus.Mock",
                                               method: method, args: args)
        return reply.items?.first?.stringValue ?? ""
    }

    /// A Wi-Fi device on the access point `ap` of "Home"; returns the device and the active connection.
    private func online(_ bus: MockBlueZ) async throws -> (device: String, active: String) {
        let device = try await mock(bus, "AddWiFiDevice", [.string("wifi0"), .string("wlan0"), .int32(100)])
        let ap = try await mock(bus, "AddAccessPoint", [.string(device), .string("home_ap"), .string("Home"), .string("AA:BB:CC:00:00:01"),
                                                        .uint32(2), .uint32(2437), .uint32(5400), .byte(80), .uint32(0x100)])
        let connection = try await mock(bus, "AddWiFiConnection", [.string(device), .string("home"), .string("Home"), .string("wpa-psk")])
        let active = try await mock(bus, "AddActiveConnection", [.array(elementType: "s", [.string(device)]), .string(connection),
                                                                 .string(ap), .string("active0"), .uint32(2)])
        return (device, active)
    }

    private func move(_ bus: MockBlueZ, _ device: String, active: String, to name: String, bssid: String) async throws {
        let ap = try await mock(bus, "AddAccessPoint", [.string(device), .string(name + "_ap"), .string(name), .string(bssid),
                                                        .uint32(2), .uint32(2437), .uint32(5400), .byte(80), .uint32(0x100)])
        _ = try await bus.control.call(service: nm, path: active, interface: "org.freedesktop.DBus.Properties", method: "Set",
                                       args: [.string("org.freedesktop.NetworkManager.Connection.Active"), .string("SpecificObject"),
                                              .variant(.objectPath(ap))])
    }

    func testTheWiFiNetworkIsThePlaceHashedAndAMoveChangesIt() async throws {
        let bus = try MockBlueZ()
        try await bus.startMock(template: "networkmanager", name: nm)
        let (device, active) = try await online(bus)
        let places = NetworkManagerPlaces(hash: { "hashed(\($0))" }, interval: .seconds(3600), address: bus.address)
        await places.refresh()
        XCTAssertTrue(places.isAvailable)
        XCTAssertEqual(places.current, "hashed(wifi:486F6D65/AA:BB:CC:00:00:01)", "the SSID's bytes and the BSSID, never kept as they are")
        var changes = 0
        places.onChange = { changes += 1 }
        try await move(bus, device, active: active, to: "Cafe", bssid: "AA:BB:CC:00:00:02")
        await places.refresh()
        XCTAssertEqual(places.current, "hashed(wifi:43616665/AA:BB:CC:00:00:02)")
        XCTAssertEqual(changes, 1)
        await places.refresh()
        XCTAssertEqual(changes, 1, "no change, no news")
    }

    func testWithoutNetworkManagerNoPlaceCanBeTold() async throws {
        let bus = try MockBlueZ()
        let places = NetworkManagerPlaces(hash: { $0 }, interval: .seconds(3600), address: bus.address)
        await places.refresh()
        XCTAssertFalse(places.isAvailable)
        XCTAssertNil(places.current)
    }

    func testAPlaceChangeDuringAScanIsCountedByTheRule() async throws {
        let bus = try MockBlueZ()
        try await bus.startMock(template: "networkmanager", name: nm)
        let (device, active) = try await online(bus)
        let places = NetworkManagerPlaces(hash: { $0 }, interval: .seconds(3600), address: bus.address)
        await places.refresh()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository([])), live: live, sightings: nil)
        let notes = Notes()
        let guarded = TrackerGuard(live: live, favorites: favorites, notifier: notes, places: places, isOn: true, sensitivity: .high)
        live.start(mode: .continuous)
        let tag = TestDevices.id(5, kind: .leRandom)
        let data: [UInt8] = [0x12, 0x19, 0x10] + Array(repeating: 0x44, count: 24)
        func hear(_ minute: Int) async {
            scanner.feed(Observation(id: tag, timestamp: Date(timeIntervalSince1970: 1_800_000_000 + Double(minute) * 60), rssi: -55,
                                     manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: data)]))
            await live.drain()
        }
        for minute in 0..<20 { await hear(minute) }
        try await move(bus, device, active: active, to: "Office", bssid: "AA:BB:CC:00:00:03")
        await places.refresh()
        for minute in 20..<40 { await hear(minute) }
        XCTAssertEqual(notes.sent, ["An AirTag has been moving with you for 30 minutes"], "two places, half an hour: high sensitivity's bar")
        XCTAssertEqual(guarded.status(of: tag)?.alert?.places, 2)
        live.stop()
    }
}
