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
    public init?(wire: some Collection<UInt8>) {
        guard [2, 4, 16].contains(wire.count) else { return nil }
        self.wire = Array(wire)
    }

    /// Bytes from an ATT PDU: 2 or 16, as ATT has no 32-bit form (Vol 3, Part F, §3.2.1).
    public init?(attWire: some Collection<UInt8>) {
        guard attWire.count == 2 || attWire.count == 16 else { return nil }
        self.wire = Array(attWire)
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
        if wire.count == 2 { return UInt16(wire[0]) | UInt16(wire[1]) << 8 }
        let f = full
        guard Array(f[0..<12]) == Self.base, f[14] == 0, f[15] == 0 else { return nil }
        return UInt16(f[12]) | UInt16(f[13]) << 8
    }

    /// The bytes ATT carries: 2 for a SIG UUID, else 16 (ATT has no 32-bit form, Vol 3, Part F, §3.2.1).
    public var attWire: [UInt8] { short.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? full }

    /// The same UUID in the form ATT carries: 16 bits for a SIG UUID, else 128.
    public var attForm: BluetoothUUID { BluetoothUUID(attWire: attWire)! }

    /// The bytes as they came, where ATT can carry them (2 or 16), so a PDU encodes as it decoded.
    public var attAsGiven: [UInt8] { wire.count == 4 ? attWire : wire }

    /// The same UUID in its shortest form: what BlueZ writes out in 128 bits is shown as "180F".
    public var compact: BluetoothUUID { BluetoothUUID(wire: shortest)! }

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
        return Self.dashed(Hex.compact(full.reversed()))
    }

    /// The dashed 128-bit form in lower case, as D-Bus services (BlueZ) write every UUID.
    public var longText: String {
        return Self.dashed(Hex.lower(full.reversed()))
    }

    /// The form it came in: 4 hex digits, 8, or the dashed 128-bit form, upper case. An advertisement's
    /// 128-bit list may hold a SIG UUID, and the Keywords show what the device sent.
    public var heardText: String {
        switch wire.count {
        case 2: return text
        case 4: return Hex.compact(wire.reversed())
        default: return Self.dashed(Hex.compact(wire.reversed()))
        }
    }

    /// 32 hex digits in the 8-4-4-4-12 form.
    private static func dashed(_ hex: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (i, digit) in hex.utf8.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { text.append(UInt8(ascii: "-")) }
            text.append(digit)
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { text }

    public static func == (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.full == rhs.full }
    public func hash(into hasher: inout Hasher) { hasher.combine(full) }

    // MARK: GATT declarations and descriptors (Assigned Numbers §3.5, §3.7)
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)
    public static let extendedProperties = BluetoothUUID(0x2900)
    public static let userDescription = BluetoothUUID(0x2901)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    public static let presentationFormat = BluetoothUUID(0x2904)
    public static let aggregateFormat = BluetoothUUID(0x2905)
}

/// Kept as its text; a text that is no UUID does not decode.
extension BluetoothUUID: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no UUID: \(text)"))
        }
        self = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
