// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

extension AddressKind {
    /// The kind as the user reads it: "LE public", "LE random" or "BR/EDR".
    public var label: String {
        switch self {
        case .lePublic: return L10n.tr("LE public")
        case .leRandom: return L10n.tr("LE random")
        case .bredr: return L10n.tr("BR/EDR")
        }
    }
}

extension DeviceID {
    /// "AA:BB:CC:DD:EE:FF · LE public", the identifier line under a device's name.
    public var identifierLine: String {
        L10n.format("{} · {}", address, kind.label)
    }
}
