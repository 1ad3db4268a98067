// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// How a device's address is to be read: LE public, LE random, or BR/EDR (classic).
public enum AddressKind: String, Sendable, Hashable, Codable, CaseIterable {
    case lePublic = "le-public"
    case leRandom = "le-random"
    case bredr = "bredr"

    /// The radio the address belongs to.
    public var transport: Transport { self == .bredr ? .bredr : .le }
}

/// The radio a device was seen on.
public enum Transport: String, Sendable, Hashable, Codable {
    case le
    case bredr
}

/// Why a text is not a device address.
public enum DeviceIDError: Error, Equatable, Sendable {
    case wrongLength(Int)
    case badOctet(String)
    case unknownKind(String)
}

/// A Bluetooth device address plus its kind; the identity of a device everywhere in FavBlue.
public struct DeviceID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The six address octets, most significant first, as printed ("AA" of "AA:BB:…").
    public let octets: [UInt8]
    /// Public, random or classic.
    public let kind: AddressKind

    /// Makes an identifier from six octets, most significant first.
    public init(octets: [UInt8], kind: AddressKind) {
        precondition(octets.count == 6, "a Bluetooth address has six octets")
        self.octets = octets
        self.kind = kind
    }

    /// Makes an identifier from the little-endian byte order used on the HCI wire.
    public init(wireBytes: some Collection<UInt8>, kind: AddressKind) {
        precondition(wireBytes.count == 6, "a Bluetooth address has six octets")
        self.init(octets: Array(wireBytes.reversed()), kind: kind)
    }

    /// Parses "AA:BB:CC:DD:EE:FF" (either case, ':' or '-' separated).
    public init(parsing text: String, kind: AddressKind) throws(DeviceIDError) {
        let parts = text.trimmingCharacters(in: .whitespaces)
            .split(separator: ":", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard parts.count == 6 else { throw .wrongLength(parts.count) }
        var octets: [UInt8] = []
        for part in parts {
            guard part.count == 2, let value = UInt8(part, radix: 16) else { throw .badOctet(String(part)) }
            octets.append(value)
        }
        self.init(octets: octets, kind: kind)
    }

    /// Parses the storage form "AA:BB:CC:DD:EE:FF/le-random" written by `storageKey`.
    public init(storageKey: String) throws(DeviceIDError) {
        let pieces = storageKey.split(separator: "/", maxSplits: 1)
        guard pieces.count == 2, let kind = AddressKind(rawValue: String(pieces[1])) else {
            throw .unknownKind(storageKey)
        }
        try self.init(parsing: String(pieces[0]), kind: kind)
    }

    /// The canonical address text, upper case with colons.
    public var address: String {
        octets.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// A stable text key, unique per address and kind, for storage.
    public var storageKey: String { address + "/" + kind.rawValue }

    /// The address octets in HCI wire order (least significant first).
    public var wireBytes: [UInt8] { octets.reversed() }

    public var description: String { address }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        lhs.storageKey < rhs.storageKey
    }
}
