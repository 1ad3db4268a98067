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

/// What an address is, read from its kind and, for a random address, its two top bits
/// (Core spec Vol 6 Part B §1.3).
public enum AddressType: Equatable, Sendable {
    /// A public (IEEE-assigned) LE address: fixed for the device's life.
    case lePublic
    /// Top bits 11: fixed until the device is reset.
    case staticRandom
    /// Top bits 01: changes every few minutes; a bonded device's IRK resolves it.
    case resolvablePrivate
    /// Top bits 00: changes and cannot be resolved.
    case nonResolvablePrivate
    /// Top bits 10: a random address of a type the spec reserves.
    case reservedRandom
    /// A classic (BR/EDR) address.
    case bredr

    /// Classifies `id`.
    public init(_ id: DeviceID) {
        switch id.kind {
        case .lePublic: self = .lePublic
        case .bredr: self = .bredr
        case .leRandom:
            switch id.value >> 46 {
            case 0b11: self = .staticRandom
            case 0b01: self = .resolvablePrivate
            case 0b00: self = .nonResolvablePrivate
            default: self = .reservedRandom
            }
        }
    }

    /// Short, for the line under a device's name: "LE static random".
    public var label: String {
        switch self {
        case .lePublic: return L10n.tr("LE public")
        case .staticRandom: return L10n.tr("LE static random")
        case .resolvablePrivate: return L10n.tr("LE resolvable private")
        case .nonResolvablePrivate: return L10n.tr("LE non-resolvable private")
        case .reservedRandom: return L10n.tr("LE random")
        case .bredr: return L10n.tr("BR/EDR")
        }
    }

    /// What it means for the user, for the device's page ("Fixed address", "Changes its
    /// address"); the technical label goes in the row's tooltip.
    public var words: String {
        switch self {
        case .lePublic, .staticRandom: return L10n.tr("Fixed address")
        case .resolvablePrivate, .nonResolvablePrivate: return L10n.tr("Changes its address")
        case .reservedRandom: return L10n.tr("Random address")
        case .bredr: return L10n.tr("Classic Bluetooth")
        }
    }

    /// In plain words, for the line under a device's name in a list; nil where there is nothing a
    /// user needs to know (an address that stays the same). The technical label is on the
    /// device's page.
    public var plain: String? {
        switch self {
        case .lePublic, .staticRandom, .reservedRandom: return nil
        // Translators: under a device's address in a list: the address changes, and pairing recognises it.
        case .resolvablePrivate: return L10n.tr("private address")
        // Translators: under a device's address in a list: the address changes, and nothing links it to the device.
        case .nonResolvablePrivate: return L10n.tr("one-time address")
        case .bredr: return L10n.tr("Classic Bluetooth")
        }
    }

    /// What it means for recognising the device, for the detail page; nil where the label says enough.
    public var explanation: String? {
        switch self {
        case .resolvablePrivate:
            return L10n.tr("This address changes every few minutes. Pair with the device so FavBlue recognises it whatever address it uses.")
        case .nonResolvablePrivate:
            return L10n.tr("This address changes and nothing can link the new one to this device.")
        default:
            return nil
        }
    }
}

extension DeviceID {
    /// What the address is: public, static random, resolvable or non-resolvable private, or classic.
    public var addressType: AddressType { AddressType(self) }

    /// "AA:BB:CC:DD:EE:FF", or "AA:BB:CC:DD:EE:FF · private address": the identifier line under
    /// a device's name, its kind in plain words where it matters.
    public var identifierLine: String {
        addressType.plain.map { L10n.format("{} · {}", address, $0) } ?? address
    }
}
