// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Why a peer's Security Manager PDU cannot be read.
public enum SMPDecodeError: Error, Equatable, Sendable {
    case empty
    /// A known code with the wrong length: (code, length received, length it must have).
    case wrongLength(code: UInt8, got: Int, expected: Int)
    /// A code the Core spec does not define.
    case unknownCode(UInt8)
}

/// The Pairing Failed reasons (Core v5.4, Vol 3, Part H, §3.5.5), in the user's words.
public enum SMPFailureReason: Equatable, Sendable {
    case passkeyEntryFailed
    case oobNotAvailable
    case authenticationRequirements
    case confirmValueFailed
    case pairingNotSupported
    case encryptionKeySize
    case commandNotSupported
    case unspecified
    case repeatedAttempts
    case invalidParameters
    case dhKeyCheckFailed
    case numericComparisonFailed
    case bredrPairingInProgress
    case crossTransportKeyNotAllowed
    case keyRejected
    case other(UInt8)

    private static let table: [(UInt8, SMPFailureReason)] = [
        (0x01, .passkeyEntryFailed), (0x02, .oobNotAvailable), (0x03, .authenticationRequirements),
        (0x04, .confirmValueFailed), (0x05, .pairingNotSupported), (0x06, .encryptionKeySize),
        (0x07, .commandNotSupported), (0x08, .unspecified), (0x09, .repeatedAttempts), (0x0A, .invalidParameters),
        (0x0B, .dhKeyCheckFailed), (0x0C, .numericComparisonFailed), (0x0D, .bredrPairingInProgress),
        (0x0E, .crossTransportKeyNotAllowed), (0x0F, .keyRejected),
    ]

    public init(code: UInt8) {
        self = Self.table.first { $0.0 == code }?.1 ?? .other(code)
    }

    public var code: UInt8 {
        if case .other(let raw) = self { return raw }
        return Self.table.first { $0.1 == self }!.0
    }

    /// One sentence, after "Pairing failed: ".
    public var message: String {
        switch self {
        case .passkeyEntryFailed: return L10n.tr("the passkey was not entered, or it was cancelled.")
        case .oobNotAvailable: return L10n.tr("the device expected data exchanged another way (out of band), which FavBlue does not have.")
        case .authenticationRequirements: return L10n.tr("the device asks for a safer kind of pairing than the two sides can do.")
        case .confirmValueFailed: return PairingFailure.authenticationFailed.message
        case .pairingNotSupported: return L10n.tr("the device does not support pairing.")
        case .encryptionKeySize: return L10n.tr("the encryption key would be too short to be safe.")
        case .commandNotSupported: return L10n.tr("the device did not understand a pairing step.")
        case .unspecified: return L10n.tr("the device gave no reason.")
        case .repeatedAttempts: return L10n.tr("there were too many attempts. Wait a while, then try again.")
        case .invalidParameters: return L10n.tr("the device rejected the pairing settings as invalid.")
        case .dhKeyCheckFailed: return L10n.tr("the key check failed. Someone may be interfering; try again somewhere else.")
        case .numericComparisonFailed: return L10n.tr("the numbers shown did not match.")
        case .bredrPairingInProgress: return L10n.tr("the device is already pairing over classic Bluetooth.")
        case .crossTransportKeyNotAllowed: return L10n.tr("the device does not allow its key to be shared between classic and LE.")
        case .keyRejected: return L10n.tr("the device rejected the key it was given.")
        case .other(let code): return L10n.format("the device gave reason 0x{}.", String(code, radix: 16, uppercase: true))
        }
    }
}

/// A Security Manager PDU on L2CAP channel 0x0006 (Core v5.4, Vol 3, Part H, §3.5 and §3.6).
/// Keys, confirm and random values are kept in the order they travel (least significant octet first).
public enum SMPPDU: Equatable, Sendable {
    /// Pairing Request and Response: IO capability, OOB flag, AuthReq, maximum key size, and the
    /// keys each side will distribute.
    public struct Features: Equatable, Sendable {
        public var ioCapability: UInt8
        public var oobData: UInt8
        public var authReq: UInt8
        public var maxKeySize: UInt8
        public var initiatorKeys: UInt8
        public var responderKeys: UInt8

        public init(ioCapability: UInt8, oobData: UInt8, authReq: UInt8, maxKeySize: UInt8, initiatorKeys: UInt8, responderKeys: UInt8) {
            self.ioCapability = ioCapability
            self.oobData = oobData
            self.authReq = authReq
            self.maxKeySize = maxKeySize
            self.initiatorKeys = initiatorKeys
            self.responderKeys = responderKeys
        }

        var bytes: [UInt8] { [ioCapability, oobData, authReq, maxKeySize, initiatorKeys, responderKeys] }
    }

    case pairingRequest(Features)
    case pairingResponse(Features)
    case pairingConfirm([UInt8])
    case pairingRandom([UInt8])
    case pairingFailed(SMPFailureReason)
    case encryptionInformation(ltk: [UInt8])
    case centralIdentification(ediv: UInt16, rand: UInt64)
    case identityInformation(irk: [UInt8])
    /// The peer's identity address: 0 public, 1 static random; the address as it travels.
    case identityAddressInformation(type: UInt8, address: [UInt8])
    case signingInformation(csrk: [UInt8])
    case securityRequest(authReq: UInt8)
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    case pairingDHKeyCheck([UInt8])
    case keypressNotification(UInt8)

    /// The length each code must have, code included.
    private static func length(of code: UInt8) -> Int? {
        switch code {
        case 0x01, 0x02: return 7
        case 0x03, 0x04, 0x06, 0x08, 0x0A, 0x0D: return 17
        case 0x05, 0x0B, 0x0E: return 2
        case 0x07: return 11
        case 0x09: return 8
        case 0x0C: return 65
        default: return nil
        }
    }

    /// Reads one PDU; a length that is not the code's own is refused, never guessed around.
    public static func decode(_ bytes: [UInt8]) throws(SMPDecodeError) -> SMPPDU {
        guard let code = bytes.first else { throw .empty }
        guard let expected = length(of: code) else { throw .unknownCode(code) }
        guard bytes.count == expected else { throw .wrongLength(code: code, got: bytes.count, expected: expected) }
        let body = Array(bytes.dropFirst())
        func features() -> Features {
            Features(ioCapability: body[0], oobData: body[1], authReq: body[2], maxKeySize: body[3], initiatorKeys: body[4],
                     responderKeys: body[5])
        }
        switch code {
        case 0x01: return .pairingRequest(features())
        case 0x02: return .pairingResponse(features())
        case 0x03: return .pairingConfirm(body)
        case 0x04: return .pairingRandom(body)
        case 0x05: return .pairingFailed(SMPFailureReason(code: body[0]))
        case 0x06: return .encryptionInformation(ltk: body)
        case 0x07:
            let ediv = UInt16(body[0]) | UInt16(body[1]) << 8
            let rand = body[2...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .centralIdentification(ediv: ediv, rand: rand)
        case 0x08: return .identityInformation(irk: body)
        case 0x09: return .identityAddressInformation(type: body[0], address: Array(body[1...]))
        case 0x0A: return .signingInformation(csrk: body)
        case 0x0B: return .securityRequest(authReq: body[0])
        case 0x0C: return .pairingPublicKey(x: Array(body[0..<32]), y: Array(body[32..<64]))
        case 0x0D: return .pairingDHKeyCheck(body)
        default: return .keypressNotification(body[0])
        }
    }

    /// The PDU as it is sent.
    public var bytes: [UInt8] {
        switch self {
        case .pairingRequest(let f): return [0x01] + f.bytes
        case .pairingResponse(let f): return [0x02] + f.bytes
        case .pairingConfirm(let value): return [0x03] + value
        case .pairingRandom(let value): return [0x04] + value
        case .pairingFailed(let reason): return [0x05, reason.code]
        case .encryptionInformation(let ltk): return [0x06] + ltk
        case .centralIdentification(let ediv, let rand):
            return [0x07, UInt8(ediv & 0xFF), UInt8(ediv >> 8)] + (0..<8).map { UInt8(truncatingIfNeeded: rand >> (8 * UInt64($0))) }
        case .identityInformation(let irk): return [0x08] + irk
        case .identityAddressInformation(let type, let address): return [0x09, type] + address
        case .signingInformation(let csrk): return [0x0A] + csrk
        case .securityRequest(let authReq): return [0x0B, authReq]
        case .pairingPublicKey(let x, let y): return [0x0C] + x + y
        case .pairingDHKeyCheck(let value): return [0x0D] + value
        case .keypressNotification(let type): return [0x0E, type]
        }
    }
}

extension SMPPDU {
    /// What both roles do with a PDU's bytes: decode them and `handle` the PDU, or fail pairing
    /// with the reason the Core names (an unknown code, bad parameters, a calculation that failed).
    static func handle<Action>(_ bytes: [UInt8], _ handle: (SMPPDU) throws -> [Action],
                               fail: (SMPFailureReason, PairingFailure) -> [Action]) -> [Action] {
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU.decode(bytes)
        } catch .unknownCode {
            return fail(.commandNotSupported, .other(SMPFailureReason.commandNotSupported.message))
        } catch {
            return fail(.invalidParameters, .other(SMPFailureReason.invalidParameters.message))
        }
        do {
            return try handle(pdu)
        } catch {
            return fail(.unspecified, .other(L10n.tr("a key calculation failed.")))
        }
    }
}
