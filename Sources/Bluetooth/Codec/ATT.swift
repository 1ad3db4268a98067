// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// A handle and a value, as Read By Type, notifications and Multiple Handle Value
/// Notification carry them.
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
    public let uuid: BluetoothUUID
}

/// One value of a Read Multiple Variable response: `length` is the attribute's whole length in
/// bytes, `value` what fitted (only the last may be cut, §3.4.4.12).
public struct LengthValue: Equatable, Sendable {
    public let length: UInt16
    public let value: [UInt8]
}

/// Every ATT PDU of Core v5.4, Vol 3, Part F, §3.4, in both directions: the client sends
/// requests and reads responses, the server reads requests and sends responses, and each side
/// speaks in these types alone. `decode` checks every length and never traps.
public enum ATTPDU: Equatable, Sendable {
    case errorResponse(request: UInt8, handle: UInt16, code: ATTErrorCode)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([HandleUUID])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    /// Found handle and group end handle pairs.
    case findByTypeValueResponse([GroupValue])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByTypeResponse([HandleValue])
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse(value: [UInt8])
    /// Two or more handles.
    case readMultipleRequest(handles: [UInt16])
    /// The values one after another, as the server has no way to say where each ends.
    case readMultipleResponse(values: [UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByGroupTypeResponse([GroupValue])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case prepareWriteRequest(handle: UInt16, offset: UInt16, value: [UInt8])
    case prepareWriteResponse(handle: UInt16, offset: UInt16, value: [UInt8])
    /// Writes the prepared parts (true) or drops them (false).
    case executeWriteRequest(commit: Bool)
    case executeWriteResponse
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// Two or more handles.
    case readMultipleVariableRequest(handles: [UInt16])
    case readMultipleVariableResponse([LengthValue])
    case multipleHandleValueNotification([HandleValue])
    case writeCommand(handle: UInt16, value: [UInt8])
    /// A Write Command with a 12-byte signature (§3.4.5.4).
    case signedWriteCommand(handle: UInt16, value: [UInt8], signature: [UInt8])
    /// An opcode the Core does not define, kept so a server can refuse it (§3.4.1.1); no side sends one.
    case unknown(opcode: UInt8, parameters: [UInt8])

    /// Request opcodes (§3.4.8): each expects one response, and is refused with an Error Response.
    static let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]

    /// The PDU's opcode (§3.4.8).
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
        case .readRequest: return 0x0A
        case .readResponse: return 0x0B
        case .readBlobRequest: return 0x0C
        case .readBlobResponse: return 0x0D
        case .readMultipleRequest: return 0x0E
        case .readMultipleResponse: return 0x0F
        case .readByGroupTypeRequest: return 0x10
        case .readByGroupTypeResponse: return 0x11
        case .writeRequest: return 0x12
        case .writeResponse: return 0x13
        case .prepareWriteRequest: return 0x16
        case .prepareWriteResponse: return 0x17
        case .executeWriteRequest: return 0x18
        case .executeWriteResponse: return 0x19
        case .notification: return 0x1B
        case .indication: return 0x1D
        case .confirmation: return 0x1E
        case .readMultipleVariableRequest: return 0x20
        case .readMultipleVariableResponse: return 0x21
        case .multipleHandleValueNotification: return 0x23
        case .writeCommand: return 0x52
        case .signedWriteCommand: return 0xD2
        case .unknown(let opcode, _): return opcode
        }
    }

    /// Whether the PDU is a request that expects one response.
    public var isRequest: Bool { Self.requestOpcodes.contains(opcode) }

    /// Opcodes only a server sends: responses, notifications and indications (§3.4.8). A client
    /// takes these; everything else on the bearer is for the server side.
    static let serverOpcodes: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x21, 0x23]

    /// The PDU as an ATT payload.
    public var bytes: [UInt8] {
        let le16 = HCICommand.le16
        switch self {
        case .errorResponse(let request, let handle, let code): return [0x01, request] + le16(handle) + [code.raw]
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu): return [opcode] + le16(mtu)
        case .findInformationRequest(let start, let end): return [0x04] + le16(start) + le16(end)
        case .findInformationResponse(let list):
            let format: UInt8 = list.first?.uuid.attAsGiven.count == 16 ? 2 : 1
            return [0x05, format] + list.flatMap { le16($0.handle) + $0.uuid.attAsGiven }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return [0x06] + le16(start) + le16(end) + le16(type) + value
        case .findByTypeValueResponse(let list): return [0x07] + list.flatMap { le16($0.start) + le16($0.end) }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            return [opcode] + le16(start) + le16(end) + type.attAsGiven
        case .readByTypeResponse(let list):
            return [0x09, UInt8(2 + (list.first?.value.count ?? 0))] + list.flatMap { le16($0.handle) + $0.value }
        case .readRequest(let handle): return [0x0A] + le16(handle)
        case .readResponse(let value), .readBlobResponse(let value), .readMultipleResponse(let value): return [opcode] + value
        case .readBlobRequest(let handle, let offset): return [0x0C] + le16(handle) + le16(offset)
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles): return [opcode] + handles.flatMap(le16)
        case .readByGroupTypeResponse(let list):
            return [0x11, UInt8(4 + (list.first?.value.count ?? 0))] + list.flatMap { le16($0.start) + le16($0.end) + $0.value }
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .notification(let handle, let value), .indication(let handle, let value):
            return [opcode] + le16(handle) + value
        case .prepareWriteRequest(let handle, let offset, let value), .prepareWriteResponse(let handle, let offset, let value):
            return [opcode] + le16(handle) + le16(offset) + value
        case .executeWriteRequest(let commit): return [0x18, commit ? 0x01 : 0x00]
        case .writeResponse, .executeWriteResponse, .confirmation: return [opcode]
        case .readMultipleVariableResponse(let list): return [0x21] + list.flatMap { le16($0.length) + $0.value }
        case .multipleHandleValueNotification(let list):
            return [0x23] + list.flatMap { le16($0.handle) + le16(UInt16($0.value.count)) + $0.value }
        case .signedWriteCommand(let handle, let value, let signature): return [0xD2] + le16(handle) + value + signature
        case .unknown(let opcode, let parameters): return [opcode] + parameters
        }
    }

    /// Decodes one ATT PDU: every field of its opcode, nothing more; lists hold whole entries.
    public static func decode(_ pdu: [UInt8]) throws(DecodeError) -> ATTPDU {
        var r = ByteReader(pdu)
        let opcode = try r.u8("ATT opcode")
        let decoded: ATTPDU
        switch opcode {
        case 0x01:
            decoded = .errorResponse(request: try r.u8("request opcode"), handle: try r.u16("attribute handle"),
                                     code: ATTErrorCode(raw: try r.u8("error code")))
        case 0x02: decoded = .exchangeMTURequest(mtu: try r.u16("MTU"))
        case 0x03: decoded = .exchangeMTUResponse(mtu: try r.u16("MTU"))
        case 0x04: decoded = .findInformationRequest(start: try r.u16("start handle"), end: try r.u16("end handle"))
        case 0x05:
            let format = try r.u8("format")
            guard format == 1 || format == 2 else { throw .malformed("find information format \(format)") }
            let width = format == 1 ? 2 : 16
            decoded = .findInformationResponse(try entries(&r, size: 2 + width) { e throws(DecodeError) in
                HandleUUID(handle: try e.u16("handle"), uuid: BluetoothUUID(attWire: try e.take(width, "UUID"))!)
            })
        case 0x06:
            decoded = .findByTypeValueRequest(start: try r.u16("start handle"), end: try r.u16("end handle"),
                                              type: try r.u16("attribute type"), value: Array(r.rest()))
        case 0x07:
            decoded = .findByTypeValueResponse(try entries(&r, size: 4) { e throws(DecodeError) in
                GroupValue(start: try e.u16("found handle"), end: try e.u16("group end handle"), value: [])
            })
        case 0x08, 0x10:
            let start = try r.u16("start handle")
            let end = try r.u16("end handle")
            guard let type = BluetoothUUID(attWire: r.rest()) else { throw .malformed("attribute type of bad length") }
            decoded = opcode == 0x08 ? .readByTypeRequest(start: start, end: end, type: type)
                : .readByGroupTypeRequest(start: start, end: end, type: type)
        case 0x09:
            let length = Int(try r.u8("length"))
            guard length >= 2 else { throw .malformed("read by type entry of \(length) bytes") }
            decoded = .readByTypeResponse(try entries(&r, size: length) { e throws(DecodeError) in
                HandleValue(handle: try e.u16("handle"), value: Array(e.rest()))
            })
        case 0x0A: decoded = .readRequest(handle: try r.u16("attribute handle"))
        case 0x0B: decoded = .readResponse(value: Array(r.rest()))
        case 0x0C: decoded = .readBlobRequest(handle: try r.u16("attribute handle"), offset: try r.u16("value offset"))
        case 0x0D: decoded = .readBlobResponse(value: Array(r.rest()))
        case 0x0E: decoded = .readMultipleRequest(handles: try handles(&r))
        case 0x0F: decoded = .readMultipleResponse(values: Array(r.rest()))
        case 0x11:
            let length = Int(try r.u8("length"))
            guard length >= 4 else { throw .malformed("read by group type entry of \(length) bytes") }
            decoded = .readByGroupTypeResponse(try entries(&r, size: length) { e throws(DecodeError) in
                GroupValue(start: try e.u16("handle"), end: try e.u16("end group handle"), value: Array(e.rest()))
            })
        case 0x12, 0x52, 0x1B, 0x1D:
            let handle = try r.u16("attribute handle")
            let value = Array(r.rest())
            switch opcode {
            case 0x12: decoded = .writeRequest(handle: handle, value: value)
            case 0x52: decoded = .writeCommand(handle: handle, value: value)
            case 0x1B: decoded = .notification(handle: handle, value: value)
            default: decoded = .indication(handle: handle, value: value)
            }
        case 0x13: decoded = .writeResponse
        case 0x16, 0x17:
            let handle = try r.u16("attribute handle")
            let offset = try r.u16("value offset")
            let value = Array(r.rest())
            decoded = opcode == 0x16 ? .prepareWriteRequest(handle: handle, offset: offset, value: value)
                : .prepareWriteResponse(handle: handle, offset: offset, value: value)
        case 0x18:
            let flags = try r.u8("flags")
            guard flags <= 1 else { throw .malformed("execute write flags 0x\(String(flags, radix: 16))") }
            decoded = .executeWriteRequest(commit: flags == 1)
        case 0x19: decoded = .executeWriteResponse
        case 0x1E: decoded = .confirmation
        case 0x20: decoded = .readMultipleVariableRequest(handles: try handles(&r))
        case 0x21:
            var list: [LengthValue] = []
            while r.remaining > 0 {
                let length = try r.u16("value length")
                // Only the last value may be cut short to fit the MTU.
                let value = try r.take(min(Int(length), r.remaining), "value")
                list.append(LengthValue(length: length, value: Array(value)))
            }
            decoded = .readMultipleVariableResponse(list)
        case 0x23:
            var list: [HandleValue] = []
            while r.remaining > 0 {
                let handle = try r.u16("attribute handle")
                let length = try r.u16("value length")
                list.append(HandleValue(handle: handle, value: Array(try r.take(Int(length), "value"))))
            }
            guard list.count >= 2 else { throw .malformed("multiple handle value notification of \(list.count) values") }
            decoded = .multipleHandleValueNotification(list)
        case 0xD2:
            let handle = try r.u16("attribute handle")
            guard r.remaining >= 12 else { throw .truncated("authentication signature") }
            let value = Array(try r.take(r.remaining - 12, "value"))
            decoded = .signedWriteCommand(handle: handle, value: value, signature: Array(r.rest()))
        default:
            return .unknown(opcode: opcode, parameters: Array(r.rest()))
        }
        guard r.remaining == 0 else { throw .malformed("ATT PDU 0x\(String(opcode, radix: 16)) longer than its fields") }
        return decoded
    }

    /// A Set Of Handles: two or more (§3.4.4.7, §3.4.4.11).
    private static func handles(_ r: inout ByteReader) throws(DecodeError) -> [UInt16] {
        guard r.remaining >= 4, r.remaining % 2 == 0 else { throw .malformed("a set of handles of \(r.remaining) bytes") }
        var list: [UInt16] = []
        while r.remaining > 0 { list.append(try r.u16("handle")) }
        return list
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
