// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

extension BluetoothUUID {
    /// The UUID as the rest of FavBlue names services: the form it came in, with its well-known name.
    public var serviceID: ServiceID {
        let name = short.flatMap { ServiceNames.name($0) } ?? (wire.count == 16 ? ServiceNames.name(uuid128: heardText) : nil)
        return ServiceID(self, name: name)
    }

    /// The AD type of service data under this UUID's width: 0x16, 0x20 or 0x21 (Core Supplement, Part A, §1.11).
    public var serviceDataType: UInt8 {
        switch wire.count {
        case 2: return 0x16
        case 4: return 0x20
        default: return 0x21
        }
    }
}
