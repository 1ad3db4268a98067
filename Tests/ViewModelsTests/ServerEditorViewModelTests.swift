// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// The server editor over a peripheral that keeps what it was given to serve.
@MainActor
final class ServerEditorViewModelTests: XCTestCase {
    private func editor(_ port: FakePeripheral = FakePeripheral()) -> (ServerEditorViewModel, PeripheralRole) {
        let role = PeripheralRole(port: port, store: nil)
        return (ServerEditorViewModel(role: role, names: { $0 == BluetoothUUID(0x2A37) ? "Heart Rate Measurement" : nil }), role)
    }

    func testAServerBuiltFromNothingIsServedAsBuiltWhileItRuns() async {
        let port = FakePeripheral()
        let (editor, role) = editor(port)
        editor.create()
        await editor.settled()
        await role.startServing()
        let s = editor.addService()
        editor.setServiceUUID(s, "180d")
        let c = editor.addCharacteristic(to: s)
        editor.setCharacteristicUUID(s, c, "2A37")
        editor.setProperty(s, c, .read, false)
        editor.setProperty(s, c, .notify, true)
        editor.setDescription(s, c, "Pulse")
        editor.setFormat(s, c, .uint16)
        // Hundredths of a degree Celsius: the unit and the power of ten, not the format alone.
        editor.setUnit(s, c, 0x272F)
        editor.setExponent(s, c, -2)
        editor.setSecurity(s, c, reading: true, .encrypted)
        await editor.settled()
        let served = port.serving?.services.first?.characteristics.first
        XCTAssertEqual(port.serving?.services.first?.uuid, BluetoothUUID(0x180D))
        XCTAssertEqual(served?.uuid, BluetoothUUID(0x2A37))
        XCTAssertEqual(served?.properties, [.notify])
        XCTAssertEqual(served?.hasConfiguration, true, "FavBlue adds the configuration descriptor")
        XCTAssertEqual(served?.userDescription, "Pulse")
        XCTAssertEqual(served?.presentation?.format, 0x06)
        XCTAssertEqual(served?.presentation?.unit, 0x272F)
        XCTAssertEqual(served?.presentation?.exponent, -2)
        XCTAssertEqual(ServerEditorViewModel.unitWords(0x272F), "°C")
        XCTAssertEqual(ServerEditorViewModel.unitWords(0x2700), "No unit")
        XCTAssertEqual(served?.readSecurity, .encrypted)
        XCTAssertEqual(editor.title(served!.uuid), "Heart Rate Measurement")
    }

    func testAUUIDTypedWrongSaysWhyAndKeepsTheLastGoodOne() async {
        let (editor, _) = editor()
        let s = editor.addService()
        editor.setServiceUUID(s, "180F")
        editor.setServiceUUID(s, "18G0")
        await editor.settled()
        XCTAssertEqual(editor.errors[.service(s)], "“18G0” is not a UUID (4, 8 or 32 hex digits).")
        XCTAssertEqual(editor.setup?.services.first?.uuid, BluetoothUUID(0x180F))
        editor.setName("")
        XCTAssertEqual(editor.errors[.name], "The server needs a name: connected devices read it as this device’s name.")
        XCTAssertEqual(editor.setup?.name, "FavBlue")
    }

    func testWhatACentralWroteOutlivesAChangeOfShape() async {
        let port = FakePeripheral()
        let (editor, role) = editor(port)
        await role.setServer(AdvertisingPreset.chat.server())
        let incoming = ServedCharacteristicID(service: 0, characteristic: 1)
        port.feed.yield(.wrote(PeripheralCentral(id: "c", address: nil), incoming, Array("kept".utf8), withResponse: true))
        await port.feed.applied()
        editor.addService()
        await editor.settled()
        XCTAssertEqual(role.value(of: incoming), Array("kept".utf8))
        XCTAssertEqual(role.server?.services.count, 2)
    }

    func testRemovingTheServerStopsItAndLeavesNone() async {
        let port = FakePeripheral()
        let (editor, role) = editor(port)
        await role.setServer(AdvertisingPreset.battery.server())
        await role.startServing()
        await editor.removeServer()
        XCTAssertNil(role.server)
        XCTAssertNil(port.serving)
        XCTAssertFalse(role.serving)
    }
}
