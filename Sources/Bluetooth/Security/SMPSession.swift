// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What a pairing asks of whoever drives it.
public enum SMPAction: Sendable {
    /// Send this PDU on the SMP channel.
    case send(SMPPDU)
    /// Put this question to the user (a display updates the one shown).
    case ask(PairingQuestion)
    /// The initiator: start encryption with this key (least significant octet first, as HCI takes it).
    case encrypt(ltk: [UInt8], ediv: UInt16, rand: UInt64)
    /// The responder: the key the central's encryption will ask for (least significant octet first).
    case key([UInt8])
    /// Pairing is over; `bond` is what to keep (nil when the device did not bond).
    case finished(identity: DeviceID, bond: Bond?)
    /// Pairing failed; any Pairing Failed to send comes as a `send` before it.
    case failed(PairingFailure)
}

/// One LE pairing on one link, in either role (Core v5.4, Vol 3, Part H, §2.3–§2.4, §3.5–§3.6):
/// Secure Connections with Just Works, Numeric Comparison and Passkey Entry, and legacy pairing
/// with Just Works and Passkey Entry, then key distribution, the responder's keys first. The
/// two roles share every step but who speaks first. No threads and no clock of its own: the
/// driver feeds it PDUs, the user's answers, the encryption and the timeout, and carries out
/// the actions it returns. Every PDU out of order or malformed ends pairing with Pairing Failed.
public final class SMPSession {
    /// Which side of the pairing FavBlue is: the central starts it, the peripheral answers.
    public enum Role: Sendable { case initiator, responder }

    /// An address as the pairing functions see it: 0 public or 1 random, and the six octets (most significant first).
    public struct Party: Equatable, Sendable {
        public let type: UInt8
        public let octets: [UInt8]

        public init(type: UInt8, octets: [UInt8]) {
            self.type = type
            self.octets = octets
        }

        public init(_ device: DeviceID) { self.init(type: device.kind == .lePublic ? 0 : 1, octets: device.octets) }

        var typed: [UInt8] { [type] + octets }
        var device: DeviceID { DeviceID(octets: octets, kind: type == 0 ? .lePublic : .leRandom) }
    }

    /// The keys FavBlue gives the other side so it can recognise FavBlue again.
    public struct LocalIdentity: Sendable {
        /// Most significant octet first.
        public let irk: [UInt8]
        public let address: Party

        public init(irk: [UInt8], address: Party) {
            self.irk = irk
            self.address = address
        }
    }

    /// How the two sides check each other (Table 2.8), from FavBlue's side.
    enum Method: Equatable {
        case justWorks
        case numericComparison
        /// The user types the other side's code here.
        case passkeyInput
        /// FavBlue shows a code the user types on the other side.
        case passkeyDisplay

        var usesPasskey: Bool { self == .passkeyInput || self == .passkeyDisplay }
    }

    enum Phase: Equatable {
        case idle
        /// The initiator awaits the Pairing Response.
        case features
        /// Secure Connections: the other side's public key awaited.
        case publicKey
        /// The initiator awaits the user's passkey before its first confirm.
        case passkey
        /// Just Works / Numeric Comparison: the initiator awaits the responder's confirm.
        case confirm
        /// Just Works / Numeric Comparison: the other side's random awaited.
        case random
        /// Numeric Comparison: the initiator awaits the user.
        case compare
        /// Passkey Entry round `i`: the other side's confirm, then its random.
        case roundConfirm(Int)
        case roundRandom(Int)
        case dhKeyCheck
        /// Legacy: the other side's confirm, then its random.
        case legacyConfirm
        case legacyRandom
        case encrypting
        case keys
        case over
    }

    // FavBlue's features, either role: KeyboardDisplay, no OOB, bonding + MITM + Secure
    // Connections, 16-byte keys. FavBlue gives its identity (and, legacy responder, its LTK)
    // and takes the other side's LTK and identity; a signing key is taken and dropped.
    static let ioCapability: UInt8 = 0x04
    static let authReq: UInt8 = 0x0D

    let role: Role
    let crypto: any PairingCrypto
    /// FavBlue and the other side, as they were on the link.
    let local: Party
    let remote: Party
    let identity: LocalIdentity
    let now: () -> Date

    var phase = Phase.idle
    /// The Pairing Request and Response, whoever sent them.
    var request: SMPPDU.Features?
    var response: SMPPDU.Features?
    var method = Method.justWorks
    var secure = false
    var keySize = 16
    /// The passkey, once known; how many digits the other side's user typed of the one shown.
    var passkey: UInt32?
    var typed = 0
    // Secure Connections.
    var keyPair: (any PairingKeyPair)?
    var peerX: [UInt8] = []
    var dhKey: [UInt8] = []
    /// This side's nonce and the other side's, and the other side's confirm (most significant octet first).
    var mine: [UInt8] = []
    var theirs: [UInt8] = []
    var theirConfirm: [UInt8]?
    /// Numeric Comparison as responder: the user's yes, and the initiator's check held until it comes.
    var confirmed = false
    var heldCheck: [UInt8]?
    var ltk: [UInt8] = []
    var macKey: [UInt8] = []
    // Legacy.
    var tk = [UInt8](repeating: 0, count: 16)
    // Key distribution: what the other side still owes, what it gave, and what FavBlue gave.
    var owed: Set<UInt8> = []
    var peerLTK: [UInt8]?
    var peerEDIV: UInt16?
    var peerRand: UInt64?
    var peerIRK: [UInt8]?
    var peerIdentity: DeviceID?
    var givenLTK: (ltk: [UInt8], ediv: UInt16, rand: UInt64)?

    /// A pairing between `local` (FavBlue, in `role`) and `remote`, as they were on the link.
    public init(role: Role, crypto: any PairingCrypto, local: Party, remote: Party, identity: LocalIdentity,
                now: @escaping () -> Date = Date.init) {
        self.role = role
        self.crypto = crypto
        self.local = local
        self.remote = remote
        self.identity = identity
        self.now = now
    }

    /// Whether pairing is under way.
    public var isRunning: Bool { phase != .idle && phase != .over }

    /// The initiator sends the Pairing Request.
    public func start() -> [SMPAction] {
        guard role == .initiator, phase == .idle else { return [] }
        let features = SMPPDU.Features(ioCapability: Self.ioCapability, oobData: 0, authReq: Self.authReq, maxKeySize: 16,
                                       initiatorKeys: 0x02, responderKeys: 0x03)
        request = features
        phase = .features
        return [.send(.pairingRequest(features))]
    }

    /// A PDU from the other side. The responder takes a Pairing Request at any time it is not pairing.
    public func receive(_ bytes: [UInt8]) -> [SMPAction] {
        guard isRunning || role == .responder && phase == .idle else { return [] }
        return SMPPDU.handle(bytes, step, fail: fail)
    }

    /// The user's answer to the question last asked. No, or a code that is no code, ends pairing;
    /// an answer nobody asked for is dropped.
    public func answer(_ answer: PairingAnswer) -> [SMPAction] {
        guard isRunning else { return [] }
        let refusal: SMPFailureReason = method == .numericComparison ? .numericComparisonFailed : .passkeyEntryFailed
        do {
            switch answer {
            case .passkey(let value) where method == .passkeyInput && passkey == nil:
                guard value <= 999_999 else { return fail(refusal, .declined) }
                passkey = value
                tk = passkeyBlock
                return try passkeyKnown()
            case .confirmed where method == .numericComparison && !confirmed:
                confirmed = true
                if role == .initiator, phase == .compare { return try sendDHKeyCheck() }
                if let held = heldCheck { return try checkDHKey(held) }
                return []
            case .declined:
                return fail(refusal, .declined)
            default:
                return []
            }
        } catch {
            return fail(.unspecified, .other(L10n.tr("a key calculation failed.")))
        }
    }

    /// The link's encryption: the HCI status, 0 when it came up with the key.
    public func encrypted(status: UInt8) -> [SMPAction] {
        guard phase == .encrypting else { return [] }
        guard status == 0 else {
            phase = .over
            return [.failed(.other(L10n.format("the link could not be encrypted (error 0x{}).",
                                               String(status, radix: 16, uppercase: true))))]
        }
        phase = .keys
        // The responder distributes first (§3.6.1).
        return (role == .responder ? ourKeys() : []) + finishIfOwedNothing()
    }

    /// No PDU for 30 s (§3.4): pairing is over, and no PDU may follow on this link.
    public func timedOut() -> [SMPAction] {
        guard isRunning else { return [] }
        phase = .over
        return [.failed(.timedOut)]
    }

    /// The user or the app calls it off.
    public func cancel() -> [SMPAction] {
        guard isRunning else { return [] }
        return fail(method == .numericComparison ? .numericComparisonFailed : .passkeyEntryFailed, .declined)
    }

    // MARK: The protocol

    private func step(_ pdu: SMPPDU) throws -> [SMPAction] {
        switch (phase, pdu) {
        case (_, .pairingFailed(let reason)):
            let wasRunning = isRunning
            phase = .over
            return wasRunning ? [.failed(reason == .confirmValueFailed ? .authenticationFailed : .other(reason.message))] : []
        case (_, .securityRequest):
            return []
        case (_, .keypressNotification(let kind)):
            // 1 a digit entered, 2 erased, 3 cleared (§3.5.8): the code shown follows.
            guard method == .passkeyDisplay, let passkey else { return [] }
            switch kind {
            case 1: typed = min(typed + 1, 6)
            case 2: typed = max(typed - 1, 0)
            case 3: typed = 0
            default: return []
            }
            return [.ask(.displayPasskey(passkey: passkey, typed: typed))]
        case (.idle, .pairingRequest(let features)) where role == .responder:
            return agree(request: features)
        case (.features, .pairingResponse(let features)) where role == .initiator:
            return try agree(response: features)
        case (.publicKey, .pairingPublicKey(let x, let y)):
            return try keysExchanged(x: Array(x.reversed()), y: Array(y.reversed()))
        case (.confirm, .pairingConfirm(let value)) where role == .initiator:
            theirConfirm = Array(value.reversed())
            mine = crypto.random(16)
            phase = .random
            return [.send(.pairingRandom(Array(mine.reversed())))]
        case (.random, .pairingRandom(let value)):
            return try randomsExchanged(Array(value.reversed()))
        case (.roundConfirm(let i), .pairingConfirm(let value)):
            theirConfirm = Array(value.reversed())
            if role == .initiator {
                phase = .roundRandom(i)
                return [.send(.pairingRandom(Array(mine.reversed())))]
            }
            // The responder answers with its own confirm, once it knows the code.
            return passkey == nil ? [] : try sendRoundConfirm(i)
        case (.roundRandom(let i), .pairingRandom(let value)):
            theirs = Array(value.reversed())
            guard try confirmOf(theirs, z: bit(i), mine: false) == theirConfirm else {
                return fail(.confirmValueFailed, .authenticationFailed)
            }
            if role == .initiator { return i == 19 ? try sendDHKeyCheck() : try sendRoundConfirm(i + 1) }
            theirConfirm = nil
            phase = i == 19 ? .dhKeyCheck : .roundConfirm(i + 1)
            return [.send(.pairingRandom(Array(mine.reversed())))]
        case (.dhKeyCheck, .pairingDHKeyCheck(let value)):
            if role == .initiator { return try checkDHKey(Array(value.reversed())) }
            if method == .numericComparison && !confirmed {
                heldCheck = Array(value.reversed())
                return []
            }
            return try checkDHKey(Array(value.reversed()))
        case (.legacyConfirm, .pairingConfirm(let value)):
            theirConfirm = Array(value.reversed())
            if role == .initiator {
                phase = .legacyRandom
                return [.send(.pairingRandom(Array(mine.reversed())))]
            }
            return passkey == nil && method.usesPasskey ? [] : try sendLegacyConfirm()
        case (.legacyRandom, .pairingRandom(let value)):
            theirs = Array(value.reversed())
            guard try legacyConfirm(theirs, mine: false) == theirConfirm else { return fail(.confirmValueFailed, .authenticationFailed) }
            // STK = s1(TK, Srand, Mrand) (§2.3.5.5).
            let (srand, mrand) = role == .initiator ? (theirs, mine) : (mine, theirs)
            let stk = Array(masked(try crypto.s1(k: tk, r1: srand, r2: mrand)).reversed())
            phase = .encrypting
            if role == .initiator { return [.encrypt(ltk: stk, ediv: 0, rand: 0)] }
            return [.key(stk), .send(.pairingRandom(Array(mine.reversed())))]
        case (.keys, _):
            return distributed(pdu)
        default:
            return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order.")))
        }
    }

    /// The user's passkey arrived: the step that waited for it goes on.
    private func passkeyKnown() throws -> [SMPAction] {
        switch (role, phase) {
        case (.initiator, .passkey): return try secure ? sendRoundConfirm(0) : sendLegacyConfirm()
        case (.responder, .roundConfirm(0)) where theirConfirm != nil: return try sendRoundConfirm(0)
        case (.responder, .legacyConfirm) where theirConfirm != nil: return try sendLegacyConfirm()
        default: return []
        }
    }

    /// Secure Connections: both public keys known, so the DHKey; then the confirm of the method.
    private func keysExchanged(x: [UInt8], y: [UInt8]) throws -> [SMPAction] {
        let pair = keyPair ?? crypto.makeKeyPair()
        keyPair = pair
        // A side that sends FavBlue's own key back is reflecting it (§2.3.5.6.1).
        guard x != pair.x else { return fail(.invalidParameters, .authenticationFailed) }
        do {
            dhKey = try pair.dhKey(peerX: x, peerY: y)
        } catch {
            return fail(.dhKeyCheckFailed, .authenticationFailed)
        }
        peerX = x
        var actions: [SMPAction] = role == .responder
            ? [.send(.pairingPublicKey(x: Array(pair.x.reversed()), y: Array(pair.y.reversed())))] : []
        switch method {
        case .justWorks, .numericComparison:
            guard role == .responder else {
                phase = .confirm
                return actions
            }
            // The responder commits to its nonce first (§2.3.5.6.2).
            mine = crypto.random(16)
            actions.append(.send(.pairingConfirm(Array(try confirmOf(mine, z: 0, mine: true).reversed()))))
            phase = .random
        case .passkeyDisplay:
            actions += showPasskey()
            if role == .initiator { return actions + (try sendRoundConfirm(0)) }
            phase = .roundConfirm(0)
        case .passkeyInput:
            actions.append(.ask(.enterPasskey))
            phase = role == .initiator ? .passkey : .roundConfirm(0)
        }
        return actions
    }

    /// Just Works and Numeric Comparison: the nonces exchanged, the responder's confirm checked.
    private func randomsExchanged(_ random: [UInt8]) throws -> [SMPAction] {
        theirs = random
        guard role == .initiator else {
            mine = mine.isEmpty ? crypto.random(16) : mine
            phase = .dhKeyCheck
            let reply: [SMPAction] = [.send(.pairingRandom(Array(mine.reversed())))]
            return method == .numericComparison ? reply + [.ask(.confirm(passkey: try comparedNumber()))] : reply
        }
        guard try confirmOf(theirs, z: 0, mine: false) == theirConfirm else { return fail(.confirmValueFailed, .authenticationFailed) }
        if method == .justWorks { return try sendDHKeyCheck() }
        phase = .compare
        return [.ask(.confirm(passkey: try comparedNumber()))]
    }

    func fail(_ reason: SMPFailureReason, _ failure: PairingFailure) -> [SMPAction] {
        phase = .over
        return [.send(.pairingFailed(reason)), .failed(failure)]
    }
}
