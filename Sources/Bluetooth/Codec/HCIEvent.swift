// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// One response to an inquiry (Core v5.4, Vol 4, Part E, §7.7.2, §7.7.33, §7.7.38).
public struct InquiryResponse: Equatable, Sendable {
    /// Address in wire order (least significant byte first).
    public let address: [UInt8]
    /// Page scan repetition mode, needed for a remote name request.
    public let pageScanRepetitionMode: UInt8
    /// Class of device, 24 bits.
    public let classOfDevice: UInt32
    /// Clock offset, needed for a remote name request.
    public let clockOffset: UInt16
    /// dBm; nil for a plain Inquiry Result.
    public let rssi: Int?
    /// Extended inquiry response data (zero padding removed); empty when none.
    public let eir: [UInt8]
}

/// The decoded bits of an LE advertising event type (§7.7.65.13).
public struct AdvertisingEventType: Equatable, Sendable {
    /// The raw 16-bit value (legacy types are mapped onto extended bits).
    public let rawValue: UInt16
    /// Accepts connections.
    public var connectable: Bool { rawValue & 0x0001 != 0 }
    /// Accepts scan requests.
    public var scannable: Bool { rawValue & 0x0002 != 0 }
    /// Directed at one device.
    public var directed: Bool { rawValue & 0x0004 != 0 }
    /// A scan response rather than an advertisement.
    public var scanResponse: Bool { rawValue & 0x0008 != 0 }
    /// Sent with legacy advertising PDUs.
    public var legacy: Bool { rawValue & 0x0010 != 0 }
    /// 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
    public var dataStatus: UInt8 { UInt8((rawValue >> 5) & 0x03) }

    /// Wraps an extended event type.
    public init(extended: UInt16) { rawValue = extended }

    /// Maps a legacy event type (§7.7.65.2) onto the extended bits, as §7.7.65.13 lists them.
    public init?(legacy: UInt8) {
        switch legacy {
        case 0x00: rawValue = 0x0013 // ADV_IND
        case 0x01: rawValue = 0x0015 // ADV_DIRECT_IND
        case 0x02: rawValue = 0x0012 // ADV_SCAN_IND
        case 0x03: rawValue = 0x0010 // ADV_NONCONN_IND
        case 0x04: rawValue = 0x001B // SCAN_RSP to ADV_IND
        default: return nil
        }
    }
}

/// One LE advertising report, legacy or extended.
public struct AdvertisingReport: Equatable, Sendable {
    /// What kind of advertisement it was.
    public let eventType: AdvertisingEventType
    /// 0 public, 1 random, 2 public identity, 3 random identity, 0xFF anonymous.
    public let addressType: UInt8
    /// Address in wire order.
    public let address: [UInt8]
    /// dBm; nil when the controller reports 127 ("not available").
    public let rssi: Int?
    /// dBm; nil when absent or 127.
    public let txPower: Int?
    /// The advertising data.
    public let data: [UInt8]

    /// A report as a gateway relays it (MQTT), not read from an HCI event.
    public init(eventType: AdvertisingEventType, addressType: UInt8, address: [UInt8], rssi: Int?, txPower: Int?, data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.txPower = txPower
        self.data = data
    }
}

/// An HCI event this host understands (§7.7).
public enum HCIEvent: Equatable, Sendable {
    case inquiryComplete(status: UInt8)
    case inquiryResults([InquiryResponse])
    case remoteNameRequestComplete(status: UInt8, address: [UInt8], name: String)
    case commandComplete(opcode: UInt16, returnParameters: [UInt8])
    case commandStatus(status: UInt8, opcode: UInt16)
    case hardwareError(code: UInt8)
    case leAdvertisingReports([AdvertisingReport])
    /// Any other event, kept as raw bytes.
    case other(code: UInt8, parameters: [UInt8])

    /// Decodes an event packet (code, length, parameters; no H4 indicator).
    public static func decode(_ packet: ArraySlice<UInt8>) throws(DecodeError) -> HCIEvent {
        var header = ByteReader(packet)
        let code = try header.u8("event code")
        let length = Int(try header.u8("event length"))
        let parameters = try header.take(length, "event parameters")
        var r = ByteReader(parameters)
        switch code {
        case 0x01:
            return .inquiryComplete(status: try r.u8("status"))
        case 0x02:
            return .inquiryResults(try inquiryResults(&r, withRSSI: false))
        case 0x22:
            return .inquiryResults(try inquiryResults(&r, withRSSI: true))
        case 0x2F:
            return .inquiryResults([try extendedInquiryResult(&r)])
        case 0x07:
            let status = try r.u8("status")
            let address = Array(try r.take(6, "address"))
            let raw = r.rest()
            let name = raw.prefix { $0 != 0 }
            return .remoteNameRequestComplete(status: status, address: address, name: String(decoding: name, as: UTF8.self))
        case 0x0E:
            _ = try r.u8("num HCI command packets")
            let opcode = try r.u16("opcode")
            return .commandComplete(opcode: opcode, returnParameters: Array(r.rest()))
        case 0x0F:
            let status = try r.u8("status")
            _ = try r.u8("num HCI command packets")
            return .commandStatus(status: status, opcode: try r.u16("opcode"))
        case 0x10:
            return .hardwareError(code: try r.u8("hardware code"))
        case 0x3E:
            let sub = try r.u8("LE subevent")
            switch sub {
            case 0x02: return .leAdvertisingReports(try legacyReports(&r))
            case 0x0D: return .leAdvertisingReports(try extendedReports(&r))
            default: return .other(code: code, parameters: Array(parameters))
            }
        default:
            return .other(code: code, parameters: Array(parameters))
        }
    }

    /// Inquiry Result (§7.7.2) and with RSSI (§7.7.33): fields are arrays, one entry per response.
    static func inquiryResults(_ r: inout ByteReader, withRSSI: Bool) throws(DecodeError) -> [InquiryResponse] {
        let n = Int(try r.u8("num responses"))
        let addresses = try (0..<n).map { _ throws(DecodeError) in Array(try r.take(6, "address")) }
        let modes = try (0..<n).map { _ throws(DecodeError) in try r.u8("page scan repetition mode") }
        // Inquiry Result has two reserved bytes per response, with RSSI one.
        _ = try r.take(n * (withRSSI ? 1 : 2), "reserved")
        let classes = try (0..<n).map { _ throws(DecodeError) in try r.u24("class of device") }
        let offsets = try (0..<n).map { _ throws(DecodeError) in try r.u16("clock offset") }
        let rssis = withRSSI ? try (0..<n).map { _ throws(DecodeError) in Int?(Int(try r.i8("RSSI"))) } : Array(repeating: nil, count: n)
        return (0..<n).map { i in
            InquiryResponse(address: addresses[i], pageScanRepetitionMode: modes[i], classOfDevice: classes[i],
                            clockOffset: offsets[i], rssi: rssis[i], eir: [])
        }
    }

    /// Extended Inquiry Result (§7.7.38): always one response, then 240 bytes of EIR.
    static func extendedInquiryResult(_ r: inout ByteReader) throws(DecodeError) -> InquiryResponse {
        let n = try r.u8("num responses")
        guard n == 1 else { throw .malformed("extended inquiry result with \(n) responses") }
        let address = Array(try r.take(6, "address"))
        let mode = try r.u8("page scan repetition mode")
        _ = try r.u8("reserved")
        let cod = try r.u24("class of device")
        let offset = try r.u16("clock offset")
        let rssi = Int(try r.i8("RSSI"))
        let eir = Array(r.rest())
        return InquiryResponse(address: address, pageScanRepetitionMode: mode, classOfDevice: cod,
                               clockOffset: offset, rssi: rssi, eir: ADParser.trimPadding(eir))
    }

    /// LE Advertising Report (§7.7.65.2): arrays of each field, then data, then RSSI.
    static func legacyReports(_ r: inout ByteReader) throws(DecodeError) -> [AdvertisingReport] {
        let n = Int(try r.u8("num reports"))
        guard n >= 1, n <= 25 else { throw .malformed("advertising report count \(n)") }
        let types = try (0..<n).map { _ throws(DecodeError) in try r.u8("event type") }
        let addressTypes = try (0..<n).map { _ throws(DecodeError) in try r.u8("address type") }
        let addresses = try (0..<n).map { _ throws(DecodeError) in Array(try r.take(6, "address")) }
        let lengths = try (0..<n).map { _ throws(DecodeError) in Int(try r.u8("data length")) }
        var datas: [[UInt8]] = []
        for length in lengths {
            guard length <= 31 else { throw .malformed("legacy advertising data of \(length) bytes") }
            datas.append(Array(try r.take(length, "advertising data")))
        }
        let rssis = try (0..<n).map { _ throws(DecodeError) in try r.i8("RSSI") }
        return try (0..<n).map { i throws(DecodeError) in
            guard let type = AdvertisingEventType(legacy: types[i]) else { throw .malformed("legacy event type \(types[i])") }
            return AdvertisingReport(eventType: type, addressType: addressTypes[i], address: addresses[i],
                                     rssi: rssis[i] == 127 ? nil : Int(rssis[i]), txPower: nil, data: datas[i])
        }
    }

    /// LE Extended Advertising Report (§7.7.65.13): one record after another.
    static func extendedReports(_ r: inout ByteReader) throws(DecodeError) -> [AdvertisingReport] {
        let n = Int(try r.u8("num reports"))
        guard n >= 1, n <= 10 else { throw .malformed("extended report count \(n)") }
        var reports: [AdvertisingReport] = []
        for _ in 0..<n {
            let type = try r.u16("event type")
            let addressType = try r.u8("address type")
            let address = Array(try r.take(6, "address"))
            _ = try r.take(3, "PHYs and SID")
            let tx = try r.i8("TX power")
            let rssi = try r.i8("RSSI")
            _ = try r.take(9, "periodic interval and direct address")
            let length = Int(try r.u8("data length"))
            let data = Array(try r.take(length, "advertising data"))
            reports.append(AdvertisingReport(eventType: AdvertisingEventType(extended: type), addressType: addressType,
                                             address: address, rssi: rssi == 127 ? nil : Int(rssi),
                                             txPower: tx == 127 ? nil : Int(tx), data: data))
        }
        return reports
    }
}
