// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// FavBlue as the device through BlueZ, against python-dbusmock's bluez5 template with its
/// advertising manager, and a GattManager1 added to it. The mock never reads what FavBlue
/// exports, so the test reads the exported objects over D-Bus as bluetoothd would.
final class BlueZPeripheralTests: XCTestCase {
    private var mock: MockBlueZ!
    private var bus: BlueZBus!
    private var peripheral: BlueZPeripheral!
    private var adapter = ""

    override func setUp() async throws {
        mock = try MockBlueZ()
        try await mock.startMock(pythonPath: try MockBlueZ.newerDbusmock())
        adapter = try await mock.addAdapter()
        try await mock.addMethod(adapter, BlueZPeripheral.gattManager, "RegisterApplication", in: "oa{sv}", code: "")
        try await mock.addMethod(adapter, BlueZPeripheral.gattManager, "UnregisterApplication", in: "o", code: "")
        bus = BlueZBus(address: mock.address)
        peripheral = BlueZPeripheral(bus: bus)
    }

    override func tearDown() {
        bus?.close()
        mock?.stop()
    }

    /// A call to FavBlue's own objects, as bluetoothd makes it.
    private func ask(_ path: String, _ interface: String, _ method: String, _ args: [DBusValue] = []) async throws -> DBusValue {
        let name = try await bus.connect().uniqueName ?? ""
        return try await mock.control.call(service: name, path: path, interface: interface, method: method, args: args)
    }

    func testTheAdapterPageReadsWhatBlueZSays() async throws {
        let facts = try await peripheral.adapterFacts()
        XCTAssertEqual(facts.route, "bluez")
        XCTAssertTrue(facts.canBePeripheral, "Adapter1.Roles lists peripheral")
        XCTAssertEqual(facts.maximumAdvertisingLength, 251, "SupportedCapabilities' MaxAdvLen")
        XCTAssertEqual(facts.advertisingSets, 5)
        XCTAssertEqual(facts.features[.coded], true)
        XCTAssertEqual(facts.limits.extended, true)
    }

    func testAnAdvertisementIsAnObjectBlueZReadsAndRegistersAndAsManyAsItHasInstances() async throws {
        var ad = Advertisement(label: "Beacon", kind: .connectable, data: AdvertisingFields(
            flags: 0x06, localName: "FavBlue", txPower: -4, appearance: 0x0340, serviceUUIDs: [BluetoothUUID(0x180D)],
            manufacturerData: [ManufacturerField(companyID: 0xFFFF, data: [1, 2, 3])]),
            scanResponse: AdvertisingFields(serviceData: [ServiceDataField(uuid: BluetoothUUID(0xFCD2), data: [0x40, 0x01, 0x50])]),
            intervalMilliseconds: 152.5, durationSeconds: 30)
        ad.id = "first"
        try await peripheral.startAdvertising(ad)
        let registered = try await mock.arguments(adapter, "RegisterAdvertisement")
        let path = try XCTUnwrap(registered.first?.first?.stringValue)
        let all = try await ask(path, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.bluez.LEAdvertisement1")])
        let properties = try XCTUnwrap(all.items?.first?.stringKeyed)
        XCTAssertEqual(properties["Type"], .string("peripheral"))
        XCTAssertEqual(properties["LocalName"], .string("FavBlue"))
        XCTAssertEqual(properties["Appearance"], .uint16(0x0340))
        XCTAssertEqual(properties["ServiceUUIDs"], .array(elementType: "s", [.string("180D")]))
        XCTAssertEqual(properties["ManufacturerData"]?.stringKeyed, nil, "keyed by company number, not text")
        XCTAssertEqual(properties["ManufacturerData"], .dictionary(keyType: "q", valueType: "v", [.init(.uint16(0xFFFF), .variant(.bytes([1, 2, 3])))]))
        XCTAssertEqual(properties["ScanResponseServiceData"],
                       .dictionary(keyType: "s", valueType: "v", [.init(.string("FCD2"), .variant(.bytes([0x40, 0x01, 0x50])))]))
        XCTAssertEqual(properties["Includes"], .array(elementType: "s", [.string("tx-power")]))
        XCTAssertEqual(properties["Timeout"], .uint16(30))
        XCTAssertEqual(properties["MinInterval"], .uint32(153))
        XCTAssertEqual(properties["Discoverable"], .bool(true))
        let active = try await mock.get(adapter, BlueZPeripheral.managerInterface, "ActiveInstances")
        XCTAssertEqual(active, .byte(1))

        for n in 2...5 {
            try await peripheral.startAdvertising(Advertisement(id: "ad\(n)", label: "\(n)", kind: .nonConnectable,
                                                                data: AdvertisingFields(localName: "n\(n)")))
        }
        do {
            try await peripheral.startAdvertising(Advertisement(id: "six", label: "6", kind: .nonConnectable, data: AdvertisingFields()))
            XCTFail("a sixth advertisement was taken")
        } catch {
            XCTAssertEqual(error.message, "This adapter sends 5 advertisements at a time: stop one first.")
        }
        await peripheral.stopAdvertising(id: "first")
        let after = try await mock.get(adapter, BlueZPeripheral.managerInterface, "ActiveInstances")
        XCTAssertEqual(after, .byte(4))
    }

    func testACentralIsNamedByItsAddressBeforeTheBusHasToldOfIt() {
        XCTAssertEqual(BlueZPeripheral.address(of: "/org/bluez/hci0/dev_C0_98_E5_49_00_01", BlueZObjects()), "C0:98:E5:49:00:01")
        XCTAssertNil(BlueZPeripheral.address(of: "/org/bluez/hci0/dev_C0_98", BlueZObjects()))
        XCTAssertNil(BlueZPeripheral.address(of: "bluez", BlueZObjects()))
    }

    func testTheServerIsAnApplicationBlueZReadsAndItsRequestsAreAnswered() async throws {
        let setup = ServerSetup(name: "Served", services: [ServedService(uuid: BluetoothUUID("5E7F4000-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: [87],
                                 presentation: PresentationFormat(format: 0x04, exponent: 0, unit: 0x27AD)),
            ServedCharacteristic(uuid: BluetoothUUID("5E7F4001-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, properties: [.read, .write],
                                 readSecurity: .encrypted, writeSecurity: .authenticated, value: Array("hi".utf8), maximumLength: 8,
                                 userDescription: "Greeting"),
        ])])
        try await peripheral.serve(setup)
        let registered = try await mock.arguments(adapter, "RegisterApplication")
        XCTAssertEqual(registered.first?.first, .objectPath("/io/github/favblue/FavBlue/peripheral/app"))
        let managed = try await ask("/io/github/favblue/FavBlue/peripheral/app", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        let objects = try XCTUnwrap(managed.items?.first?.stringKeyed)
        let base = "/io/github/favblue/FavBlue/peripheral/app/service0"
        XCTAssertEqual(Set(objects.keys), [base, base + "/char0", base + "/char0/desc0", base + "/char1", base + "/char1/desc0"])
        let level = try XCTUnwrap(objects[base + "/char0"]?.stringKeyed?[BlueZPeripheral.characteristicInterface]?.stringKeyed)
        XCTAssertEqual(level["UUID"], .string("00002a19-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(level["Flags"], .array(elementType: "s", [.string("read"), .string("notify")]))
        let greeting = try XCTUnwrap(objects[base + "/char1"]?.stringKeyed?[BlueZPeripheral.characteristicInterface]?.stringKeyed)
        XCTAssertEqual(greeting["Flags"], .array(elementType: "s", [.string("encrypt-read"), .string("encrypt-authenticated-write")]))
        let description = try XCTUnwrap(objects[base + "/char1/desc0"]?.stringKeyed?[BlueZPeripheral.descriptorInterface]?.stringKeyed)
        XCTAssertEqual(description["UUID"], .string("00002901-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(description["Value"], .bytes(Array("Greeting".utf8)))

        let events = PeripheralEventLog(peripheral.events)
        let device = try await mock.addDevice("C0:98:E5:49:00:01", name: "Phone")
        let read = try await ask(base + "/char1", BlueZPeripheral.characteristicInterface, "ReadValue",
                                 [.vardict(["device": .objectPath(device), "mtu": .uint16(185), "offset": .uint16(1)])])
        XCTAssertEqual(read.items?.first, .bytes(Array("i".utf8)), "from the offset BlueZ asks")
        _ = try await ask(base + "/char1", BlueZPeripheral.characteristicInterface, "WriteValue",
                          [.bytes(Array("<i>x".utf8)), .vardict(["device": .objectPath(device), "type": .string("request")])])
        do {
            _ = try await ask(base + "/char1", BlueZPeripheral.characteristicInterface, "WriteValue",
                              [.bytes(Array("far too long".utf8)), .vardict([:])])
            XCTFail("a value past the maximum was taken")
        } catch {
            XCTAssertEqual(error as? DBusError, .other(name: "org.bluez.Error.InvalidValueLength", detail: "Invalid value length"))
        }
        _ = try await ask(base + "/char0", BlueZPeripheral.characteristicInterface, "StartNotify")
        let signals = try await bus.connect()
        let name = signals.uniqueName ?? ""
        let stream = mock.control.signals(service: name)
        let seen = SignalBox()
        let listening = Task {
            for await signal in stream {
                if case .propertiesChanged(base + "/char0", _, _, _) = signal { await seen.keep(signal); return }
            }
        }
        var sent = 0
        // Sent again until the test's own match rule is in place: a signal sent before it is
        // lost to the test, not to BlueZ, and waiting for it would wait for ever. Up to 10 s:
        // a loaded machine (the test command's other shard, a build) has taken more than 4.
        for _ in 0..<100 {
            sent = await peripheral.send([88], of: ServedCharacteristicID(service: 0, characteristic: 0))
            try await Task.sleep(for: .milliseconds(100))
            if await seen.signal != nil { break }
        }
        listening.cancel()
        XCTAssertEqual(sent, 1, "BlueZ said StartNotify")
        let signal = await seen.signal
        XCTAssertEqual(signal, .propertiesChanged(path: base + "/char0", interface: BlueZPeripheral.characteristicInterface,
                                                  changed: ["Value": .bytes([88])], invalidated: []))
        let central = PeripheralCentral(id: device, address: "C0:98:E5:49:00:01")
        await events.wait { $0 == .mtu(central, 185) }
        await events.wait { $0 == .read(central, ServedCharacteristicID(service: 0, characteristic: 1)) }
        await events.wait { $0 == .wrote(central, ServedCharacteristicID(service: 0, characteristic: 1), Array("<i>x".utf8), withResponse: true) }
        await events.wait { if case .subscribed(_, ServedCharacteristicID(service: 0, characteristic: 0), false) = $0 { return true } else { return false } }
    }
}

/// The first signal the test waited for.
private actor SignalBox {
    private(set) var signal: DBusSignal?
    func keep(_ signal: DBusSignal) { if self.signal == nil { self.signal = signal } }
}

extension PeripheralEventLog {
    /// Waits up to `timeout` seconds for an event matching `match`; fails the test if none comes.
    func wait(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line, for match: (PeripheralEvent) -> Bool) async {
        if await waitFor(timeout: timeout, match) { return }
        XCTFail("no such event among \(all)", file: file, line: line)
    }
}
