// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// An L2CAP basic frame (B-frame) on a fixed LE channel (Core v5.4, Vol 3, Part A, §3.1).
public struct L2CAPFrame: Equatable, Sendable {
    /// The fixed LE channels FavBlue speaks (§2.1).
    public static let attChannel: UInt16 = 0x0004
    public static let signallingChannel: UInt16 = 0x0005
    public static let smpChannel: UInt16 = 0x0006

    /// The channel identifier.
    public let channel: UInt16
    /// The information payload.
    public let payload: [UInt8]

    /// Creates a frame.
    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// Length, channel, payload.
    public var bytes: [UInt8] {
        [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)] + payload
    }

    /// Decodes a whole frame; its length field must match the payload.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> L2CAPFrame {
        var r = ByteReader(bytes)
        let length = Int(try r.u16("L2CAP length"))
        let channel = try r.u16("L2CAP channel")
        let payload = try r.take(length, "L2CAP payload")
        guard r.remaining == 0 else { throw .malformed("L2CAP frame longer than its length field") }
        return L2CAPFrame(channel: channel, payload: Array(payload))
    }
}

/// A command on the LE signalling channel (§4). LE carries one command per frame.
public enum SignallingCommand: Equatable, Sendable {
    /// Command Reject (§4.1); reason 0 is "command not understood".
    case commandReject(identifier: UInt8, reason: UInt16)
    /// Connection Parameter Update Request (§4.20), from a peripheral.
    case connectionParameterUpdateRequest(identifier: UInt8, ConnectionParameterRequest)
    /// Connection Parameter Update Response (§4.21): result 0 accepted, 1 rejected.
    case connectionParameterUpdateResponse(identifier: UInt8, result: UInt16)
    /// Any other command, kept raw so it can be rejected.
    case other(code: UInt8, identifier: UInt8, data: [UInt8])

    /// Decodes one command from a signalling frame's payload.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> SignallingCommand {
        var r = ByteReader(payload)
        let code = try r.u8("signalling code")
        let identifier = try r.u8("signalling identifier")
        let length = Int(try r.u16("signalling length"))
        let data = try r.take(length, "signalling data")
        guard r.remaining == 0 else { throw .malformed("signalling frame longer than its command") }
        var d = ByteReader(data)
        switch code {
        case 0x01:
            return .commandReject(identifier: identifier, reason: try d.u16("reject reason"))
        case 0x12:
            guard length == 8 else { throw .malformed("connection parameter update request of \(length) bytes") }
            return .connectionParameterUpdateRequest(identifier: identifier, ConnectionParameterRequest(
                intervalMin: try d.u16("interval min"), intervalMax: try d.u16("interval max"),
                latency: try d.u16("latency"), timeout: try d.u16("timeout")))
        case 0x13:
            return .connectionParameterUpdateResponse(identifier: identifier, result: try d.u16("result"))
        default:
            return .other(code: code, identifier: identifier, data: Array(data))
        }
    }

    /// The command as a signalling payload.
    public var bytes: [UInt8] {
        func command(_ code: UInt8, _ identifier: UInt8, _ data: [UInt8]) -> [UInt8] {
            [code, identifier, UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
        }
        switch self {
        case .commandReject(let id, let reason): return command(0x01, id, HCICommand.le16(reason))
        case .connectionParameterUpdateRequest(let id, let p):
            return command(0x12, id, HCICommand.le16(p.intervalMin) + HCICommand.le16(p.intervalMax)
                               + HCICommand.le16(p.latency) + HCICommand.le16(p.timeout))
        case .connectionParameterUpdateResponse(let id, let result): return command(0x13, id, HCICommand.le16(result))
        case .other(let code, let id, let data): return command(code, id, data)
        }
    }

    /// Request codes (§4), which need an answer; responses and indications do not.
    static let requestCodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x14, 0x17, 0x19]

    /// What the central answers: accept valid parameters, reject invalid ones, and reject
    /// commands it does not know as "not understood". Nil for responses, which need no answer.
    public var answer: SignallingCommand? {
        switch self {
        case .connectionParameterUpdateRequest(let id, let request):
            return .connectionParameterUpdateResponse(identifier: id, result: request.isValid ? 0 : 1)
        case .other(let code, let id, _) where Self.requestCodes.contains(code) || code == 0 || code > 0x1A:
            return .commandReject(identifier: id, reason: 0)
        default:
            return nil
        }
    }
}

/// The answer on channel 0x0006 (Core v5.4, Vol 3, Part H, §3.5) of a connector that cannot pair
/// (one made without the HCI route's Security Manager, `SMPSession`): it turns pairing down.
public enum SecurityManager {
    /// Pairing Failed with reason 0x05, Pairing Not Supported (§3.5.5).
    public static let pairingNotSupported: [UInt8] = [0x05, 0x05]

    /// The answer to an SMP PDU: Pairing Failed for a Pairing Request (0x01) or a peripheral's
    /// Security Request (0x0B), nothing for anything else (including malformed PDUs).
    public static func answer(to pdu: [UInt8]) -> [UInt8]? {
        switch try? SMPPDU.decode(pdu) {
        case .pairingRequest?, .securityRequest?: return SMPPDU.pairingFailed(.pairingNotSupported).bytes
        default: return nil
        }
    }
}
