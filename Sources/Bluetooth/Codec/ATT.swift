// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// ATT error codes (Core v5.4, Vol 3, Part F, §3.4.1.1), with the ones FavBlue meets named.
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
    case invalidAttributeValueLength
    case unlikelyError
    case insufficientEncryption
    case unsupportedGroupType
    case insufficientResources
    case valueNotAllowed
    /// Any other code, application (0x80–0x9F) and profile (0xE0–0xFF) ones included.
    case other(UInt8)

    private static let table: [(UInt8, ATTErrorCode)] = [
        (0x01, .invalidHandle), (0x02, .readNotPermitted), (0x03, .writeNotPermitted), (0x04, .invalidPDU),
        (0x05, .insufficientAuthentication), (0x06, .requestNotSupported), (0x07, .invalidOffset),
        (0x08, .insufficientAuthorization), (0x0A, .attributeNotFound), (0x0D, .invalidAttributeValueLength),
        (0x0E, .unlikelyError), (0x0F, .insufficientEncryption), (0x10, .unsupportedGroupType),
        (0x11, .insufficientResources), (0x13, .valueNotAllowed),
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

/// A handle and a value, as Read By Type and notifications carry them.
public struct HandleValue: Equatable, Sendable {
    public let handle: UInt16
    public let value: [UInt8]
}

/// A group of handles with its value, as Read By Group Type answers.
public struct GroupValue: Equatable, Sendable {
    public let start: UInt16
    public let end: UInt16
    public let value: [UInt8]
}

/// A handle and its type, as Find Information answers.
public struct HandleUUID: Equatable, Sendable {
    public let handle: UInt16
    public let uuid: AttributeUUID
}

/// The ATT PDUs FavBlue's client sends and understands (Core v5.4, Vol 3, Part F, §3.4).
public enum ATTPDU: Equatable, Sendable {
    case errorResponse(request: UInt8, handle: UInt16, code: ATTErrorCode)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([HandleUUID])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    /// Found handle and group end handle pairs.
    case findByTypeValueResponse([GroupValue])
    case readByTypeRequest(start: UInt16, end: UInt16, type: AttributeUUID)
    case readByTypeResponse([HandleValue])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: AttributeUUID)
    case readByGroupTypeResponse([GroupValue])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// Any other PDU, kept raw.
    case other(opcode: UInt8, parameters: [UInt8])

    // MARK: Opcodes (§3.4.8)
    public static let errorResponseOp: UInt8 = 0x01
    public static let exchangeMTURequestOp: UInt8 = 0x02

    /// Request opcodes a server may send; FavBlue answers each with Request Not Supported.
    static let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]

    /// The PDU's opcode.
    public var opcode: UInt8 {
        switch self {
        case .errorResponse: return 0x01
        case .exchangeMTURequest: return 0x02
        case .exchangeMTUResponse: return 0x03
        case .findInformationRequest: return 0x04
        case .findInformationResponse: return 0x05
        case .findByTypeValueRequest: return 0x06
        case .findByTypeValueResponse: return 0x07
        case .readByTypeRequest: return 0x08
        case .readByTypeResponse: return 0x09
        case .readByGroupTypeRequest: return 0x10
        case .readByGroupTypeResponse: return 0x11
        case .writeRequest: return 0x12
        case .writeResponse: return 0x13
        case .writeCommand: return 0x52
        case .notification: return 0x1B
        case .indication: return 0x1D
        case .confirmation: return 0x1E
        case .other(let opcode, _): return opcode
        }
    }

    /// Whether the PDU is a request that expects one response.
    public var isRequest: Bool { Self.requestOpcodes.contains(opcode) }

    /// The PDU as an ATT payload.
    public var bytes: [UInt8] {
        let le16 = HCICommand.le16
        switch self {
        case .errorResponse(let request, let handle, let code): return [0x01, request] + le16(handle) + [code.raw]
        case .exchangeMTURequest(let mtu): return [0x02] + le16(mtu)
        case .exchangeMTUResponse(let mtu): return [0x03] + le16(mtu)
        case .findInformationRequest(let start, let end): return [0x04] + le16(start) + le16(end)
        case .findInformationResponse(let list):
            let format: UInt8 = list.first?.uuid.wire.count == 16 ? 2 : 1
            return [0x05, format] + list.flatMap { le16($0.handle) + $0.uuid.wire }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return [0x06] + le16(start) + le16(end) + le16(type) + value
        case .findByTypeValueResponse(let list): return [0x07] + list.flatMap { le16($0.start) + le16($0.end) }
        case .readByTypeRequest(let start, let end, let type): return [0x08] + le16(start) + le16(end) + type.wire
        case .readByTypeResponse(let list):
            return [0x09, UInt8(2 + (list.first?.value.count ?? 0))] + list.flatMap { le16($0.handle) + $0.value }
        case .readByGroupTypeRequest(let start, let end, let type): return [0x10] + le16(start) + le16(end) + type.wire
        case .readByGroupTypeResponse(let list):
            return [0x11, UInt8(4 + (list.first?.value.count ?? 0))] + list.flatMap { le16($0.start) + le16($0.end) + $0.value }
        case .writeRequest(let handle, let value): return [0x12] + le16(handle) + value
        case .writeResponse: return [0x13]
        case .writeCommand(let handle, let value): return [0x52] + le16(handle) + value
        case .notification(let handle, let value): return [0x1B] + le16(handle) + value
        case .indication(let handle, let value): return [0x1D] + le16(handle) + value
        case .confirmation: return [0x1E]
        case .other(let opcode, let parameters): return [opcode] + parameters
        }
    }

    /// Decodes one ATT PDU; lists must hold whole entries and at least one.
    public static func decode(_ pdu: [UInt8]) throws(DecodeError) -> ATTPDU {
        var r = ByteReader(pdu)
        let opcode = try r.u8("ATT opcode")
        switch opcode {
        case 0x01:
            let request = try r.u8("request opcode")
            let handle = try r.u16("attribute handle")
            let code = ATTErrorCode(raw: try r.u8("error code"))
            try end(r)
            return .errorResponse(request: request, handle: handle, code: code)
        case 0x02, 0x03:
            let mtu = try r.u16("MTU")
            try end(r)
            return opcode == 0x02 ? .exchangeMTURequest(mtu: mtu) : .exchangeMTUResponse(mtu: mtu)
        case 0x04:
            let start = try r.u16("start handle")
            let endHandle = try r.u16("end handle")
            try end(r)
            return .findInformationRequest(start: start, end: endHandle)
        case 0x05:
            let format = try r.u8("format")
            guard format == 1 || format == 2 else { throw .malformed("find information format \(format)") }
            let width = format == 1 ? 2 : 16
            return .findInformationResponse(try entries(&r, size: 2 + width) { e throws(DecodeError) in
                HandleUUID(handle: try e.u16("handle"), uuid: AttributeUUID(wire: try e.take(width, "UUID"))!)
            })
        case 0x06:
            let start = try r.u16("start handle")
            let endHandle = try r.u16("end handle")
            let type = try r.u16("attribute type")
            return .findByTypeValueRequest(start: start, end: endHandle, type: type, value: Array(r.rest()))
        case 0x07:
            return .findByTypeValueResponse(try entries(&r, size: 4) { e throws(DecodeError) in
                GroupValue(start: try e.u16("found handle"), end: try e.u16("group end handle"), value: [])
            })
        case 0x08, 0x10:
            let start = try r.u16("start handle")
            let endHandle = try r.u16("end handle")
            guard let type = AttributeUUID(wire: r.rest()) else { throw .malformed("attribute type of bad length") }
            return opcode == 0x08 ? .readByTypeRequest(start: start, end: endHandle, type: type)
                : .readByGroupTypeRequest(start: start, end: endHandle, type: type)
        case 0x09:
            let length = Int(try r.u8("length"))
            guard length >= 2 else { throw .malformed("read by type entry of \(length) bytes") }
            return .readByTypeResponse(try entries(&r, size: length) { e throws(DecodeError) in
                HandleValue(handle: try e.u16("handle"), value: Array(e.rest()))
            })
        case 0x11:
            let length = Int(try r.u8("length"))
            guard length >= 4 else { throw .malformed("read by group type entry of \(length) bytes") }
            return .readByGroupTypeResponse(try entries(&r, size: length) { e throws(DecodeError) in
                GroupValue(start: try e.u16("handle"), end: try e.u16("end group handle"), value: Array(e.rest()))
            })
        case 0x12, 0x52, 0x1B, 0x1D:
            let handle = try r.u16("attribute handle")
            let value = Array(r.rest())
            switch opcode {
            case 0x12: return .writeRequest(handle: handle, value: value)
            case 0x52: return .writeCommand(handle: handle, value: value)
            case 0x1B: return .notification(handle: handle, value: value)
            default: return .indication(handle: handle, value: value)
            }
        case 0x13, 0x1E:
            try end(r)
            return opcode == 0x13 ? .writeResponse : .confirmation
        default:
            return .other(opcode: opcode, parameters: Array(r.rest()))
        }
    }

    private static func end(_ r: ByteReader) throws(DecodeError) {
        guard r.remaining == 0 else { throw .malformed("ATT PDU longer than its fields") }
    }

    /// Splits the rest of `r` into entries of `size` bytes, each read by `read`.
    private static func entries<T>(_ r: inout ByteReader, size: Int,
                                   _ read: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> [T] {
        let rest = r.rest()
        guard !rest.isEmpty, rest.count % size == 0 else {
            throw .malformed("ATT list of \(rest.count) bytes in entries of \(size)")
        }
        var list: [T] = []
        var start = rest.startIndex
        while start < rest.endIndex {
            var entry = ByteReader(rest[start..<(start + size)])
            list.append(try read(&entry))
            start += size
        }
        return list
    }
}
