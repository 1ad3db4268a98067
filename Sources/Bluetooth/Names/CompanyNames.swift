// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CBlueZ
import Domain
import Foundation

/// Bluetooth SIG company names, from libbluetooth's table.
public enum CompanyNames {
    /// The company's name, or "Company 0xNNNN" when libbluetooth has none.
    public static func name(_ id: UInt16) -> String {
        if let raw = bt_compidtostr(Int32(id)) {
            let name = String(cString: raw)
            if !name.isEmpty, name != "not assigned", name != "internal use" { return name }
        }
        return L10n.format("Company 0x{}", String(format: "%04X", id))
    }
}

/// Well-known 16-bit service names; the table is generated from data/service-uuids.txt at build time.
public enum ServiceNames {
    /// "Battery" for 0x180F, say; nil when not in the table.
    public static func name(_ uuid16: UInt16) -> String? { serviceNameTable[uuid16] }
}
