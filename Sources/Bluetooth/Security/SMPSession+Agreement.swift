// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// The Pairing Request and Response (Core v5.4, Vol 3, Part H, §3.5.1–§3.5.2): the key size,
/// Secure Connections or legacy, the association model, and which keys travel.
extension SMPSession {
    /// The initiator reads the Pairing Response.
    func agree(response features: SMPPDU.Features) throws -> [SMPAction] {
        guard let request else { return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order."))) }
        guard (7...16).contains(features.maxKeySize) else { return fail(.encryptionKeySize, .other(SMPFailureReason.encryptionKeySize.message)) }
        guard features.ioCapability <= 4 else { return fail(.invalidParameters, .other(SMPFailureReason.invalidParameters.message)) }
        response = features
        keySize = Int(features.maxKeySize)
        secure = features.authReq & 0x08 != 0 && request.authReq & 0x08 != 0
        // Neither side asking for MITM protection means Just Works (§2.3.5.1).
        method = Self.method(peer: features.ioCapability, secure: secure,
                             mitm: features.authReq & 0x04 != 0 || request.authReq & 0x04 != 0)
        // Only keys both offered travel; Secure Connections derives the LTK instead of sending it.
        owed = []
        let responderKeys = features.responderKeys & request.responderKeys
        if responderKeys & 0x01 != 0, !secure { owed.formUnion([0x06, 0x07]) }
        if responderKeys & 0x02 != 0 { owed.formUnion([0x08, 0x09]) }
        if responderKeys & 0x04 != 0 { owed.insert(0x0A) }
        if secure {
            let pair = crypto.makeKeyPair()
            keyPair = pair
            phase = .publicKey
            return [.send(.pairingPublicKey(x: Array(pair.x.reversed()), y: Array(pair.y.reversed())))]
        }
        switch method {
        case .passkeyInput:
            phase = .passkey
            return [.ask(.enterPasskey)]
        case .passkeyDisplay:
            return showPasskey() + (try sendLegacyConfirm())
        default:
            return try sendLegacyConfirm()
        }
    }

    /// The responder answers a Pairing Request with its own features, or says why not. A side
    /// without Secure Connections pairs the legacy way, as BlueZ allows, so older phones can pair.
    func agree(request features: SMPPDU.Features) -> [SMPAction] {
        guard features.ioCapability <= 4, features.oobData <= 1 else {
            return fail(.invalidParameters, .other(SMPFailureReason.invalidParameters.message))
        }
        guard (7...16).contains(features.maxKeySize) else { return fail(.encryptionKeySize, .other(SMPFailureReason.encryptionKeySize.message)) }
        request = features
        keySize = Int(features.maxKeySize)
        secure = features.authReq & 0x08 != 0
        // FavBlue takes the initiator's identity (and a signing key, dropped), and gives its
        // identity; legacy pairing has no derived key, so FavBlue gives an LTK too.
        let ours = SMPPDU.Features(ioCapability: Self.ioCapability, oobData: 0, authReq: Self.authReq, maxKeySize: 16,
                                   initiatorKeys: features.initiatorKeys & 0x06,
                                   responderKeys: features.responderKeys & (secure ? 0x02 : 0x03))
        response = ours
        method = Self.method(initiator: features.ioCapability, secure: secure,
                             mitm: features.authReq & 0x04 != 0 || ours.authReq & 0x04 != 0)
        owed = []
        if ours.initiatorKeys & 0x02 != 0 { owed.formUnion([0x08, 0x09]) }
        if ours.initiatorKeys & 0x04 != 0 { owed.insert(0x0A) }
        var actions: [SMPAction] = [.send(.pairingResponse(ours))]
        guard !secure else {
            phase = .publicKey
            return actions
        }
        // Legacy: the code is shown or asked for now, before the initiator's confirm comes.
        switch method {
        case .passkeyDisplay: actions += showPasskey()
        case .passkeyInput: actions.append(.ask(.enterPasskey))
        default: break
        }
        phase = .legacyConfirm
        return actions
    }

    /// FavBlue as the initiator (KeyboardDisplay) against the responder's IO capability (Table 2.8).
    static func method(peer: UInt8, secure: Bool, mitm: Bool) -> Method {
        guard mitm else { return .justWorks }
        switch peer {
        case 0x00: return .passkeyInput                                  // DisplayOnly
        case 0x01: return secure ? .numericComparison : .passkeyInput    // DisplayYesNo
        case 0x02: return .passkeyDisplay                                // KeyboardOnly
        case 0x04: return secure ? .numericComparison : .passkeyDisplay  // KeyboardDisplay
        default: return .justWorks                                       // NoInputNoOutput
        }
    }

    /// FavBlue as the responder (KeyboardDisplay) against the initiator's IO capability (Table 2.8):
    /// in legacy pairing a displaying initiator shows the code and FavBlue's user types it.
    static func method(initiator: UInt8, secure: Bool, mitm: Bool) -> Method {
        guard mitm else { return .justWorks }
        switch initiator {
        case 0x00: return .passkeyInput
        case 0x01, 0x04: return secure ? .numericComparison : .passkeyInput
        case 0x02: return .passkeyDisplay
        default: return .justWorks
        }
    }
}
