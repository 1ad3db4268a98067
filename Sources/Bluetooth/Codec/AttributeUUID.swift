// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// A 16- or 128-bit attribute UUID as ATT carries it (little-endian), compared by value, so
/// 0x2902 equals 00002902-0000-1000-8000-00805F9B34FB (Core v5.4, Vol 3, Part B, §2.5.1).
public struct AttributeUUID: Hashable, Sendable, CustomStringConvertible {
    /// The bytes as on the wire: 2 or 16, least significant first.
    public let wire: [UInt8]

    /// The Bluetooth Base UUID, wire order.
    private static let base: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00]

    /// A 16-bit UUID.
    public init(_ short: UInt16) { wire = HCICommand.le16(short) }

    /// Wire bytes; nil unless there are 2 or 16.
    public init?(wire: some Collection<UInt8>) {
        guard wire.count == 2 || wire.count == 16 else { return nil }
        self.wire = Array(wire)
    }

    /// Canonical text "7E57C000-2C8F-4F3C-9F91-8577E1891234" (or 4 hex digits); nil if malformed.
    public init?(_ text: String) {
        let hex = text.filter { $0 != "-" }
        guard hex.count == 4 || hex.count == 32, let bytes = Hex.bytes(hex) else { return nil }
        wire = bytes.reversed()
    }

    /// The 128-bit form, wire order.
    public var full: [UInt8] { wire.count == 16 ? wire : Self.base + wire + [0, 0] }

    /// The 16-bit value when this is a Bluetooth SIG UUID.
    public var short: UInt16? {
        let f = full
        guard Array(f[0..<12]) == Self.base, f[14] == 0, f[15] == 0 else { return nil }
        return UInt16(f[12]) | UInt16(f[13]) << 8
    }

    /// The UUID as the rest of FavBlue names services: canonical text and well-known name.
    public var serviceID: ServiceID {
        if let short { return ADParser.service(HCICommand.le16(short)) }
        return ADParser.service(wire)
    }

    public var description: String { serviceID.uuid }

    public static func == (lhs: AttributeUUID, rhs: AttributeUUID) -> Bool { lhs.full == rhs.full }
    public func hash(into hasher: inout Hasher) { hasher.combine(full) }

    // MARK: GATT declarations and descriptors (Assigned Numbers §3.5, §3.7)
    public static let primaryService = AttributeUUID(0x2800)
    public static let characteristic = AttributeUUID(0x2803)
    public static let clientCharacteristicConfiguration = AttributeUUID(0x2902)
}
