// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// ATT error codes (Core v5.4, Vol 3, Part F, §3.4.1.1), each of the Core's named.
public enum ATTErrorCode: Equatable, Sendable {
    case invalidHandle
    case readNotPermitted
    case writeNotPermitted
    case invalidPDU
    case insufficientAuthentication
    case requestNotSupported
    case invalidOffset
    case insufficientAuthorization
    case attributeNotFound
    case prepareQueueFull
    case attributeNotLong
    case encryptionKeySizeTooShort
    case invalidAttributeValueLength
    case unlikelyError
    case insufficientEncryption
    case unsupportedGroupType
    case insufficientResources
    case databaseOutOfSync
    case valueNotAllowed
    /// The Core Specification Supplement's Client Characteristic Configuration Descriptor
    /// Improperly Configured (Part B, §1.2): bits the characteristic cannot do.
    case cccdImproperlyConfigured
    /// Any other code, application (0x80–0x9F) and profile (0xE0–0xFF) ones included.
    case other(UInt8)

    private static let table: [(UInt8, ATTErrorCode)] = [
        (0x01, .invalidHandle), (0x02, .readNotPermitted), (0x03, .writeNotPermitted), (0x04, .invalidPDU),
        (0x05, .insufficientAuthentication), (0x06, .requestNotSupported), (0x07, .invalidOffset),
        (0x08, .insufficientAuthorization), (0x09, .prepareQueueFull), (0x0A, .attributeNotFound),
        (0x0B, .attributeNotLong), (0x0C, .encryptionKeySizeTooShort), (0x0D, .invalidAttributeValueLength),
        (0x0E, .unlikelyError), (0x0F, .insufficientEncryption), (0x10, .unsupportedGroupType),
        (0x11, .insufficientResources), (0x12, .databaseOutOfSync), (0x13, .valueNotAllowed),
        (0xFD, .cccdImproperlyConfigured),
    ]

    /// The code for `raw`.
    public init(raw: UInt8) {
        self = Self.table.first { $0.0 == raw }?.1 ?? .other(raw)
    }

    /// The byte on the wire.
    public var raw: UInt8 {
        if case .other(let raw) = self { return raw }
        return Self.table.first { $0.1 == self }!.0
    }

    /// What the device said, in words (Core spec Vol 3 Part F §3.4.1.1, and the common profile
    /// errors of the Core Specification Supplement Part B), ending in what to do where there is something.
    public var message: String {
        switch raw {
        case 0x01: return L10n.tr("Invalid handle: the device has no such attribute. Its services may have changed; connect again.")
        case 0x02: return L10n.tr("Read not permitted: the device does not let this value be read.")
        case 0x03: return L10n.tr("Write not permitted: the device does not let this value be written.")
        case 0x04: return L10n.tr("Invalid request: the device could not read what was sent.")
        case 0x05: return L10n.tr("Insufficient authentication: pair with the device first.")
        case 0x06: return L10n.tr("Request not supported: the device does not do this.")
        case 0x07: return L10n.tr("Invalid offset: the value is shorter than where the read or write began.")
        case 0x08: return L10n.tr("Insufficient authorization: the device must allow this, often on its own screen or app.")
        case 0x09: return L10n.tr("Prepare queue full: the value was too long for the device to take in parts.")
        case 0x0A: return L10n.tr("Attribute not found.")
        case 0x0B: return L10n.tr("Attribute not long: this value cannot be read in parts.")
        case 0x0C: return L10n.tr("Encryption key too short: pair with the device again.")
        case 0x0D: return L10n.tr("Invalid value length: the device expects a value of another length.")
        case 0x0E: return L10n.tr("Unlikely error: the device failed and gave no reason.")
        case 0x0F: return L10n.tr("Insufficient encryption: pair with the device first.")
        case 0x10: return L10n.tr("Unsupported group type.")
        case 0x11: return L10n.tr("Insufficient resources: the device is busy. Try again.")
        case 0x12: return L10n.tr("Out of sync: the device's services changed. Connect again.")
        case 0x13: return L10n.tr("Value not allowed: the device does not accept this value.")
        case 0x80 ... 0x9F:
            return L10n.format("The device's own error 0x{}: its documentation says what it means.", String(raw, radix: 16, uppercase: true))
        case 0xFC: return L10n.tr("Write request rejected: the device refused the value.")
        case 0xFD: return L10n.tr("Notifications are not set up as the device expects.")
        case 0xFE: return L10n.tr("The device is busy with an earlier request. Try again.")
        case 0xFF: return L10n.tr("Out of range: the value is outside what the device accepts.")
        default: return L10n.format("The device gave error 0x{}.", String(raw, radix: 16, uppercase: true))
        }
    }

    /// Whether pairing (or pairing again) is the way past this error.
    public var wantsPairing: Bool { [0x05, 0x0C, 0x0F].contains(raw) }
}
