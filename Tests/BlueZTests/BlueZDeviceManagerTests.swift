// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import XCTest

/// The Device Manager over BlueZ. bluetoothd's stand-in answers an SMP echo as Zephyr's os group
/// does ({"d": text} comes back as {"r": text}, the header's operation a write response):
/// through the sockets of AcquireWrite and AcquireNotify, which BlueZ recommends for throughput,
/// and through WriteValue (type "command") and StartNotify, the fallback BlueZ keeps for every client.
extension BlueZConnectorTests {
    private var smpService: String { path + "/service0030" }
    private var smp: String { smpService + "/char0031" }

    /// The answer to one whole request, in Python, from `request` (bytes).
    private static let echoAnswer = "bytes([3]) + request[1:8] + bytes([0xA1, 0x61, 0x72]) + request[11:]"

    /// The SMP characteristic as bluetoothd shows it. With `sockets`, it has WriteAcquired and
    /// NotifyAcquired, and its AcquireWrite and AcquireNotify run `acquireWrite` and `acquireNotify`.
    private func addSMPCharacteristic(sockets: Bool, acquireWrite: String = "", acquireNotify: String = "") async throws {
        try await mock.addObject(smpService, "org.bluez.GattService1", ["UUID": .string(GATTSMPTransport.service.longText),
                                                                        "Primary": .bool(true), "Device": .objectPath(path)])
        let notifyCode = "self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(True)})"
        let writeValueCode = """
        request = bytes(args[0])
        answer = \(Self.echoAnswer)
        self.UpdateProperties('org.bluez.GattCharacteristic1', {'Value': dbus.Array(answer, signature='y')})
        """
        var properties: [String: DBusValue] = [
            "UUID": .string(GATTSMPTransport.characteristic.longText), "Service": .objectPath(smpService), "Value": .bytes([]),
            "Notifying": .bool(false), "MTU": .uint16(247),
            "Flags": .array(elementType: "s", [.string("write-without-response"), .string("notify")]),
        ]
        var methods = [("StartNotify", "", "", notifyCode), ("StopNotify", "", "", ""), ("WriteValue", "aya{sv}", "", writeValueCode)]
        if sockets {
            properties["WriteAcquired"] = .bool(false)
            properties["NotifyAcquired"] = .bool(false)
            methods += [("AcquireWrite", "a{sv}", "hq", acquireWrite), ("AcquireNotify", "a{sv}", "hq", acquireNotify)]
        }
        try await mock.addObject(smp, "org.bluez.GattCharacteristic1", properties, methods: methods)
    }

    /// Connects, and opens the Device Manager's transport on the SMP characteristic.
    private func openDeviceManager(_ connector: BlueZConnector) async throws -> SMPClient {
        connector.connect(to: device)
        try await eventually("Connect called") { try await self.mock.calls(self.path).contains("Connect") }
        try await mock.set(path, "org.bluez.Device1", "ServicesResolved", .bool(true))
        try await eventually("connected") { connector.state == .connected(self.device, service: nil) }
        let services = try await connector.discoverServices()
        let limit = await connector.writeCommandLimit()
        XCTAssertEqual(limit, 244, "a write fills the MTU BlueZ gives (247 − 3)")
        let opened = try await GATTSMPTransport.open(connector, device: device, services: services)
        let transport = try XCTUnwrap(opened, "the SMP characteristic: \(services.map(\.uuid))")
        return SMPClient(transport: transport)
    }

    func testTheDeviceManagerEchoesThroughWriteValueAndStartNotify() async throws {
        try await addSMPCharacteristic(sockets: false)
        let connector = connector()
        let client = try await openDeviceManager(connector)
        let (text, _) = try await client.echo("hello <b>")
        XCTAssertEqual(text, "hello <b>")
        let written = try await mock.arguments(smp, "WriteValue")
        XCTAssertEqual(written.last?.last, .vardict(["type": .string("command")]), "written without response")
        let calls = try await mock.calls(smp)
        XCTAssertFalse(calls.contains("AcquireWrite") || calls.contains("AcquireNotify"), "a characteristic without the sockets' properties: \(calls)")
        await client.close()
    }

    /// bluetoothd's way (src/gatt-client.c): a SOCK_SEQPACKET pair, each datagram one write or one
    /// notification, and (h socket, q ATT_MTU) in the answer. The stand-in reassembles each request
    /// by its header, answers in notifications of at most 244 bytes, counts the datagrams it got,
    /// and sets NotifyAcquired false when FavBlue hangs up, as bluetoothd does.
    func testTheDeviceManagerEchoesThroughTheSocketsOfAcquireWriteAndAcquireNotify() async throws {
        let acquireNotify = """
        import socket
        from gi.repository import GLib
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.smp_notify = mine
        def hung_up(fd, condition, obj=self):
            obj.UpdateProperties('org.bluez.GattCharacteristic1', {'NotifyAcquired': dbus.Boolean(False)})
            return False
        GLib.io_add_watch(mine.fileno(), GLib.IO_HUP | GLib.IO_ERR, hung_up)
        self.UpdateProperties('org.bluez.GattCharacteristic1', {'NotifyAcquired': dbus.Boolean(True)})
        ret = (dbus.types.UnixFd(theirs.fileno()), dbus.UInt16(247))
        theirs.close()
        """
        let acquireWrite = """
        import socket
        from gi.repository import GLib
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.smp_write, self.smp_pending, self.smp_sizes = mine, b'', []
        def arrived(fd, condition, obj=self):
            data = obj.smp_write.recv(4096)
            if not data:
                return False
            obj.smp_sizes.append(len(data))
            obj.smp_pending += data
            while len(obj.smp_pending) >= 8 and len(obj.smp_pending) >= 8 + int.from_bytes(obj.smp_pending[2:4], 'big'):
                size = 8 + int.from_bytes(obj.smp_pending[2:4], 'big')
                request, obj.smp_pending = obj.smp_pending[:size], obj.smp_pending[size:]
                answer = \(Self.echoAnswer)
                for at in range(0, len(answer), 244):
                    obj.smp_notify.send(answer[at:at + 244])
            obj.props.setdefault('org.favblue.Test1', {})['Datagrams'] = dbus.Array(obj.smp_sizes, signature='q')
            return True
        GLib.io_add_watch(mine.fileno(), GLib.IO_IN, arrived)
        self.UpdateProperties('org.bluez.GattCharacteristic1', {'WriteAcquired': dbus.Boolean(True)})
        ret = (dbus.types.UnixFd(theirs.fileno()), dbus.UInt16(247))
        theirs.close()
        """
        try await addSMPCharacteristic(sockets: true, acquireWrite: acquireWrite, acquireNotify: acquireNotify)
        let connector = connector()
        let client = try await openDeviceManager(connector)
        try await eventually("NotifyAcquired") { try await self.mock.get(self.smp, "org.bluez.GattCharacteristic1", "NotifyAcquired") == .bool(true) }
        // Long enough for three writes and three notifications each way.
        let long = String(repeating: "<b>päckchen</b> ", count: 36)
        let (text, _) = try await client.echo(long)
        XCTAssertEqual(text, long)
        let (short, _) = try await client.echo("hello")
        XCTAssertEqual(short, "hello")

        let calls = try await mock.calls(smp)
        XCTAssertEqual(calls.filter { $0 == "AcquireWrite" }.count, 1, "one socket for every write: \(calls)")
        XCTAssertEqual(calls.filter { $0 == "AcquireNotify" }.count, 1, "\(calls)")
        XCTAssertFalse(calls.contains("WriteValue") || calls.contains("StartNotify"), "nothing through the fallback: \(calls)")
        // The stand-in keeps the sizes of the datagrams it got (the test's own record, not BlueZ's).
        let record = try await mock.get(smp, "org.favblue.Test1", "Datagrams")
        let sizes = try XCTUnwrap(record?.items?.compactMap { item -> Int? in if case .uint16(let size) = item { Int(size) } else { nil } })
        XCTAssertEqual(sizes.reduce(0, +), 8 + 3 + 3 + long.utf8.count + 8 + 3 + 1 + 5,
                       "every byte of both requests arrived, in \(sizes)")
        XCTAssertGreaterThanOrEqual(sizes.count, 4)
        XCTAssertTrue(sizes.allSatisfy { $0 <= 244 }, "each datagram one Write Command of at most ATT_MTU − 3: \(sizes)")

        // Ending the subscription hangs up the socket, which is how bluetoothd learns of it.
        let services = try await connector.discoverServices()
        let valueHandle = try XCTUnwrap(services.flatMap(\.characteristics).first { $0.uuid == GATTSMPTransport.characteristic }?.valueHandle)
        try await connector.subscribe(to: valueHandle, cccd: 0, indicate: false, on: false)
        try await eventually("NotifyAcquired false") {
            try await self.mock.get(self.smp, "org.bluez.GattCharacteristic1", "NotifyAcquired") == .bool(false)
        }
        let after = try await mock.calls(smp)
        XCTAssertFalse(after.contains("StopNotify"), "\(after)")
        await client.close()
    }

    /// bluetoothd refuses a socket another client holds ("Write acquired", "Notify acquired"):
    /// FavBlue then writes and subscribes as before.
    func testWhereBlueZRefusesItsSocketsTheDeviceManagerUsesWriteValueAndStartNotify() async throws {
        let refuse = "raise dbus.exceptions.DBusException('Write acquired', name='org.bluez.Error.NotPermitted')"
        try await addSMPCharacteristic(sockets: true, acquireWrite: refuse, acquireNotify: refuse.replacingOccurrences(of: "Write", with: "Notify"))
        let connector = connector()
        let client = try await openDeviceManager(connector)
        let (text, _) = try await client.echo("hello <b>")
        XCTAssertEqual(text, "hello <b>")
        let (again, _) = try await client.echo("again")
        XCTAssertEqual(again, "again")
        let calls = try await mock.calls(smp)
        XCTAssertEqual(calls.filter { $0 == "AcquireWrite" }.count, 1, "asked once: \(calls)")
        XCTAssertEqual(calls.filter { $0 == "AcquireNotify" }.count, 1, "\(calls)")
        XCTAssertEqual(calls.filter { $0 == "WriteValue" }.count, 2, "\(calls)")
        XCTAssertTrue(calls.contains("StartNotify"), "\(calls)")
        await client.close()
    }
}
