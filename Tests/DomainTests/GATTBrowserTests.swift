// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import XCTest

/// The GATT browser's rules, over a connector that answers as the test says.
@MainActor
final class GATTBrowserTests: XCTestCase {
    private let device = TestDevices.id(9, kind: .leRandom)
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)

    /// Battery (with a user description and a presentation format on a vendor characteristic) and a writable vendor value.
    private func connector() -> FakeConnector {
        let connector = FakeConnector()
        connector.service = nil
        connector.tree = [
            GATTService(uuid: BluetoothUUID(0x180F), name: "Battery", start: 1, end: 4, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A19), name: "Battery Level", handle: 2, valueHandle: 3, properties: [.read, .notify],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 4)]),
            ]),
            GATTService(uuid: BluetoothUUID("12345678-1234-1234-1234-123456789ABC")!, name: nil, start: 5, end: 9, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID("12345678-1234-1234-1234-123456789ABD")!, handle: 6, valueHandle: 7, properties: [.read, .write],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2901), handle: 8), GATTDescriptor(uuid: BluetoothUUID(0x2904), handle: 9)]),
            ]),
        ]
        connector.values = [3: [87], 7: [0x34, 0x12], 8: Array("Set point".utf8), 9: [0x06, 0, 0x2F, 0x27, 1, 0, 0]]
        return connector
    }

    /// Lets what is already queued on the main actor run (a yield loop; no real time passes).
    private func letQueuedWorkRun() async { _ = await untilTrue { false } }

    /// Battery levels told to Favorites, in order.
    private var batteries: [Int] = []

    private func connected(_ connector: FakeConnector) async -> (ChatSessions, GATTBrowser) {
        let sessions = ChatSessions(connector: connector, chats: nil)
        let browser = GATTBrowser(sessions: sessions, now: { self.clock })
        browser.onBattery = { [weak self] device, level in
            XCTAssertEqual(device, self?.device)
            self?.batteries.append(level)
        }
        sessions.connect(to: device)
        // Connected, discovered, and done with what connecting does on its own (the battery's read and subscription).
        _ = await untilTrue { browser.phase == .ready && browser.formats[7] != nil && browser.subscribed.contains(3) && browser.busy.isEmpty }
        return (sessions, browser)
    }

    func testTheBatteryLevelIsReadAndFollowedOnConnectForFavorites() async {
        let connector = connector()
        let (sessions, browser) = await connected(connector)
        XCTAssertEqual(batteries, [87])
        connector.notify(3, [86])
        _ = await untilTrue { self.batteries.count == 2 }
        connector.notify(3, [200])
        connector.notify(3, [85])
        _ = await untilTrue { self.batteries.count == 3 }
        XCTAssertEqual(batteries, [87, 86, 85], "a level over 100 % is no level")
        withExtendedLifetime((sessions, browser)) {}
    }

    func testConnectingDiscoversTheTreeAndNamesAndFormatsFromItsDescriptorsButReadsNoValue() async {
        let connector = connector()
        let (_, browser) = await connected(connector)
        XCTAssertEqual(browser.device, device)
        XCTAssertEqual(browser.services.map(\.uuid.text), ["180F", "12345678-1234-1234-1234-123456789ABC"])
        XCTAssertEqual(browser.userDescriptions, [7: "Set point"], "0x2901 names the characteristic")
        XCTAssertEqual(browser.formats[7], PresentationFormat(format: 0x06, exponent: 0, unit: 0x272F), "0x2904 says how to read it")
        XCTAssertEqual(Set(browser.values.keys), [3], "only the battery is read on its own (Favorites shows it); the rest when asked")
        XCTAssertEqual(browser.subscribed, [3], "and followed")
    }

    func testAReadKeepsTheValueAndItsTimeAndAFailedOneSaysWhyAndWhetherPairingHelps() async {
        let connector = connector()
        connector.readFailures[7] = .device(message: "Insufficient authentication: pair with the device first.", wantsPairing: true)
        let (_, browser) = await connected(connector)
        await browser.read(3)
        XCTAssertEqual(browser.values[3], GATTBrowser.Reading(bytes: [87], time: clock))
        await browser.read(7)
        XCTAssertNil(browser.values[7])
        XCTAssertEqual(browser.readProblems[7]?.wantsPairing, true)
        XCTAssertEqual(browser.busy, [])
        // Read all values reads every readable characteristic, once each.
        connector.readFailures = [:]
        await browser.readAll()
        XCTAssertEqual(browser.values[7]?.bytes, [0x34, 0x12])
        XCTAssertNil(browser.readProblems[7], "a read that worked clears the old problem")
    }

    func testABadValueIsRefusedAtTheEntryAndNothingIsSentWhileAGoodOneIsWritten() async {
        let connector = connector()
        let (_, browser) = await connected(connector)
        let problem = await browser.write("12G4", as: .hex, to: 7, withResponse: true)
        XCTAssertEqual(problem, "“G” is not a hex digit (0–9, A–F).")
        let tooBig = await browser.write("70000", as: .number(bytes: 2, signed: false, bigEndian: false), to: 7, withResponse: true)
        XCTAssertNotNil(tooBig)
        XCTAssertTrue(connector.written.isEmpty, "nothing sent")
        let none = await browser.write("4660", as: .number(bytes: 2, signed: false, bigEndian: true), to: 7, withResponse: false)
        XCTAssertNil(none)
        XCTAssertEqual(connector.written.map(\.value), [[0x12, 0x34]])
        XCTAssertEqual(connector.written.map(\.withResponse), [false])
        XCTAssertEqual(browser.writes[7], .done(clock, bytes: 2))
    }

    func testTheTreeGoesWithTheConnectionAndComesBackWithTheNext() async {
        let connector = connector()
        let (sessions, browser) = await connected(connector)
        await browser.read(3)
        sessions.disconnect()
        _ = await untilTrue { browser.phase == .idle }
        XCTAssertNil(browser.device)
        XCTAssertEqual(browser.services, [])
        XCTAssertEqual(browser.values, [:])
        sessions.connect(to: device)
        _ = await untilTrue { browser.phase == .ready }
        XCTAssertEqual(browser.services.count, 2)
        XCTAssertEqual(connector.discoveries, 2)
    }

    func testServiceChangedLeadsToANewDiscoveryAndDropsWhatWasReadOfTheOldTree() async {
        let connector = connector()
        connector.tree.insert(GATTService(uuid: BluetoothUUID(0x1801), name: "Generic Attribute", start: 20, end: 23, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A05), handle: 21, valueHandle: 22, properties: [.indicate],
                               descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 23)]),
        ]), at: 0)
        let (sessions, browser) = await connected(connector)
        _ = await untilTrue { browser.subscribed == [3, 22] && browser.busy.isEmpty }
        XCTAssertEqual(connector.subscriptions.filter { $0.handle == 22 }.map(\.indicate), [true], "Service Changed is followed")
        await browser.read(7)
        XCTAssertNotNil(browser.values[7])
        // The device's firmware changed: it indicates Service Changed, and the tree is found again.
        connector.tree.removeLast()
        connector.notify(22, [0x01, 0x00, 0xFF, 0xFF])
        _ = await untilTrue { connector.discoveries == 2 && browser.phase == .ready }
        XCTAssertEqual(browser.services.map(\.uuid.text), ["1801", "180F"])
        XCTAssertNil(browser.values[7], "a value of the old tree is gone with it")
        withExtendedLifetime(sessions) {}
    }

    func testTheNamesGivenToCharacteristicsAreLoadedOnConnectKeptAndForgotten() async {
        let store = Labels()
        let vendor = "12345678-1234-1234-1234-123456789ABD"
        await store.save(CharacteristicLabel(uuid: vendor, name: "Set point", format: .number(bytes: 2, signed: false, bigEndian: false)),
                         for: device)
        let sessions = ChatSessions(connector: connector(), chats: nil)
        let browser = GATTBrowser(sessions: sessions, labels: store)
        sessions.connect(to: device)
        _ = await untilTrue { browser.labels[vendor] != nil }
        XCTAssertEqual(browser.labels[vendor]?.name, "Set point", "loaded with the connection")
        await browser.setLabel(vendor, name: "  Target temperature  ", format: nil)
        let saved = await store.labels(of: device)
        XCTAssertEqual(saved[vendor], CharacteristicLabel(uuid: vendor, name: "Target temperature", format: nil), "trimmed and kept")
        await browser.setLabel(vendor, name: "", format: nil)
        let forgotten = await store.labels(of: device)
        XCTAssertEqual(forgotten, [:])
        XCTAssertNil(browser.labels[vendor])
    }

    /// Try the Demo: the names given from then on go to the demo's own store; the user's keeps
    /// what it had, and nothing of the demo's.
    func testNamesGivenInTheDemoGoToItsOwnStoreAndTheUsersIsLeftAsItWas() async {
        let users = Labels(), demos = Labels()
        let vendor = "12345678-1234-1234-1234-123456789ABD"
        let own = CharacteristicLabel(uuid: vendor, name: "Set point", format: nil)
        await users.save(own, for: device)
        let sessions = ChatSessions(connector: connector(), chats: nil)
        let browser = GATTBrowser(sessions: sessions, labels: users)
        sessions.connect(to: device)
        _ = await untilTrue { browser.labels[vendor] != nil }
        browser.keepLabels(in: demos)
        XCTAssertNil(browser.labels[vendor], "the demo's store knows none of the user's names")
        await browser.setLabel(vendor, name: "Demo name", format: nil)
        XCTAssertEqual(browser.labels[vendor]?.name, "Demo name")
        let inTheDemo = await demos.labels(of: device)
        XCTAssertEqual(inTheDemo[vendor]?.name, "Demo name")
        let usersNow = await users.labels(of: device)
        XCTAssertEqual(usersNow, [vendor: own], "the user's names as they were")
    }

    func testARouteThatCannotBrowseSaysSo() async {
        final class NoBrowsing: DeviceConnector, @unchecked Sendable {
            let inner = FakeConnector()
            var events: Feed<ConnectionEvent> { inner.events }
            var state: ConnectionState { inner.state }
            func connect(to device: DeviceID) { inner.connect(to: device) }
            func cancel() { inner.cancel() }
            func disconnect() { inner.disconnect() }
            func send(_ text: String) async throws(ChatSendError) {}
        }
        let sessions = ChatSessions(connector: NoBrowsing(), chats: nil)
        let browser = GATTBrowser(sessions: sessions)
        sessions.connect(to: device)
        _ = await untilTrue { if case .failed = browser.phase { return true } else { return false } }
        XCTAssertEqual(browser.phase, .failed("This source cannot browse a device’s services."))
    }

    func testNotificationsAreLoggedNewestThousandKeptPausedWithoutLossAndEndWithTheConnection() async {
        let connector = connector()
        let clock = TestClock()
        let sessions = ChatSessions(connector: connector, chats: nil)
        var now = self.clock
        let browser = GATTBrowser(sessions: sessions, now: { now }, clock: clock)
        var changes = 0
        let token = browser.observe { changes += 1 }
        sessions.connect(to: device)
        // The battery level is followed on connect, through its CCCD, for notifications.
        _ = await untilTrue { browser.phase == .ready && browser.subscribed == [3] && browser.busy.isEmpty }
        await clock.advance(by: GATTBrowser.notifyInterval)
        XCTAssertEqual(connector.subscriptions.map(\.cccd), [4], "the CCCD written, for notifications")
        XCTAssertEqual(connector.subscriptions.map(\.indicate), [false])
        XCTAssertEqual(browser.subscribed, [3])

        // A burst: every value is logged in order, and the page hears of them at most ten times a second.
        await letQueuedWorkRun()
        let before = changes
        for n in 0 ..< 1_200 { connector.notify(3, [UInt8(n % 100)], at: self.clock.addingTimeInterval(Double(n) / 1_000)) }
        _ = await untilTrue { browser.values[3]?.time == self.clock.addingTimeInterval(1.199) }
        XCTAssertEqual(browser.logs[3]?.count, 1_000, "the newest thousand")
        XCTAssertEqual(browser.logs[3]?.first?.bytes, [0], "entry 200 of 1,200 is the oldest kept")
        XCTAssertEqual(browser.logs[3]?.last?.bytes, [99])
        XCTAssertEqual(changes, before, "not one redraw per notification")
        await clock.advance(by: GATTBrowser.notifyInterval)
        _ = await untilTrue { changes > before }
        XCTAssertEqual(changes, before + 1, "one for the whole burst")
        now = self.clock.addingTimeInterval(1.1999)
        XCTAssertEqual(browser.rate(of: 3), 1_000, "the last second's worth")

        // Paused, the log holds still; what arrives joins it on resume.
        browser.clearLog(3)
        browser.setPaused(3, true)
        connector.notify(3, [1])
        connector.notify(3, [2])
        _ = await untilTrue { browser.values[3]?.bytes == [2] }
        XCTAssertNil(browser.logs[3], "paused")
        browser.setPaused(3, false)
        XCTAssertEqual(browser.logs[3]?.map(\.bytes), [[1], [2]])

        // A characteristic not subscribed to is not logged; the end of the connection ends subscriptions.
        connector.notify(7, [5])
        sessions.disconnect()
        _ = await untilTrue { browser.phase == .idle }
        XCTAssertEqual(browser.subscribed, [])
        XCTAssertNil(browser.logs[7])
        XCTAssertEqual(browser.logs[3]?.count, 2, "the log stays readable after the connection")
        withExtendedLifetime(token) {}
    }

    func testEveryValueSentBeforeUnsubscribingIsCountedAndLoggedAndNoneAfter() async {
        let connector = connector()
        let (_, browser) = await connected(connector)
        // Still waiting in the connector's feed when the unsubscription is answered.
        for n in 0 ..< 1_500 { connector.notify(3, [UInt8(n % 100)]) }
        await browser.setSubscribed(3, false)
        XCTAssertEqual(browser.received[3], 1_500, "every value sent before the answer, beyond the log's thousand")
        XCTAssertEqual(browser.logs[3]?.count, 1_000)
        XCTAssertEqual(browser.logs[3]?.last?.bytes, [99])
        XCTAssertFalse(browser.subscribed.contains(3))
        connector.notify(3, [7])
        await letQueuedWorkRun()
        XCTAssertEqual(browser.received[3], 1_500, "nothing counted once unsubscribed")
    }

    func testACharacteristicThatOnlyIndicatesIsSubscribedForIndicationsAndOneWithoutACCCDSaysWhy() async {
        let connector = connector()
        connector.tree.append(GATTService(uuid: BluetoothUUID(0x1809), name: "Health Thermometer", start: 10, end: 14, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A1C), handle: 11, valueHandle: 12, properties: [.indicate],
                               descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 13)]),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A1E), handle: 14, valueHandle: 15, properties: [.notify]),
        ]))
        let (_, browser) = await connected(connector)
        await browser.setSubscribed(12, true)
        XCTAssertEqual(connector.subscriptions.filter { $0.handle == 12 }.map(\.indicate), [true])
        await browser.setSubscribed(15, true)
        XCTAssertEqual(browser.subscribeProblems[15]?.message,
                       "This characteristic has no configuration descriptor, so it cannot be subscribed to.")
        XCTAssertEqual(browser.subscribed, [3, 12], "the battery, followed on connect, and the thermometer")
        await browser.setSubscribed(12, false)
        XCTAssertEqual(connector.subscriptions.filter { $0.handle == 12 }.map(\.on), [true, false])
        XCTAssertEqual(browser.subscribed, [3])
    }
}

/// Names given to characteristics, kept in memory by device.
private actor Labels: CharacteristicLabelsRepository {
    var kept: [DeviceID: [String: CharacteristicLabel]] = [:]
    func labels(of device: DeviceID) -> [String: CharacteristicLabel] { kept[device] ?? [:] }
    func save(_ label: CharacteristicLabel, for device: DeviceID) { kept[device, default: [:]][label.uuid] = label }
    func remove(uuid: String, for device: DeviceID) { kept[device]?[uuid] = nil }
}
