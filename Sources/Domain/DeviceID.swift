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
///
/// The address is kept as one 48-bit integer, not an array: a busy room makes
/// thousands of these a second, and they are hashed, compared and sorted.
public struct DeviceID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The address, most significant octet first ("AA" of "AA:BB:…" in bits 40–47).
    public let value: UInt64
    /// Public, random or classic.
    public let kind: AddressKind

    /// Makes an identifier from six octets, most significant first.
    public init(octets: [UInt8], kind: AddressKind) {
        precondition(octets.count == 6, "a Bluetooth address has six octets")
        self.value = octets.reduce(0) { $0 << 8 | UInt64($1) }
        self.kind = kind
    }

    /// One word: the 48-bit address and the kind beside it. The kind's String raw value would
    /// otherwise be hashed as text, on every lookup of a busy room's table.
    public func hash(into hasher: inout Hasher) {
        let kindBits: UInt64 = switch kind {
        case .lePublic: 0
        case .leRandom: 1
        case .bredr: 2
        }
        hasher.combine(value << 2 | kindBits)
    }

    /// Makes an identifier from the address as a number (its low 48 bits).
    public init(value: UInt64, kind: AddressKind) {
        self.value = value & 0xFFFF_FFFF_FFFF
        self.kind = kind
    }

    /// Makes an identifier from the little-endian byte order used on the HCI wire.
    /// Inlinable, so the decoder's call is specialized for its byte slices.
    @inlinable
    public init(wireBytes: some Collection<UInt8>, kind: AddressKind) {
        precondition(wireBytes.count == 6, "a Bluetooth address has six octets")
        var value: UInt64 = 0
        for (shift, byte) in wireBytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(shift)) }
        self.value = value
        self.kind = kind
    }

    /// The six address octets, most significant first, as printed.
    public var octets: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) } }

    /// Parses "AA:BB:CC:DD:EE:FF" (either case, ':' or '-' separated).
    public init(parsing text: String, kind: AddressKind) throws(DeviceIDError) {
        let parts = text.trimmingBlanks
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
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var text = [UInt8](repeating: UInt8(ascii: ":"), count: 17)
        for index in 0..<6 {
            let byte = Int(truncatingIfNeeded: value >> (8 * UInt64(5 - index))) & 0xFF
            text[index * 3] = digits[byte >> 4]
            text[index * 3 + 1] = digits[byte & 0x0F]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A stable text key, unique per address and kind, for storage.
    public var storageKey: String { address + "/" + kind.rawValue }

    /// The address octets in HCI wire order (least significant first).
    public var wireBytes: [UInt8] { octets.reversed() }

    public var description: String { address }

    /// The order of `storageKey`: address, then kind.
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        lhs.value != rhs.value ? lhs.value < rhs.value : lhs.kind.rawValue < rhs.kind.rawValue
    }
}
