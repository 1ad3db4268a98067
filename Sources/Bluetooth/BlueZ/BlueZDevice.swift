// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Reads BlueZ's Device1 properties as the observations the HCI route makes, so pages,
/// keywords and exports cannot tell the two routes apart.
public enum BlueZDevice {
    /// Properties that change only when the device is heard (an advertisement, an inquiry
    /// response or a name request), unlike Paired or Connected.
    static let heardProperties: Set<String> = [
        "RSSI", "Name", "TxPower", "ManufacturerData", "ServiceData", "UUIDs", "Appearance", "Class",
        "AdvertisingFlags",
    ]

    /// The device's identity. BlueZ has no bearer property: a class of device comes only from
    /// BR/EDR inquiry, so a device with one is classic; the rest are LE, public or random.
    public static func id(of properties: [String: DBusValue]) -> DeviceID? {
        guard let address = properties["Address"]?.stringValue else { return nil }
        let kind: AddressKind
        if case .uint32(let cod)? = properties["Class"], cod != 0 {
            kind = .bredr
        } else {
            kind = properties["AddressType"]?.stringValue == "random" ? .leRandom : .lePublic
        }
        return try? DeviceID(parsing: address, kind: kind)
    }

    /// The signal BlueZ last heard, dBm; nil when the device was not heard in this discovery.
    public static func rssi(of properties: [String: DBusValue]) -> Int? {
        if case .int16(let value)? = properties["RSSI"] { return Int(value) }
        return nil
    }

    /// The level BlueZ's Battery1 reports (its battery plugin reads the device's Battery
    /// service), in percent; nil without one.
    public static func battery(of properties: [String: DBusValue]?) -> Int? {
        if case .byte(let value)? = properties?["Percentage"], value <= 100 { return Int(value) }
        return nil
    }

    /// Everything the properties say, as one observation at `time`.
    public static func observation(_ properties: [String: DBusValue], id: DeviceID, at time: Date) -> Observation {
        var o = Observation(id: id, timestamp: time, rssi: rssi(of: properties))
        if let name = properties["Name"]?.stringValue, !name.isEmpty {
            o.name = name
        } else if let alias = properties["Alias"]?.stringValue, !alias.isEmpty, !isAddressText(alias) {
            // A device that never said its name may still have one the user gave it elsewhere;
            // without either, BlueZ's alias is only the address written with dashes.
            o.name = alias
        }
        // BlueZ leaves TxPower out when the device did not say; 127 means "not available" (Vol 4, Part E, §7.7.65.2).
        if case .int16(let tx)? = properties["TxPower"], tx != 127 { o.txPower = Int(tx) }
        if case .bytes(let flags)? = properties["AdvertisingFlags"], let first = flags.first { o.flags = first }
        o.services = (properties["UUIDs"]?.items ?? []).compactMap { $0.stringValue.flatMap(BluetoothUUID.init)?.compact.serviceID }
        for entry in dictionaryEntries(properties["ManufacturerData"]) {
            guard case .uint16(let company) = entry.key, case .bytes(let data) = entry.value.unwrapped else { continue }
            o.manufacturerData.append(ManufacturerData(companyID: company, companyName: CompanyNames.name(company), data: data))
        }
        for entry in dictionaryEntries(properties["ServiceData"]) {
            guard let uuid = entry.key.stringValue.flatMap(BluetoothUUID.init),
                  case .bytes(let data) = entry.value.unwrapped else { continue }
            o.serviceData[uuid.compact.serviceID] = data
        }
        if case .uint16(let appearance)? = properties["Appearance"], appearance != 0 { o.appearance = appearance }
        if case .uint32(let cod)? = properties["Class"], cod != 0 { o.classOfDevice = cod & 0xFF_FFFF }
        if case .bool(let paired)? = properties["Paired"] { o.paired = paired }
        if case .bool(let connected)? = properties["Connected"] { o.connected = connected }
        return o
    }

    /// "C0-98-E5-49-00-09", BlueZ's alias for a device with no name.
    static func isAddressText(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && UInt8($0, radix: 16) != nil }
    }

    private static func dictionaryEntries(_ value: DBusValue?) -> [DBusValue.DictEntry] {
        if case .dictionary(_, _, let entries)? = value?.unwrapped { return entries }
        return []
    }
}
