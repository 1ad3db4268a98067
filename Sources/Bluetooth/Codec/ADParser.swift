// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Everything in one advertising or EIR data block (Core Supplement v11, Part A, §1).
public struct AdvertisingData: Equatable, Sendable {
    public var flags: UInt8?
    public var services: [ServiceID] = []
    public var shortName: String?
    public var completeName: String?
    public var txPower: Int?
    public var classOfDevice: UInt32?
    public var appearance: UInt16?
    public var manufacturerData: [ManufacturerData] = []
    public var serviceData: [ServiceID: [UInt8]] = [:]
    /// Structures of types this parser does not decode, kept as (type, bytes).
    public var unknown: [(UInt8, [UInt8])] = []
    /// Set when the block is malformed; what came before is still decoded.
    public var problem: DecodeError?

    /// The bytes of the shortened and the complete name, as sent.
    public var shortNameBytes: [UInt8]?
    public var completeNameBytes: [UInt8]?

    /// The complete name, else the shortened one.
    public var name: String? { completeName ?? shortName }

    /// The name's bytes when they are not valid UTF-8, so they can be shown in hex.
    public var invalidNameBytes: [UInt8]? {
        guard let bytes = completeNameBytes ?? shortNameBytes else { return nil }
        return String(validating: bytes.prefix { $0 != 0 }, as: UTF8.self) == nil ? bytes : nil
    }

    public static func == (a: AdvertisingData, b: AdvertisingData) -> Bool {
        a.flags == b.flags && a.services == b.services && a.shortName == b.shortName && a.completeName == b.completeName
            && a.txPower == b.txPower && a.classOfDevice == b.classOfDevice && a.appearance == b.appearance
            && a.manufacturerData == b.manufacturerData && a.serviceData == b.serviceData
            && a.unknown.map(\.0) == b.unknown.map(\.0) && a.unknown.map(\.1) == b.unknown.map(\.1) && a.problem == b.problem
    }
}

/// Parses AD and EIR structures: length, type, data, repeated (Supplement Part A).
public enum ADParser {
    /// Decodes `bytes`; never traps, and keeps unknown types raw.
    public static func parse(_ bytes: [UInt8]) -> AdvertisingData {
        var result = AdvertisingData()
        var i = 0
        while i < bytes.count {
            let length = Int(bytes[i])
            // A zero length ends the significant part (EIR is zero padded).
            if length == 0 { break }
            guard i + length < bytes.count else {
                result.problem = .truncated("AD structure of \(length) bytes at offset \(i)")
                break
            }
            let type = bytes[i + 1]
            let data = Array(bytes[(i + 2)..<(i + 1 + length)])
            decode(type, data, into: &result)
            i += length + 1
        }
        return result
    }

    /// Drops the zero padding after the last structure of an EIR block.
    static func trimPadding(_ eir: [UInt8]) -> [UInt8] {
        var i = 0
        while i < eir.count, eir[i] != 0 { i += Int(eir[i]) + 1 }
        return Array(eir.prefix(min(i, eir.count)))
    }

    private static func decode(_ type: UInt8, _ data: [UInt8], into r: inout AdvertisingData) {
        switch type {
        case 0x01: r.flags = data.first
        case 0x02, 0x03: r.services += uuids(data, width: 2, into: &r)
        case 0x04, 0x05: r.services += uuids(data, width: 4, into: &r)
        case 0x06, 0x07: r.services += uuids(data, width: 16, into: &r)
        case 0x08:
            r.shortName = text(data)
            r.shortNameBytes = data
        case 0x09:
            r.completeName = text(data)
            r.completeNameBytes = data
        case 0x0A:
            if let byte = data.first, byte != 127 { r.txPower = Int(Int8(bitPattern: byte)) }
        case 0x0D where data.count == 3:
            r.classOfDevice = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16
        case 0x19 where data.count == 2:
            r.appearance = UInt16(data[0]) | UInt16(data[1]) << 8
        case 0x16 where data.count >= 2: r.serviceData[service(Array(data[0..<2]))] = Array(data[2...])
        case 0x20 where data.count >= 4: r.serviceData[service(Array(data[0..<4]))] = Array(data[4...])
        case 0x21 where data.count >= 16: r.serviceData[service(Array(data[0..<16]))] = Array(data[16...])
        case 0xFF where data.count >= 2:
            let id = UInt16(data[0]) | UInt16(data[1]) << 8
            r.manufacturerData.append(ManufacturerData(companyID: id, companyName: CompanyNames.name(id), data: Array(data[2...])))
        default:
            r.unknown.append((type, data))
        }
    }

    /// Invalid UTF-8 is replaced (U+FFFD), not dropped, so the user still sees a name.
    private static func text(_ data: [UInt8]) -> String {
        String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The whole UUIDs of a list; a list whose length is not a multiple of `width` keeps them and
    /// marks the block malformed, as Wireshark does.
    private static func uuids(_ data: [UInt8], width: Int, into r: inout AdvertisingData) -> [ServiceID] {
        if data.count % width != 0, r.problem == nil {
            r.problem = .malformed("a list of \(width)-byte UUIDs holds \(data.count) bytes")
        }
        return stride(from: 0, to: data.count - data.count % width, by: width).map { service(Array(data[$0..<($0 + width)])) }
    }

    /// A UUID from wire bytes (2, 4 or 16, little-endian) with its well-known name.
    /// Made when a report is decoded in full; a repeated report never comes here, so no table
    /// of every 16-bit UUID is built up front (that took a whole capture's start).
    static func service(_ wire: [UInt8]) -> ServiceID {
        BluetoothUUID(wire: wire)!.serviceID
    }
}
