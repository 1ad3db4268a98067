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

/// Well-known 16-bit service names; the table is generated from data/service-uuids.txt at build time.
public enum ServiceNames {
    /// "Battery" for 0x180F, say; nil when not in the table.
    public static func name(_ uuid16: UInt16) -> String? { serviceNameTable[uuid16] }
}
