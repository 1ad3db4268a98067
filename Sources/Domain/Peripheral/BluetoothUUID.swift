// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// A 16-, 32- or 128-bit Bluetooth UUID as the user and FavBlue's files write it, and the bytes
/// advertisements and ATT carry (Core v5.4, Vol 3, Part B, §2.5.1).
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// Least significant byte first: 2, 4 or 16 bytes.
    public let wire: [UInt8]

    /// The Bluetooth Base UUID 00000000-0000-1000-8000-00805F9B34FB, least significant first, without its top four bytes.
    private static let base: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00]

    /// "180F", "0000180F" or "7E57C000-2C8F-4F3C-9F91-8577E1891234" (dashes optional, any case,
    /// an optional "0x"); nil for anything else.
    public init?(_ text: String) {
        var hex = text.trimmingCharacters(in: .whitespaces)
        if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex.removeFirst(2) }
        if hex.count == 36 {
            let dashes = hex.indices.filter { hex[$0] == "-" }.map { hex.distance(from: hex.startIndex, to: $0) }
            guard dashes == [8, 13, 18, 23] else { return nil }
        }
        hex.removeAll { $0 == "-" }
        guard [4, 8, 32].contains(hex.count), let bytes = Hex.bytes(hex.uppercased()) else { return nil }
        wire = bytes.reversed()
    }

    /// A 16-bit UUID.
    public init(_ short: UInt16) { wire = [UInt8(short & 0xFF), UInt8(short >> 8)] }

    /// Wire bytes: 2, 4 or 16.
    public init?(wire: [UInt8]) {
        guard [2, 4, 16].contains(wire.count) else { return nil }
        self.wire = wire
    }

    /// The 128-bit form, least significant first.
    public var full: [UInt8] {
        switch wire.count {
        case 16: return wire
        case 4: return Self.base + wire
        default: return Self.base + wire + [0, 0]
        }
    }

    /// The 16-bit value of a Bluetooth SIG UUID; nil otherwise.
    public var short: UInt16? {
        let f = full
        guard Array(f[0..<12]) == Self.base, f[14] == 0, f[15] == 0 else { return nil }
        return UInt16(f[12]) | UInt16(f[13]) << 8
    }

    /// The bytes ATT carries: 2 for a SIG UUID, else 16 (ATT has no 32-bit form, Vol 3, Part F, §3.2.1).
    public var attWire: [UInt8] { short.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? full }

    /// The shortest form, for an advertisement's lists: 2, 4 or 16 bytes.
    public var shortest: [UInt8] {
        if let short { return [UInt8(short & 0xFF), UInt8(short >> 8)] }
        let f = full
        if Array(f[0..<12]) == Self.base { return Array(f[12..<16]) }
        return f
    }

    /// "180F" for a SIG UUID, the dashed upper-case form otherwise, as FavBlue shows every UUID.
    public var text: String {
        if let short { return Hex.compact([UInt8(short >> 8), UInt8(short & 0xFF)]) }
        let f = Hex.compact(full.reversed())
        let c = Array(f)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// The dashed 128-bit form in lower case, as D-Bus services (BlueZ) write every UUID.
    public var longText: String {
        let c = Array(Hex.lower(full.reversed()))
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    public var description: String { text }

    public static func == (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.full == rhs.full }
    public func hash(into hasher: inout Hasher) { hasher.combine(full) }
}
