// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CBlueZ
import Domain
import Foundation
import Localization

/// Bluetooth SIG company names, from libbluetooth's table.
public enum CompanyNames {
    /// The company's name, or "Company 0xNNNN" when libbluetooth has none.
    public static func name(_ id: UInt16) -> String {
        assigned[Int(id)] ?? L10n.format("Company 0x{}", String(format: "%04X", id))
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
    public static func name(uuid128 uuid: String) -> String? {
        if uuid.hasPrefix("0000"), uuid.hasSuffix("-0000-1000-8000-00805F9B34FB"),
           let short = UInt16(uuid.dropFirst(4).prefix(4), radix: 16) {
            return name(short)
        }
        return longServiceNameTable[uuid]
    }
}
