// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// A characteristic declaration (Core v5.4, Vol 3, Part G, §3.3.1).
public struct CharacteristicDeclaration: Equatable, Sendable {
    /// The handle of the declaration itself.
    public let handle: UInt16
    /// What the characteristic allows.
    public let properties: GATTProperties
    /// The handle of its value.
    public let valueHandle: UInt16
    /// Its type.
    public let uuid: BluetoothUUID

    /// Reads one entry of a Read By Type response for 0x2803: properties, value handle, UUID.
    public init(_ entry: HandleValue) throws(DecodeError) {
        var r = ByteReader(entry.value)
        let properties = try r.u8("characteristic properties")
        let valueHandle = try r.u16("characteristic value handle")
        guard let uuid = BluetoothUUID(attWire: r.rest()) else { throw .malformed("characteristic UUID of bad length") }
        guard valueHandle > entry.handle else { throw .malformed("characteristic value before its declaration") }
        self.handle = entry.handle
        self.properties = GATTProperties(rawValue: properties)
        self.valueHandle = valueHandle
        self.uuid = uuid
    }
}

/// A primary service found by Read By Group Type or Find By Type Value.
public struct ServiceRange: Equatable, Sendable {
    /// The service's UUID.
    public let uuid: BluetoothUUID
    /// Its handle range.
    public let start: UInt16
    public let end: UInt16

    /// Reads one entry of a Read By Group Type response for 0x2800; the value is the UUID.
    public init(_ group: GroupValue) throws(DecodeError) {
        guard let uuid = BluetoothUUID(attWire: group.value) else { throw .malformed("service UUID of bad length") }
        try self.init(uuid: uuid, start: group.start, end: group.end)
    }

    /// A service whose UUID is known (Find By Type Value answers with handles only).
    public init(uuid: BluetoothUUID, start: UInt16, end: UInt16) throws(DecodeError) {
        guard start > 0, start <= end else { throw .malformed("service handles \(start)–\(end)") }
        self.uuid = uuid
        self.start = start
        self.end = end
    }
}

/// The two chat services and their characteristics.
public struct ChatProfile: Equatable, Sendable {
    /// The service.
    public let service: BluetoothUUID
    /// Device → app, notify.
    public let tx: BluetoothUUID
    /// App → device, write.
    public let rx: BluetoothUUID

    /// FavBlue's chat service.
    public static let chat = ChatProfile(service: BluetoothUUID("7E57C000-2C8F-4F3C-9F91-8577E1891234")!,
                                         tx: BluetoothUUID("7E57C001-2C8F-4F3C-9F91-8577E1891234")!,
                                         rx: BluetoothUUID("7E57C002-2C8F-4F3C-9F91-8577E1891234")!)
    /// The Nordic UART Service.
    public static let nordicUART = ChatProfile(service: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!,
                                               tx: BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!,
                                               rx: BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!)
    /// In order of preference.
    public static let preferred: [ChatProfile] = [.chat, .nordicUART]
}

/// Splits outgoing text into ATT values of at most `limit` bytes (ATT_MTU − 3) without
/// cutting a character: at grapheme boundaries where possible, else at scalar boundaries.
public enum ChatSplitter {
    /// The parts of `text`, in order; empty text gives one empty part.
    public static func parts(of text: String, limit: Int) -> [[UInt8]] {
        let limit = max(limit, 4)
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        func add(_ piece: [UInt8]) {
            if current.count + piece.count > limit, !current.isEmpty {
                parts.append(current)
                current = []
            }
            current += piece
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            if bytes.count <= limit {
                add(bytes)
            } else {
                // A grapheme longer than a part (a long emoji sequence): cut between its scalars.
                for scalar in character.unicodeScalars { add(Array(String(scalar).utf8)) }
            }
        }
        if !current.isEmpty || parts.isEmpty { parts.append(current) }
        return parts
    }
}
