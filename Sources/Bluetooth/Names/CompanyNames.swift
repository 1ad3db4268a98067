// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CBlueZ
import Domain
import Foundation
import Localization

/// Bluetooth SIG company names, from libbluetooth's table.
public enum CompanyNames {
    /// The company's name, or "Unknown maker (0xNNNN)" when libbluetooth has none.
    public static func name(_ id: UInt16) -> String {
        assigned[Int(id)] ?? ManufacturerData.unknownMaker(id)
    }

    /// Every named company, by name, for a picker.
    public static var all: [(id: UInt16, name: String)] {
        assigned.enumerated().compactMap { index, name in name.map { (UInt16(index), $0) } }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    /// libbluetooth's names, read once: a lookup per report must not allocate.
    private static let assigned: [String?] = (0...0xFFFF).map { id in
        guard let raw = bt_compidtostr(Int32(id)) else { return nil }
        let name = String(cString: raw)
        return name.isEmpty || name == "not assigned" || name == "internal use" ? nil : name
    }
}

/// Well-known service names; the tables are generated from data/service-uuids.txt at build time.
public enum ServiceNames {
    /// "Battery" for 0x180F, say; nil when not in the table.
    public static func name(_ uuid16: UInt16) -> String? { serviceNameTable[uuid16] }

    /// A 128-bit service's name: a SIG service written out on the base UUID
    /// (Core v5.4, Vol 3, Part B, §2.5.1), or a vendor service common enough to name.
    public static func name(uuid128 uuid: String) -> String? { AttributeNames.name(uuid, serviceNameTable, longServiceNameTable) }
}

/// Characteristic and descriptor names, from data/characteristic-uuids.txt and
/// data/descriptor-uuids.txt (the bluetooth-numbers-database), turned into code at build time.
public enum AttributeNames {
    /// "Battery Level" for 2A19, say, from its UUID in canonical text; nil when not in the table.
    public static func characteristic(_ uuid: String) -> String? { name(uuid, characteristicNameTable, longCharacteristicNameTable) }

    /// "Client Characteristic Configuration" for 2902, say; nil when not in the table.
    public static func descriptor(_ uuid: String) -> String? { name(uuid, descriptorNameTable, longDescriptorNameTable) }

    public static func characteristic(_ uuid: BluetoothUUID) -> String? { characteristic(uuid.text) }
    public static func descriptor(_ uuid: BluetoothUUID) -> String? { descriptor(uuid.text) }

    /// A 16-bit UUID by number, also when written out on the base UUID; a 128-bit one by its text.
    static func name(_ uuid: String, _ short: [UInt16: String], _ long: [String: String]) -> String? {
        let uuid = uuid.uppercased()
        if uuid.count == 4, let value = UInt16(uuid, radix: 16) { return short[value] }
        if uuid.hasPrefix("0000"), uuid.hasSuffix("-0000-1000-8000-00805F9B34FB"),
           let value = UInt16(uuid.dropFirst(4).prefix(4), radix: 16) {
            return short[value]
        }
        return long[uuid]
    }
}
