// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the responder's state machine asks of whoever drives it.
public enum SMPResponderAction: Sendable {
    case send(SMPPDU)
    case ask(PairingQuestion)
    /// The key the central's encryption will ask for (least significant octet first, as HCI takes it).
    case key([UInt8])
    case finished(identity: DeviceID, bond: Bond?)
    case failed(PairingFailure)
}

/// The peripheral's side of LE Secure Connections pairing (Core v5.4, Vol 3, Part H, §2.3.5.6,
/// §3.5–§3.6): Just Works, Numeric Comparison and Passkey Entry, then key distribution, the
/// responder's keys first. Legacy pairing is turned down (Authentication Requirements): FavBlue
/// pairs only in the way that resists listening. No threads and no clock: the driver feeds it
/// PDUs, the user's answers and the encryption, as `SMPInitiator`.
public final class SMPResponder {
    enum Phase: Equatable {
        case idle
        case publicKey
        /// Just Works and Numeric Comparison: the central's random awaited.
        case random
        /// Passkey Entry round `i`: the central's confirm, then its random.
        case roundConfirm(Int)
        case roundRandom(Int)
        case dhKeyCheck
        case encrypting
        case keys
        case over
    }

    static let ioCapability: UInt8 = 0x04          // KeyboardDisplay
    static let authReq: UInt8 = 0x0D               // bonding, MITM, Secure Connections
    static let ourKeys: UInt8 = 0x02               // our identity
    static let theirKeys: UInt8 = 0x02 | 0x04      // their identity; a signing key is taken and dropped

    let crypto: any PairingCrypto
    /// FavBlue (the responder) and the central, as they were on the link.
    let local: SMPInitiator.Party
    let remote: SMPInitiator.Party
    let identity: SMPInitiator.LocalIdentity
    let now: () -> Date

    private(set) var phase = Phase.idle
    private var request: SMPPDU.Features?
    private var response: SMPPDU.Features?
    private(set) var method = SMPInitiator.Method.justWorks
    private var keySize = 16
    private var keyPair: (any PairingKeyPair)?
    private var peerX: [UInt8] = []
    private var dhKey: [UInt8] = []
    private var na: [UInt8] = []
    private var nb: [UInt8] = []
    private var ca: [UInt8]?
    private var passkey: UInt32?
    /// Numeric Comparison: the user said the numbers match.
    private var confirmed = false
    /// The central's DHKey check, kept until the user has answered.
    private var heldCheck: [UInt8]?
    private var macKey: [UInt8] = []
    private var ltk: [UInt8] = []
    private var owed: Set<UInt8> = []
    private var peerIRK: [UInt8]?
    private var peerIdentity: DeviceID?

    public init(crypto: any PairingCrypto, local: SMPInitiator.Party, remote: SMPInitiator.Party,
                identity: SMPInitiator.LocalIdentity, now: @escaping () -> Date = Date.init) {
        self.crypto = crypto
        self.local = local
        self.remote = remote
        self.identity = identity
        self.now = now
    }

    public var isRunning: Bool { phase != .idle && phase != .over }

    /// A PDU from the central.
    public func receive(_ bytes: [UInt8]) -> [SMPResponderAction] {
        guard phase != .over else { return [] }
        return SMPPDU.handle(bytes, receive, fail: fail)
    }

    /// The user's answer to the question last asked.
    public func answer(_ answer: PairingAnswer) -> [SMPResponderAction] {
        do {
            switch answer {
            case .confirmed where method == .numericComparison && !confirmed && isRunning:
                confirmed = true
                if let held = heldCheck { return try checkDHKey(held) }
                return []
            case .passkey(let value) where method == .passkeyInput && passkey == nil && value <= 999_999 && isRunning:
                passkey = value
                if case .roundConfirm(0) = phase, ca != nil { return try sendRoundConfirm(0) }
                return []
            case .declined, .confirmed, .passkey, .pin:
                guard isRunning else { return [] }
                return fail(method == .numericComparison ? .numericComparisonFailed : .passkeyEntryFailed, .declined)
            }
        } catch {
            return fail(.unspecified, .other(L10n.tr("a key calculation failed.")))
        }
    }

    /// The link's encryption: 0 when it came up with the key.
    public func encrypted(status: UInt8) -> [SMPResponderAction] {
        guard phase == .encrypting else { return [] }
        guard status == 0 else {
            phase = .over
            return [.failed(.other(L10n.format("the link could not be encrypted (error 0x{}).", String(status, radix: 16, uppercase: true))))]
        }
        phase = .keys
        var actions: [SMPResponderAction] = []
        // The responder distributes first (§3.6.1).
        if (response?.responderKeys ?? 0) & 0x02 != 0 {
            actions.append(.send(.identityInformation(irk: Array(identity.irk.reversed()))))
            actions.append(.send(.identityAddressInformation(type: identity.address.type, address: identity.address.octets.reversed())))
        }
        return actions + finishIfOwedNothing()
    }

    /// No PDU for 30 s (§3.4).
    public func timedOut() -> [SMPResponderAction] {
        guard isRunning else { return [] }
        phase = .over
        return [.failed(.timedOut)]
    }

    public func cancel() -> [SMPResponderAction] {
        guard isRunning else { return [] }
        return fail(method == .numericComparison ? .numericComparisonFailed : .passkeyEntryFailed, .declined)
    }

    // MARK: The protocol

    private func receive(_ pdu: SMPPDU) throws -> [SMPResponderAction] {
        switch (phase, pdu) {
        case (_, .pairingFailed(let reason)):
            let wasRunning = isRunning
            phase = .over
            return wasRunning ? [.failed(reason == .confirmValueFailed ? .authenticationFailed : .other(reason.message))] : []
        case (.idle, .pairingRequest(let features)), (.over, .pairingRequest(let features)):
            return try agree(features)
        case (.publicKey, .pairingPublicKey(let x, let y)):
            return try keysExchanged(x: Array(x.reversed()), y: Array(y.reversed()))
        case (.random, .pairingRandom(let value)):
            na = Array(value.reversed())
            var actions: [SMPResponderAction] = [.send(.pairingRandom(Array(nb.reversed())))]
            phase = .dhKeyCheck
            if method == .numericComparison {
                let number = try crypto.g2(u: peerX, v: keyPair!.x, x: na, y: nb) % 1_000_000
                actions.append(.ask(.confirm(passkey: number)))
            }
            return actions
        case (.roundConfirm(let i), .pairingConfirm(let value)):
            ca = Array(value.reversed())
            // Typing the central's code: the confirm waits for it.
            return passkey == nil ? [] : try sendRoundConfirm(i)
        case (.roundRandom(let i), .pairingRandom(let value)):
            let nai = Array(value.reversed())
            let expected = try crypto.f4(u: peerX, v: keyPair!.x, x: nai, z: bit(i))
            guard expected == ca else { return fail(.confirmValueFailed, .authenticationFailed) }
            na = nai
            let actions: [SMPResponderAction] = [.send(.pairingRandom(Array(nb.reversed())))]
            if i == 19 {
                phase = .dhKeyCheck
                return actions
            }
            ca = nil
            phase = .roundConfirm(i + 1)
            return actions
        case (.dhKeyCheck, .pairingDHKeyCheck(let value)):
            let ea = Array(value.reversed())
            if method == .numericComparison && !confirmed {
                heldCheck = ea
                return []
            }
            return try checkDHKey(ea)
        case (.keys, _):
            return distributed(pdu)
        case (_, .securityRequest), (_, .keypressNotification):
            return []
        default:
            return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order.")))
        }
    }

    /// The Pairing Request: FavBlue answers with its own features, or says why not.
    private func agree(_ features: SMPPDU.Features) throws -> [SMPResponderAction] {
        phase = .idle
        guard features.ioCapability <= 4, features.oobData <= 1 else { return fail(.invalidParameters, .other(SMPFailureReason.invalidParameters.message)) }
        guard (7...16).contains(features.maxKeySize) else { return fail(.encryptionKeySize, .other(SMPFailureReason.encryptionKeySize.message)) }
        guard features.authReq & 0x08 != 0 else {
            return fail(.authenticationRequirements, .other(L10n.tr("the device can only pair in the old way, which FavBlue does not accept as a peripheral.")))
        }
        request = features
        keySize = Int(features.maxKeySize)
        let ours = SMPPDU.Features(ioCapability: Self.ioCapability, oobData: 0, authReq: Self.authReq, maxKeySize: 16,
                                   initiatorKeys: features.initiatorKeys & Self.theirKeys, responderKeys: features.responderKeys & Self.ourKeys)
        response = ours
        method = Self.method(initiator: features.ioCapability, mitm: features.authReq & 0x04 != 0 || ours.authReq & 0x04 != 0)
        owed = []
        if ours.initiatorKeys & 0x02 != 0 { owed.formUnion([0x08, 0x09]) }
        if ours.initiatorKeys & 0x04 != 0 { owed.insert(0x0A) }
        phase = .publicKey
        return [.send(.pairingResponse(ours))]
    }

    /// The responder (KeyboardDisplay) against the central's IO capability (Table 2.8).
    static func method(initiator: UInt8, mitm: Bool) -> SMPInitiator.Method {
        guard mitm else { return .justWorks }
        switch initiator {
        case 0x00: return .passkeyInput           // the central shows a code FavBlue's user types
        case 0x01, 0x04: return .numericComparison
        case 0x02: return .passkeyDisplay         // the central's user types the code FavBlue shows
        default: return .justWorks
        }
    }

    private func keysExchanged(x: [UInt8], y: [UInt8]) throws -> [SMPResponderAction] {
        let pair = crypto.makeKeyPair()
        keyPair = pair
        // A central that sends FavBlue's own key back is reflecting it (§2.3.5.6.1).
        guard x != pair.x else { return fail(.invalidParameters, .authenticationFailed) }
        do {
            dhKey = try pair.dhKey(peerX: x, peerY: y)
        } catch {
            return fail(.dhKeyCheckFailed, .authenticationFailed)
        }
        peerX = x
        var actions: [SMPResponderAction] = [.send(.pairingPublicKey(x: Array(pair.x.reversed()), y: Array(pair.y.reversed())))]
        switch method {
        case .justWorks, .numericComparison:
            nb = crypto.random(16)
            let cb = try crypto.f4(u: pair.x, v: peerX, x: nb, z: 0)
            actions.append(.send(.pairingConfirm(Array(cb.reversed()))))
            phase = .random
        case .passkeyDisplay:
            let value = crypto.random(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
            passkey = value
            actions.append(.ask(.displayPasskey(passkey: value, typed: nil)))
            phase = .roundConfirm(0)
        case .passkeyInput:
            actions.append(.ask(.enterPasskey))
            phase = .roundConfirm(0)
        }
        return actions
    }

    private func bit(_ round: Int) -> UInt8 { 0x80 | UInt8(truncatingIfNeeded: ((passkey ?? 0) >> UInt32(round)) & 1) }

    private var passkeyBlock: [UInt8] {
        let value = passkey ?? 0
        return [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }

    /// Round `i` of Passkey Entry: FavBlue's confirm for the central's.
    private func sendRoundConfirm(_ i: Int) throws -> [SMPResponderAction] {
        nb = crypto.random(16)
        let cbi = try crypto.f4(u: keyPair!.x, v: peerX, x: nb, z: bit(i))
        phase = .roundRandom(i)
        return [.send(.pairingConfirm(Array(cbi.reversed())))]
    }

    /// Checks the central's DHKey check (Ea) and answers with FavBlue's (Eb); the key is then known.
    private func checkDHKey(_ ea: [UInt8]) throws -> [SMPResponderAction] {
        let keys = try crypto.f5(w: dhKey, n1: na, n2: nb, a1: remote.typed, a2: local.typed)
        macKey = keys.macKey
        ltk = keys.ltk
        let r = method.usesPasskey ? passkeyBlock : [UInt8](repeating: 0, count: 16)
        guard let request, let response else { return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order."))) }
        let expected = try crypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: [request.authReq, request.oobData, request.ioCapability],
                                     a1: remote.typed, a2: local.typed)
        guard expected == ea else { return fail(.dhKeyCheckFailed, .authenticationFailed) }
        let eb = try crypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: [response.authReq, response.oobData, response.ioCapability],
                               a1: local.typed, a2: remote.typed)
        phase = .encrypting
        return [.key(Array(masked(ltk).reversed())), .send(.pairingDHKeyCheck(Array(eb.reversed())))]
    }

    private func masked(_ key: [UInt8]) -> [UInt8] {
        key.enumerated().map { $0.offset < 16 - keySize ? 0 : $0.element }
    }

    private func distributed(_ pdu: SMPPDU) -> [SMPResponderAction] {
        let code = pdu.bytes[0]
        guard owed.contains(code) else { return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order."))) }
        owed.remove(code)
        switch pdu {
        case .identityInformation(let irk): peerIRK = Array(irk.reversed())
        case .identityAddressInformation(let type, let address):
            if type == 0 || address.last.map({ $0 & 0xC0 == 0xC0 }) == true {
                peerIdentity = DeviceID(wireBytes: address, kind: type == 0 ? .lePublic : .leRandom)
            }
        default: break
        }
        return finishIfOwedNothing()
    }

    private func finishIfOwedNothing() -> [SMPResponderAction] {
        guard phase == .keys, owed.isEmpty else { return [] }
        phase = .over
        let device = peerIdentity ?? DeviceID(octets: remote.octets, kind: remote.type == 0 ? .lePublic : .leRandom)
        let bonding = (request?.authReq ?? 0) & 0x03 == 0x01
        let bond = bonding ? Bond(identity: device, irk: peerIRK.flatMap { IdentityResolvingKey(bytes: $0) }, ltk: masked(ltk),
                                  ediv: nil, rand: nil, keySize: keySize, authenticated: method != .justWorks,
                                  secureConnections: true, createdAt: now()) : nil
        return [.finished(identity: device, bond: bond)]
    }

    private func fail(_ reason: SMPFailureReason, _ failure: PairingFailure) -> [SMPResponderAction] {
        phase = .over
        return [.send(.pairingFailed(reason)), .failed(failure)]
    }
}
