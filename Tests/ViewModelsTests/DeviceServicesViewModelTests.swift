// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// The detail page's browser in words, over a connector that answers as the test says.
@MainActor
final class DeviceServicesViewModelTests: XCTestCase {
    private let device = TestDevices.id(5, kind: .leRandom)
    private let vendor = BluetoothUUID("12345678-1234-1234-1234-123456789ABD")!

    private func connected(_ connector: FakeConnector) async -> (ChatSessions, GATTBrowser, DeviceServicesViewModel) {
        connector.service = nil
        connector.tree = [
            GATTService(uuid: BluetoothUUID(0x180D), name: "Heart Rate", start: 1, end: 4, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A37), name: "Heart Rate Measurement", handle: 2, valueHandle: 3, properties: [.notify],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), name: "Client Characteristic Configuration", handle: 4)]),
            ]),
            GATTService(uuid: BluetoothUUID("12345678-1234-1234-1234-123456789ABC")!, name: nil, start: 5, end: 10, characteristics: [
                GATTCharacteristic(uuid: vendor, handle: 6, valueHandle: 7, properties: [.read, .write], descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2901), handle: 8)]),
                GATTCharacteristic(uuid: BluetoothUUID("12345678-1234-1234-1234-123456789ABE")!, handle: 9, valueHandle: 10, properties: [.read]),
            ]),
        ]
        connector.values = [7: [0x2C, 0x01], 8: Array("Set point".utf8), 10: Array("hello".utf8)]
        let sessions = ChatSessions(connector: connector, chats: nil)
        let browser = GATTBrowser(sessions: sessions, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let model = DeviceServicesViewModel(browser: browser)
        sessions.connect(to: device)
        _ = await untilTrue { browser.phase == .ready && browser.userDescriptions[7] != nil }
        return (sessions, browser, model)
    }

    func testNamesComeFromTheUserThenTheDeviceThenTheTablesAndValuesAreShownAsTheyRead() async {
        let connector = FakeConnector()
        let (sessions, browser, model) = await connected(connector)
        XCTAssertTrue(model.isConnected(device))
        var services = model.services
        XCTAssertEqual(services.map(\.title), ["Heart Rate", "Unknown Service"])
        // In words by default; the identifiers only when asked for (Preferences).
        XCTAssertEqual(services[0].subtitle, "1 characteristic")
        XCTAssertEqual(services[0].characteristics[0].details, "Notify")
        XCTAssertEqual(services[0].characteristics[0].descriptors, [])
        var kept: [Bool] = []
        model.onShowsIdentifiersChange = { kept.append($0) }
        model.showsIdentifiers = true
        XCTAssertEqual(kept, [true], "the choice is kept")
        services = model.services
        XCTAssertEqual(services[0].subtitle, "180D · handles 0x0001–0x0004")
        XCTAssertEqual(services[0].characteristics[0].details, "2A37 · Notify")
        XCTAssertEqual(services[0].characteristics[0].descriptors, ["Client Characteristic Configuration (2902)"])
        XCTAssertEqual(services[1].characteristics.map(\.title), ["Set point", "Unknown Characteristic"], "0x2901, else unknown")

        // A printable value nothing decodes shows as text; every value as hex, with its size and time.
        await browser.read(10)
        let value = model.services[1].characteristics[1].value
        XCTAssertNil(value?.decoded)
        XCTAssertEqual(value?.text, "hello")
        XCTAssertEqual(value?.hex, "68 65 6C 6C 6F")
        XCTAssertEqual(value?.meta.hasPrefix("5 bytes · read at "), true)

        // The user's own name and format come first.
        model.setLabel(of: 7, name: "Target", formatIndex: DeviceServicesViewModel.writeFormats.firstIndex(of:
            .number(bytes: 2, signed: false, bigEndian: false))! + 1)
        _ = await untilTrue { browser.labels[self.vendor.text] != nil }
        await browser.read(7)
        services = model.services
        XCTAssertEqual(services[1].characteristics[0].title, "Target")
        XCTAssertEqual(services[1].characteristics[0].value?.decoded, "300")
        XCTAssertEqual(model.label(of: 7).name, "Target")
        withExtendedLifetime(sessions) {}
    }

    func testServiceChangedSaysFavBlueFollowsItInPlaceOfASwitchAndAnEmptyLog() async {
        let connector = FakeConnector()
        connector.service = nil
        connector.tree = [
            GATTService(uuid: BluetoothUUID(0x1801), name: "Generic Attribute", start: 1, end: 4, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A05), name: "Service Changed", handle: 2, valueHandle: 3, properties: [.indicate],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), name: "Client Characteristic Configuration", handle: 4)]),
            ]),
        ]
        let sessions = ChatSessions(connector: connector, chats: nil)
        let browser = GATTBrowser(sessions: sessions)
        let model = DeviceServicesViewModel(browser: browser)
        sessions.connect(to: device)
        _ = await untilTrue { browser.subscribed.contains(3) && browser.busy.isEmpty }
        let followed = model.services[0].characteristics[0]
        XCTAssertEqual(followed.followedNote, "FavBlue follows this itself: when the device’s services change, it discovers them again.")
        XCTAssertFalse(followed.canSubscribe, "no switch to turn the following off")
        XCTAssertNil(followed.log, "no log that stays at 0 notifications")
        withExtendedLifetime(sessions) {}
    }

    func testANotifiedNumberIsLoggedWithItsRateAndPlottedInWords() async {
        let connector = FakeConnector()
        let (sessions, browser, model) = await connected(connector)
        await browser.setSubscribed(3, true)
        for (n, rate) in [70, 74, 72].enumerated() {
            connector.notify(3, [0x00, UInt8(rate)], at: Date(timeIntervalSince1970: 1_800_000_000 + Double(n) / 10))
        }
        _ = await untilTrue { browser.logs[3]?.count == 3 }
        let log = model.services[0].characteristics[0].log
        XCTAssertEqual(log?.figures, [70, 74, 72])
        XCTAssertEqual(log?.plotSummary, "Last 3 values: lowest 70, highest 74, last 72")
        XCTAssertEqual(log?.scale, .init(highest: "74 bpm", lowest: "70 bpm", last: "72 bpm"), "the plot's edges, with the unit")
        XCTAssertEqual(log?.count, "3 notifications")
        XCTAssertEqual(log?.lines.count, 3)
        XCTAssertEqual(log?.lines.last?.hasSuffix("  00 48  72 bpm"), true, log?.lines.last ?? "")
        XCTAssertEqual(model.services[0].characteristics[0].value?.meta.hasPrefix("2 bytes · received at "), true)
        withExtendedLifetime(sessions) {}
    }
}
