// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import XCTest
@testable import Bluetooth

/// DBusConnection against python-dbusmock's bluez5 template on a private bus this test starts.
final class DBusConnectionTests: XCTestCase {
    private var mock: MockBlueZ!

    override func tearDown() {
        mock?.stop()
    }

    /// A connection of the test's own, once the mock owns org.bluez on the private bus.
    private func connectWhenReady() async throws -> DBusConnection {
        mock = try MockBlueZ()
        try await mock.startMock()
        return try DBusConnection(address: mock.address)
    }

    private let device = "/org/bluez/hci0/dev_C0_98_E5_49_00_01"

    func testMockAdapterAndDeviceComeBackTypedFromGetManagedObjects() async throws {
        let bus = try await connectWhenReady()
        defer { bus.close() }
        let adapter = try await bus.call(service: "org.bluez", path: "/org/bluez", interface: "org.bluez.Mock",
                                         method: "AddAdapter", args: [.string("hci0"), .string("my-computer")])
        XCTAssertEqual(adapter, .tuple([.string("/org/bluez/hci0")]))
        let added = try await bus.call(service: "org.bluez", path: "/org/bluez", interface: "org.bluez.Mock", method: "AddDevice",
                                       args: [.string("hci0"), .string("C0:98:E5:49:00:01"), .string("FavBlue Peer")])
        XCTAssertEqual(added, .tuple([.string(device)]))

        let objects = try await bus.getManagedObjects(service: "org.bluez")
        XCTAssertEqual(objects["/org/bluez/hci0"]?["org.bluez.Adapter1"]?["Address"]?.stringValue?.isEmpty, false)
        let properties = try XCTUnwrap(objects[device]?["org.bluez.Device1"])
        XCTAssertEqual(properties["Address"], .string("C0:98:E5:49:00:01"))
        XCTAssertEqual(properties["Name"], .string("FavBlue Peer"))
        XCTAssertEqual(properties["Adapter"], .objectPath("/org/bluez/hci0"))
        if case .int16 = properties["RSSI"] {} else { XCTFail("RSSI is \(String(describing: properties["RSSI"]))") }

        // A typed BlueZ error: the template refuses a second Connect.
        _ = try await bus.call(service: "org.bluez", path: device, interface: "org.bluez.Device1", method: "Connect")
        do {
            _ = try await bus.call(service: "org.bluez", path: device, interface: "org.bluez.Device1", method: "Connect")
            XCTFail("second Connect succeeded")
        } catch {
            XCTAssertEqual(error, .alreadyConnected)
            XCTAssertFalse(error.message.isEmpty)
        }
    }

    func testMissingServiceFailsTypedAndFast() async throws {
        let bus = try await connectWhenReady()
        defer { bus.close() }
        let start = ContinuousClock.now
        do {
            _ = try await bus.call(service: "org.example.Nobody", path: "/", interface: "org.example.Nobody",
                                   method: "Hello", timeout: .seconds(10))
            XCTFail("call to a missing service succeeded")
        } catch {
            XCTAssertEqual(error, .serviceUnknown)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }

    func testAMethodThatNeverAnswersTimesOut() async throws {
        let bus = try await connectWhenReady()
        defer { bus.close() }
        _ = try await bus.call(service: "org.bluez", path: "/", interface: "org.freedesktop.DBus.Mock", method: "AddMethod",
                               args: [.string("org.example.Slow"), .string("Sleep"), .string(""), .string(""),
                                      .string("import time; time.sleep(3)")])
        let start = ContinuousClock.now
        do {
            _ = try await bus.call(service: "org.bluez", path: "/", interface: "org.example.Slow", method: "Sleep",
                                   timeout: .milliseconds(300))
            XCTFail("the sleeping method answered")
        } catch {
            XCTAssertEqual(error, .timedOut)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }

    func testBadNamesAreRejectedBeforeTheBus() async throws {
        let bus = try await connectWhenReady()
        defer { bus.close() }
        do {
            _ = try await bus.call(service: "org.bluez", path: "no path", interface: "org.bluez.Device1", method: "Connect")
            XCTFail("bad path accepted")
        } catch {
            guard case .invalidValue = error else { return XCTFail("\(error)") }
        }
    }

    func testCloseStopsTheThreadAndLaterCallsFail() async throws {
        let bus = try await connectWhenReady()
        bus.close()
        bus.close()
        do {
            _ = try await bus.call(service: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                                   method: "GetManagedObjects")
            XCTFail("call after close succeeded")
        } catch {
            XCTAssertEqual(error, .disconnected)
        }
    }

    /// The next matching signal; nil if the stream ends (the tests' watchdog closes the bus).
    private func next(_ iterator: inout AsyncStream<DBusSignal>.Iterator, where match: (DBusSignal) -> Bool) async -> DBusSignal? {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard let signal = await iterator.next() else { return nil }
            if match(signal) { return signal }
        }
        return nil
    }

    func testSignalsArriveTypedOnTheStream() async throws {
        let bus = try await connectWhenReady()
        defer { bus.close() }
        var signals = bus.signals(service: "org.bluez").makeAsyncIterator()
        // A missing signal must fail the test, not hang it: closing ends the stream.
        let watchdog = Task { try? await Task.sleep(for: .seconds(10)); bus.close() }
        defer { watchdog.cancel() }
        _ = try await bus.call(service: "org.bluez", path: "/org/bluez", interface: "org.bluez.Mock",
                               method: "AddAdapter", args: [.string("hci0"), .string("my-computer")])
        _ = try await bus.call(service: "org.bluez", path: "/org/bluez", interface: "org.bluez.Mock", method: "AddDevice",
                               args: [.string("hci0"), .string("C0:98:E5:49:00:01"), .string("FavBlue Peer")])
        let added = await next(&signals) { if case .interfacesAdded(self.device, _) = $0 { true } else { false } }
        guard case .interfacesAdded(_, let interfaces) = added else { return XCTFail("no InterfacesAdded for the device") }
        XCTAssertEqual(interfaces["org.bluez.Device1"]?["Address"], .string("C0:98:E5:49:00:01"))

        _ = try await bus.call(service: "org.bluez", path: device, interface: "org.freedesktop.DBus.Properties", method: "Set",
                               args: [.string("org.bluez.Device1"), .string("RSSI"), .variant(.int16(-42))])
        let changed = await next(&signals) { if case .propertiesChanged(self.device, _, _, _) = $0 { true } else { false } }
        XCTAssertEqual(changed, .propertiesChanged(path: device, interface: "org.bluez.Device1",
                                                   changed: ["RSSI": .int16(-42)], invalidated: []))

        // bluetoothd going away shows as the name losing its owner.
        mock.killMock()
        let gone = await next(&signals) { if case .nameOwnerChanged("org.bluez", _, "") = $0 { true } else { false } }
        XCTAssertNotNil(gone, "no NameOwnerChanged when the mock stopped")
    }

    func testCloseEndsTheSignalStream() async throws {
        let bus = try await connectWhenReady()
        var signals = bus.signals(service: "org.bluez").makeAsyncIterator()
        bus.close()
        let after = await signals.next()
        XCTAssertNil(after)
    }
}
