// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Connect and chat through BlueZ: Device1.Connect, ServicesResolved, the chat service's
/// GattService1 and GattCharacteristic1 objects (added by the test, as bluetoothd adds them),
/// StartNotify, WriteValue and Value changes, against the dbusmock bluez5 template.
final class BlueZConnectorTests: XCTestCase {
    var mock: MockBlueZ!
    private let address = "C0:98:E5:49:00:07"
    var device: DeviceID { try! DeviceID(parsing: address, kind: .lePublic) }
    let path = "/org/bluez/hci0/dev_C0_98_E5_49_00_07"

    override func setUp() async throws {
        mock = try MockBlueZ()
        try await mock.startMock()
        try await mock.addAdapter()
        try await mock.addDevice(address, name: "Chat Peer")
    }

    override func tearDown() {
        mock?.stop()
    }

    func eventually(_ what: String, _ seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                            _ condition: () async throws -> Bool) async throws {
        try await MockBlueZ.eventually(seconds, what, file: file, line: line, condition)
    }

    /// The GATT objects bluetoothd would add once connected: a service with TX (notify) and RX.
    private func addChatService(_ profile: (service: String, tx: String, rx: String), rxFlags: [String]) async throws
        -> (tx: String, rx: String) {
        let service = path + "/service000a", tx = service + "/char000b", rx = service + "/char000d"
        try await mock.addObject(service, "org.bluez.GattService1", [
            "UUID": .string(profile.service), "Primary": .bool(true), "Device": .objectPath(path),
        ])
        let notifyCode = "self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(True)})"
        try await mock.addObject(tx, "org.bluez.GattCharacteristic1", [
            "UUID": .string(profile.tx), "Service": .objectPath(service), "Value": .bytes([]), "Notifying": .bool(false),
            "Flags": .array(elementType: "s", [.string("notify")]),
        ], methods: [("StartNotify", "", "", notifyCode), ("StopNotify", "", "", "")])
        try await mock.addObject(rx, "org.bluez.GattCharacteristic1", [
            "UUID": .string(profile.rx), "Service": .objectPath(service), "Value": .bytes([]),
            "Flags": .array(elementType: "s", rxFlags.map { .string($0) }),
        ], methods: [("WriteValue", "aya{sv}", "", "")])
        return (tx, rx)
    }

    private let chat = (service: "7e57c000-2c8f-4f3c-9f91-8577e1891234", tx: "7e57c001-2c8f-4f3c-9f91-8577e1891234",
                        rx: "7e57c002-2c8f-4f3c-9f91-8577e1891234")
    private let nordic = (service: "6e400001-b5a3-f393-e0a9-e50e24dcca9e", tx: "6e400003-b5a3-f393-e0a9-e50e24dcca9e",
                          rx: "6e400002-b5a3-f393-e0a9-e50e24dcca9e")

    func connector() -> BlueZConnector {
        BlueZConnector(bus: BlueZBus(address: mock.address), connectTimeout: 5, resolveTimeout: 5)
    }

    func testAChatRunsOverTheGattObjectsBlueZResolves() async throws {
        let connector = connector()
        let events = EventLog(connector)
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        XCTAssertEqual(connector.state, .connecting(device), "connecting until BlueZ has resolved the services")
        let (tx, rx) = try await addChatService(chat, rxFlags: ["write", "write-without-response"])
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected with the chat service") { connector.state == .connected(self.device, service: .chat) }
        let notifying = try await mock.get(tx, "org.bluez.GattCharacteristic1", "Notifying")
        XCTAssertEqual(notifying, .bool(true), "StartNotify on TX")
        try await eventually("services listed") {
            events.services?.contains { $0.uuid == "7E57C000-2C8F-4F3C-9F91-8577E1891234" } == true
        }

        // A write reaches the mock, acknowledged, as the RX flags allow.
        try await connector.send("hello")
        let writes = try await mock.arguments(rx, "WriteValue")
        XCTAssertEqual(writes.count, 1)
        XCTAssertEqual(writes.first?.first, .bytes(Array("hello".utf8)))
        XCTAssertEqual(writes.first?.last?.stringKeyed?["type"], .string("request"))

        // A value set on TX arrives as a message, emoji intact.
        try await mock.set(tx, "org.bluez.GattCharacteristic1", "Value", .bytes(Array("hi there 👋".utf8)))
        try await eventually("the message arrives") { events.received.map(\.body) == [.text("hi there 👋")] }

        connector.disconnect()
        try await eventually("idle after Disconnect") { connector.state == .idle }
        let calls = try await mock.calls(path)
        XCTAssertTrue(calls.contains("Disconnect"), "\(calls)")
        let connected = try await mock.get(path, "org.bluez.Device1", "Connected")
        XCTAssertEqual(connected, .bool(false))
    }

    func testAConnectionFollowsTheDeviceToTheIdentityPairingReveals() async throws {
        let connector = connector()
        let events = EventLog(connector)
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        let (tx, _) = try await addChatService(chat, rxFlags: ["write"])
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected") { connector.state == .connected(self.device, service: .chat) }
        // bluetoothd, given the identity key, gives the same object the identity address.
        let identity = try DeviceID(parsing: "F0:11:22:33:44:55", kind: .lePublic)
        try await mock.set(path, "org.bluez.Device1", "Address", .string("F0:11:22:33:44:55"))
        try await eventually("connected under the identity") { connector.state == .connected(identity, service: .chat) }
        try await mock.set(tx, "org.bluez.GattCharacteristic1", "Value", .bytes(Array("after".utf8)))
        try await eventually("the message is the identity's") { events.received.map(\.device) == [identity] }
    }

    func testNordicUARTIsTheFallbackAndWritesWithoutResponseWhereThatIsAllRXAllows() async throws {
        let connector = connector()
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        let (_, rx) = try await addChatService(nordic, rxFlags: ["write-without-response"])
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected over NUS") { connector.state == .connected(self.device, service: .nordicUART) }
        // Longer than one write: split at ATT_MTU − 3 without cutting a character.
        let text = String(repeating: "é", count: 15)
        try await connector.send(text)
        let writes = try await mock.arguments(rx, "WriteValue")
        XCTAssertEqual(writes.count, 2)
        XCTAssertEqual(Array(writes.compactMap { if case .bytes(let b) = $0.first { b } else { nil } }.joined()), Array(text.utf8))
        XCTAssertTrue(writes.allSatisfy { $0.last?.stringKeyed?["type"] == .string("command") })
        connector.disconnect()
    }

    func testADeviceWithoutAChatServiceConnectsAndSaysSo() async throws {
        let connector = connector()
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected, no chat") { connector.state == .connected(self.device, service: nil) }
        do {
            try await connector.send("hello")
            XCTFail("sent without a chat service")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
        connector.disconnect()
    }

    func testTheLinkDroppingEndsTheChatWithAReason() async throws {
        let connector = connector()
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        _ = try await addChatService(chat, rxFlags: ["write"])
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected") { connector.state.canChat }
        try await mock.call("/org/bluez", "org.bluez.Mock", "DisconnectDevice", [.string("hci0"), .string(address)])
        try await eventually("failed: ended") { connector.state == .failed(.ended) }
    }

    /// bluetoothd answers an ATT Insufficient Authentication or Encryption with NotPermitted "Not paired":
    /// a write says to pair first, and so does a subscription that needs it, instead of a dead end.
    func testADeviceThatWantsPairingSaysPairFirst() async throws {
        let connector = connector()
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        let (_, rx) = try await addChatService(chat, rxFlags: ["write"])
        let notPaired = "raise dbus.exceptions.DBusException('Not paired', name='org.bluez.Error.NotPermitted')"
        try await mock.addMethod(rx, "org.bluez.GattCharacteristic1", "WriteValue", in: "aya{sv}", code: notPaired)
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected") { connector.state.canChat }
        do {
            try await connector.send("hello")
            XCTFail("a write the device refused was sent")
        } catch {
            XCTAssertEqual(error, .needsPairing)
            XCTAssertEqual(error.message, "The device wants to be paired first. Pair it on its page, then send again.")
        }
        connector.disconnect()
        try await eventually("idle") { connector.state == .idle }

        let tx = path + "/service000a/char000b"
        try await mock.addMethod(tx, "org.bluez.GattCharacteristic1", "StartNotify", code: notPaired)
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(false))
        connector.connect(to: device)
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("failed: pair first") { connector.state == .failed(.needsPairing) }
    }

    func testErrorsFromBlueZAreSaidInPlainWords() async throws {
        // A device BlueZ does not know.
        let connector = connector()
        connector.connect(to: try DeviceID(parsing: "C0:98:E5:49:00:55", kind: .leRandom))
        try await eventually("unknown device") {
            if case .failed(.service(let why)) = connector.state { return why.contains("Scan") } else { return false }
        }
        // A device that never answers (BlueZ's words for it).
        try await mock.addMethod(path, "org.bluez.Device1", "Connect", code:
            "raise dbus.exceptions.DBusException('le-connection-abort-by-local', name='org.bluez.Error.Failed')")
        connector.connect(to: device)
        try await eventually("no answer") { connector.state == .failed(.noAnswer(seconds: 5)) }
        XCTAssertEqual(ConnectionFailure.noAnswer(seconds: 5).message, "The device did not answer within 5 seconds.")
        // Services that never resolve.
        try await mock.addMethod(path, "org.bluez.Device1", "Connect", code:
            "self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True)})")
        let slow = BlueZConnector(bus: BlueZBus(address: mock.address), connectTimeout: 5, resolveTimeout: 1)
        slow.connect(to: device)
        try await eventually("not resolved") {
            if case .failed(.protocolError) = slow.state { return true } else { return false }
        }
    }

    func testCancelCallsOffAConnectStillUnderWay() async throws {
        // A Connect that BlueZ is still working on (a device that does not answer yet).
        try await mock.addMethod(path, "org.bluez.Device1", "Connect", code: "import time; time.sleep(2)")
        let connector = connector()
        connector.connect(to: device)
        try await eventually("connecting") { connector.state == .connecting(self.device) }
        connector.cancel()
        try await eventually("idle", 5) { connector.state == .idle }
        // Real time on purpose: past the moment the cancelled Connect would have completed in the mock.
        try await Task.sleep(for: .seconds(2.5))
        XCTAssertEqual(connector.state, .idle, "the late answer does not bring the attempt back")
    }
}

/// Nicknames reach the system: Device1.Alias, for the devices BlueZ knows.
final class BlueZAliasTests: XCTestCase {
    func testTheAliasFollowsTheNicknameAndAnEmptyOneResetsIt() async throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        try await mock.startMock()
        try await mock.addAdapter()
        let path = try await mock.addDevice("C0:98:E5:49:00:07", name: "Pixel 8")
        let writer = BlueZAliasWriter(bus: BlueZBus(address: mock.address))
        let known = try await writer.setAlias("Anna’s phone 📱", for: try DeviceID(parsing: "C0:98:E5:49:00:07", kind: .lePublic))
        XCTAssertTrue(known)
        let alias = try await mock.get(path, "org.bluez.Device1", "Alias")
        XCTAssertEqual(alias, .string("Anna’s phone 📱"))
        _ = try await writer.setAlias("", for: try DeviceID(parsing: "C0:98:E5:49:00:07", kind: .lePublic))
        let reset = try await mock.get(path, "org.bluez.Device1", "Alias")
        XCTAssertEqual(reset, .string(""), "BlueZ shows the device's own name for an empty alias")
        let unknown = try await writer.setAlias("Nobody", for: try DeviceID(parsing: "C0:98:E5:49:00:99", kind: .lePublic))
        XCTAssertFalse(unknown, "a device BlueZ does not know is left alone")
    }
}

/// The GATT browser through BlueZ's GattService1, GattCharacteristic1 and GattDescriptor1 objects.
extension BlueZConnectorTests {

    /// Battery (Level readable, with a user description) and a vendor service whose one
    /// characteristic is written and whose other answers Read Not Permitted; then connected.
    private func browsable(_ connector: BlueZConnector) async throws -> (level: String, vendor: String, locked: String) {
        let battery = path + "/service0010", level = battery + "/char0011", description = level + "/desc0013"
        let vendor = path + "/service0020", written = vendor + "/char0021", locked = vendor + "/char0023"
        try await mock.addObject(battery, "org.bluez.GattService1", ["UUID": .string("0000180f-0000-1000-8000-00805f9b34fb"),
                                                                     "Primary": .bool(true), "Device": .objectPath(path)])
        try await mock.addObject(level, "org.bluez.GattCharacteristic1", [
            "UUID": .string("00002a19-0000-1000-8000-00805f9b34fb"), "Service": .objectPath(battery), "Value": .bytes([]),
            "Flags": .array(elementType: "s", [.string("read"), .string("notify")]),
        ], methods: [("ReadValue", "a{sv}", "ay", "ret = dbus.Array([dbus.Byte(87)], signature='y')")])
        try await mock.addObject(description, "org.bluez.GattDescriptor1", [
            "UUID": .string("00002901-0000-1000-8000-00805f9b34fb"), "Characteristic": .objectPath(level),
        ], methods: [("ReadValue", "a{sv}", "ay", "ret = dbus.Array([dbus.Byte(c) for c in b'Main cell'], signature='y')")])
        try await mock.addObject(vendor, "org.bluez.GattService1", ["UUID": .string("12345678-1234-1234-1234-123456789abc"),
                                                                    "Primary": .bool(true), "Device": .objectPath(path)])
        try await mock.addObject(written, "org.bluez.GattCharacteristic1", [
            "UUID": .string("12345678-1234-1234-1234-123456789abd"), "Service": .objectPath(vendor),
            "Flags": .array(elementType: "s", [.string("write"), .string("write-without-response")]),
        ], methods: [("WriteValue", "aya{sv}", "", "")])
        try await mock.addObject(locked, "org.bluez.GattCharacteristic1", [
            "UUID": .string("12345678-1234-1234-1234-123456789abe"), "Service": .objectPath(vendor),
            "Flags": .array(elementType: "s", [.string("read")]),
        ], methods: [("ReadValue", "a{sv}", "ay",
                      "raise dbus.exceptions.DBusException('Read not permitted', name='org.bluez.Error.NotPermitted')")])
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected") { connector.state == .connected(self.device, service: nil) }
        return (level, written, locked)
    }

    func testTheBrowserSeesEveryServiceCharacteristicAndDescriptorWithHandlesFromBlueZsObjects() async throws {
        let connector = connector()
        _ = try await browsable(connector)
        let whole = try await connector.discoverServices()
        // BlueZ keeps Generic Access to itself: it is rebuilt from Device1, marked as the system's.
        let access = try XCTUnwrap(whole.first)
        XCTAssertEqual(access.uuid.text, "1800")
        XCTAssertTrue(access.fromSystem)
        XCTAssertEqual(access.characteristics.map(\.name), ["Device Name", "Appearance"])
        let name = try await connector.readValue(at: access.characteristics[0].valueHandle)
        XCTAssertEqual(String(decoding: name, as: UTF8.self), "Chat Peer")
        let tree = Array(whole.dropFirst())
        XCTAssertEqual(tree.map(\.uuid.text), ["180F", "12345678-1234-1234-1234-123456789ABC"])
        XCTAssertEqual(tree.map(\.name), ["Battery", nil])
        XCTAssertFalse(tree[0].fromSystem)
        XCTAssertEqual(tree[0].start, 0x10)
        let level = try XCTUnwrap(tree[0].characteristics.first)
        XCTAssertEqual(level.uuid.text, "2A19")
        XCTAssertEqual(level.name, "Battery Level")
        XCTAssertEqual([level.handle, level.valueHandle], [0x11, 0x12], "the value follows its declaration")
        XCTAssertEqual(level.properties.words, ["Read", "Notify"])
        XCTAssertEqual(level.descriptors, [GATTDescriptor(uuid: BluetoothUUID(0x2901), name: "Characteristic User Description", handle: 0x13)])
        XCTAssertEqual(tree[1].characteristics.map(\.properties.words), [["Write Without Response", "Write"], ["Read"]])
    }

    func testReadsAndWritesGoThroughBlueZAndItsRefusalsAreSaidInTheDevicesWords() async throws {
        let connector = connector()
        let (_, vendor, _) = try await browsable(connector)
        _ = try await connector.discoverServices()
        let level = try await connector.readValue(at: 0x12)
        XCTAssertEqual(level, [87])
        let description = try await connector.readValue(at: 0x13)
        XCTAssertEqual(String(decoding: description, as: UTF8.self), "Main cell", "a descriptor is read by its handle too")
        try await connector.writeValue([1, 2, 3], at: 0x22, withResponse: true)
        try await connector.writeValue([4], at: 0x22, withResponse: false)
        let writes = try await mock.arguments(vendor, "WriteValue")
        XCTAssertEqual(writes.map { $0.first }, [.bytes([1, 2, 3]), .bytes([4])])
        XCTAssertEqual(writes.map { $0.last?.stringKeyed?["type"] }, [.string("request"), .string("command")])
        do {
            _ = try await connector.readValue(at: 0x24)
            XCTFail("a read the device refuses")
        } catch {
            XCTAssertEqual(error.message, "Read not permitted: the device does not let this value be read.")
        }
        do {
            _ = try await connector.readValue(at: 0x99)
            XCTFail("a handle that is not there")
        } catch {
            XCTAssertEqual(error, .vanished)
        }
        connector.disconnect()
        try await eventually("disconnected") { connector.state == .idle }
        do {
            _ = try await connector.readValue(at: 0x12)
            XCTFail("read while not connected")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
    }

    func testASubscriptionStartsNotifyItsValuesArriveByHandleAndItStopsBeforeTheLinkEnds() async throws {
        let connector = connector()
        let events = EventLog(connector)
        let (level, _, _) = try await browsable(connector)
        try await mock.addMethod(level, "org.bluez.GattCharacteristic1", "StartNotify", code: "")
        try await mock.addMethod(level, "org.bluez.GattCharacteristic1", "StopNotify", code: "")
        _ = try await connector.discoverServices()
        try await connector.subscribe(to: 0x12, cccd: 0x14, indicate: false, on: true)
        try await eventually("StartNotify called") { try await self.mock.calls(level).contains("StartNotify") }
        for value: UInt8 in [80, 79, 78] {
            try await mock.set(level, "org.bluez.GattCharacteristic1", "Value", .bytes([value]))
        }
        try await eventually("three values") { events.notified(0x12).count == 3 }
        XCTAssertEqual(events.notified(0x12), [[80], [79], [78]], "in order, under the value handle")
        XCTAssertTrue(events.received.isEmpty, "not chat messages")
        connector.disconnect()
        try await eventually("StopNotify called") { try await self.mock.calls(level).contains("StopNotify") }
    }

    func testServicesThatChangeAfterTheyWereResolvedAreSaidToBeStale() async throws {
        let connector = connector()
        let events = EventLog(connector)
        _ = try await browsable(connector)
        _ = try await connector.discoverServices()
        // A firmware update: bluetoothd handles Service Changed and adds the new service's objects.
        try await mock.addObject(path + "/service0030", "org.bluez.GattService1", [
            "UUID": .string("0000180d-0000-1000-8000-00805f9b34fb"), "Primary": .bool(true), "Device": .objectPath(path),
        ])
        try await eventually("services changed") { events.changedServices == [self.device] }
        do {
            _ = try await connector.readValue(at: 0x12)
            XCTFail("a handle of the old tree")
        } catch {
            XCTAssertEqual(error, .vanished, "stale until discovered again")
        }
        let again = try await connector.discoverServices()
        XCTAssertTrue(again.contains { $0.uuid == BluetoothUUID(0x180D) })
        let level = try await connector.readValue(at: 0x12)
        XCTAssertEqual(level, [87])
    }
}
