// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The one device the `demo` source lets you connect to and chat with, so FavBlue can be tried
/// without Bluetooth hardware. `DemoScanner` lists it; `DemoChatConnector` connects to it.
/// It is named as a demo wherever it shows, and no other source ever offers it.
public enum DemoChatDevice {
    /// Its address: static random (the two top bits set, Core v5.4, Vol 6, Part B, §1.3.2.1).
    public static let id = DeviceID(octets: [0xC0, 0xFA, 0xB1, 0x0E, 0xDE, 0x01], kind: .leRandom)

    /// The name it advertises. A name a device sends is data, so it is never translated.
    public static let name = "FavBlue Demo Chat"

    /// Its GATT services in handle order, as a discovery on a real device lists them.
    public static var services: [ServiceID] {
        [BluetoothUUID(0x1800), BluetoothUUID(0x180A), ChatProfile.chat.service].map(\.serviceID)
    }

    /// The chat's RX value handle in `tree`.
    static let rxHandle: UInt16 = 15

    /// Its whole GATT tree, handle for handle, as the browser shows it.
    static var tree: [GATTService] {
        let chat = ChatProfile.chat
        func named(_ uuid: BluetoothUUID) -> String? { AttributeNames.characteristic(uuid) }
        return [
            GATTService(uuid: BluetoothUUID(0x1800), name: ServiceNames.name(0x1800), start: 1, end: 5, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A00), name: named(BluetoothUUID(0x2A00)), handle: 2, valueHandle: 3, properties: [.read]),
                GATTCharacteristic(uuid: BluetoothUUID(0x2A01), name: named(BluetoothUUID(0x2A01)), handle: 4, valueHandle: 5, properties: [.read]),
            ]),
            GATTService(uuid: BluetoothUUID(0x180A), name: ServiceNames.name(0x180A), start: 6, end: 9, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A29), name: named(BluetoothUUID(0x2A29)), handle: 7, valueHandle: 8, properties: [.read]),
            ]),
            GATTService(uuid: chat.service, name: chat.service.serviceID.name, start: 10, end: rxHandle, characteristics: [
                GATTCharacteristic(uuid: chat.tx, name: named(chat.tx), handle: 11, valueHandle: 12,
                                   properties: [.notify], descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), name: AttributeNames.descriptor(BluetoothUUID.clientCharacteristicConfiguration), handle: 13)]),
                GATTCharacteristic(uuid: chat.rx, name: named(chat.rx), handle: 14, valueHandle: rxHandle,
                                   properties: [.write, .writeWithoutResponse]),
            ]),
        ]
    }

    /// What a read of `handle` gives; nil for a value that cannot be read.
    static func value(at handle: UInt16) -> [UInt8]? {
        switch handle {
        case 3: return Array(name.utf8)
        case 5: return [0x00, 0x00]
        case 8: return Array("FavBlue".utf8)
        default: return nil
        }
    }

    /// The signal it is heard at, in dBm: a device on the desk, a few dBm either way.
    static func rssi() -> Int { -52 + Int.random(in: -3...3) }

    // MARK: Advertising

    /// Flags, the chat service and the complete name, as AD structures (Core Supplement v11, Part A, §1).
    static func advertisingData(name: String) -> [UInt8] {
        // LE General Discoverable, BR/EDR not supported.
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        let uuid = ChatProfile.chat.service.wire
        let services: [UInt8] = [UInt8(uuid.count + 1), 0x07] + uuid
        // An extended report holds at most 229 bytes of data; a longer name is cut and marked shortened.
        var text = Array(name.utf8)
        var nameType: UInt8 = 0x09
        if text.count > 200 {
            var end = 200
            while end > 0, text[end] & 0xC0 == 0x80 { end -= 1 }
            text = Array(text[..<end])
            nameType = 0x08
        }
        return flags + services + [UInt8(text.count + 1), nameType] + text
    }

    /// One LE Extended Advertising Report event (Core v5.4, Vol 4, Part E, §7.7.65.13) as a
    /// controller sends it: code, length, parameters. Extended, because flags, a 128-bit UUID
    /// and the name do not fit the 31 bytes of a legacy advertisement.
    static func advertisingEvent(rssi: Int) -> [UInt8] {
        let data = advertisingData(name: name)
        var report: [UInt8] = [0x0D, 1]
        report += [0x01, 0x00]                 // event type: connectable, complete
        report += [0x01]                       // random device address
        report += id.wireBytes
        report += [0x01, 0x01, 0x00]           // primary PHY LE 1M, secondary PHY LE 1M, SID 0
        report += [0x7F]                       // TX power not available
        report += [UInt8(bitPattern: Int8(clamping: rssi))]
        report += [0x00, 0x00]                 // no periodic advertising
        report += [0x00] + [UInt8](repeating: 0, count: 6)  // not directed
        report += [UInt8(data.count)] + data
        return [0x3E, UInt8(report.count)] + report
    }

    // MARK: Chat

    /// What the device answers to a message: one reply per line, so nothing sent goes unanswered.
    static func replies(to text: String) -> [String] {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        // Translators: the demo device's answer to an empty message.
        guard !lines.isEmpty else { return [L10n.tr("That message was empty.")] }
        // Translators: the demo device's answer to a line of chat; {} is the line as sent.
        return lines.map { L10n.format("You said: {}", $0) }
    }
}
