// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the pairing state machine asks of whoever drives it.
public enum SMPAction: Sendable {
    /// Send this PDU on the SMP channel.
    case send(SMPPDU)
    /// Put this question to the user (a display updates the one shown).
    case ask(PairingQuestion)
    /// Start encryption with this key (least significant octet first, as HCI takes it).
    case encrypt(ltk: [UInt8], ediv: UInt16, rand: UInt64)
    /// Pairing is over; `bond` is what to keep (nil when the device did not bond).
    case finished(identity: DeviceID, bond: Bond?)
    /// Pairing failed; any Pairing Failed to send comes as a `send` before it.
    case failed(PairingFailure)
}

/// The central's side of LE pairing (Core spec Vol 3 Part H §2.3–§2.4, §3.5–§3.6): Secure
/// Connections with Just Works, Numeric Comparison and Passkey Entry, and legacy pairing with
/// Just Works and Passkey Entry, then key distribution. No threads and no clock of its own:
/// the driver feeds it PDUs, answers, encryption results and the timeout, and carries out the
/// actions it returns. Every PDU out of order or malformed ends pairing with Pairing Failed.
public final class SMPInitiator {
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
    }

    /// The keys FavBlue gives the device so it can recognise FavBlue again.
    public struct LocalIdentity: Sendable {
        /// Most significant octet first.
        public let irk: [UInt8]
        public let address: Party

        public init(irk: [UInt8], address: Party) {
            self.irk = irk
            self.address = address
        }
    }

    /// How the two sides check each other (Table 2.8).
    enum Method: Equatable {
        case justWorks
        case numericComparison
        /// The user types the device's code here.
        case passkeyInput
        /// FavBlue shows a code the user types on the device.
        case passkeyDisplay
    }

    enum Phase: Equatable {
        case idle
        case features
        /// Secure Connections: our public key sent, the device's awaited.
        case publicKey
        /// Waiting for the user's passkey.
        case passkey
        /// Just Works / Numeric Comparison: the device's confirm awaited, then its random.
        case confirm
        case random
        /// Numeric Comparison: waiting for the user.
        case compare
        /// Passkey Entry round `i`: the device's confirm, then its random.
        case roundConfirm(Int)
        case roundRandom(Int)
        case dhKeyCheck
        /// Legacy: the device's confirm, then its random.
        case legacyConfirm
        case legacyRandom
        case encrypting
        case keys
        case over
    }

    // Our side of the Pairing Request: KeyboardDisplay, no OOB, bonding + MITM + Secure
    // Connections, 16-byte keys; we give our identity, we ask for the device's LTK and identity.
    static let ioCapability: UInt8 = 0x04
    static let authReq: UInt8 = 0x0D
    static let keyDistribution: (initiator: UInt8, responder: UInt8) = (0x02, 0x03)

    let crypto: any PairingCrypto
    let local: Party
    let remote: Party
    let identity: LocalIdentity
    let now: () -> Date

    var phase = Phase.idle
    var request = SMPPDU.Features(ioCapability: ioCapability, oobData: 0, authReq: authReq, maxKeySize: 16,
                                          initiatorKeys: keyDistribution.initiator, responderKeys: keyDistribution.responder)
    var response: SMPPDU.Features?
    private(set) var method = Method.justWorks
    var secure = false
    var keySize = 16
    /// The passkey, once known.
    var passkey: UInt32?
    // Secure Connections.
    var keyPair: (any PairingKeyPair)?
    var peerX: [UInt8] = []
    private var dhKey: [UInt8] = []
    var na: [UInt8] = []
    private var nb: [UInt8] = []
    private var cb: [UInt8] = []
    var ltk: [UInt8] = []
    private var macKey: [UInt8] = []
    // Legacy.
    private var tk = [UInt8](repeating: 0, count: 16)
    private var mrand: [UInt8] = []
    private var sconfirm: [UInt8] = []
    // Key distribution: what the device still owes, and what it gave.
    var owed: Set<UInt8> = []
    var peerLTK: [UInt8]?
    var peerEDIV: UInt16?
    var peerRand: UInt64?
    var peerIRK: [UInt8]?
    var peerIdentity: DeviceID?
    var typed = 0

    /// A pairing between `local` (FavBlue, the central) and `remote` (the device), as they were on the link.
    public init(crypto: any PairingCrypto, local: Party, remote: Party, identity: LocalIdentity, now: @escaping () -> Date = Date.init) {
        self.crypto = crypto
        self.local = local
        self.remote = remote
        self.identity = identity
        self.now = now
    }

    /// Whether pairing is still under way.
    public var isRunning: Bool { phase != .idle && phase != .over }

    /// Sends the Pairing Request.
    public func start() -> [SMPAction] {
        guard phase == .idle else { return [] }
        phase = .features
        return [.send(.pairingRequest(request))]
    }

    /// A PDU from the device.
    public func receive(_ bytes: [UInt8]) -> [SMPAction] {
        guard isRunning else { return [] }
        return SMPPDU.handle(bytes, receive, fail: fail)
    }

    /// The user's answer to the question last asked.
    public func answer(_ answer: PairingAnswer) -> [SMPAction] {
        do {
            switch (phase, answer) {
            case (.passkey, .passkey(let value)) where value <= 999_999:
                passkey = value
                return try secure ? startRound(0) : sendLegacyConfirm()
            case (.passkey, _):
                return fail(.passkeyEntryFailed, .declined)
            case (.compare, .confirmed):
                return try sendDHKeyCheck()
            case (.compare, _):
                return fail(.numericComparisonFailed, .declined)
            default:
                return []
            }
        } catch {
            return fail(.unspecified, .other(L10n.tr("a key calculation failed.")))
        }
    }

    /// The result of starting encryption: the HCI status, 0 for success.
    public func encrypted(status: UInt8) -> [SMPAction] {
        guard phase == .encrypting else { return [] }
        guard status == 0 else {
            phase = .over
            return [.failed(.other(L10n.format("the link could not be encrypted (error 0x{}).",
                                               String(status, radix: 16, uppercase: true))))]
        }
        phase = .keys
        return finishIfOwedNothing()
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
        return fail(phase == .compare ? .numericComparisonFailed : .passkeyEntryFailed, .declined)
    }

    // MARK: The protocol

    private func receive(_ pdu: SMPPDU) throws -> [SMPAction] {
        switch (phase, pdu) {
        case (_, .pairingFailed(let reason)):
            phase = .over
            return [.failed(reason == .confirmValueFailed ? .authenticationFailed : .other(reason.message))]
        case (_, .securityRequest):
            return []
        case (_, .keypressNotification(let kind)) where method == .passkeyDisplay:
            // 1 a digit entered, 2 erased, 3 cleared (§3.5.8).
            switch kind {
            case 1: typed = min(typed + 1, 6)
            case 2: typed = max(typed - 1, 0)
            case 3: typed = 0
            default: return []
            }
            return passkey.map { [.ask(.displayPasskey(passkey: $0, typed: typed))] } ?? []
        case (.features, .pairingResponse(let features)):
            return try agree(features)
        case (.publicKey, .pairingPublicKey(let x, let y)):
            return try keysExchanged(x: Array(x.reversed()), y: Array(y.reversed()))
        case (.confirm, .pairingConfirm(let value)):
            cb = Array(value.reversed())
            na = crypto.random(16)
            phase = .random
            return [.send(.pairingRandom(Array(na.reversed())))]
        case (.random, .pairingRandom(let value)):
            nb = Array(value.reversed())
            let expected = try crypto.f4(u: peerX, v: keyPair!.x, x: nb, z: 0)
            guard expected == cb else { return fail(.confirmValueFailed, .authenticationFailed) }
            if method == .justWorks { return try sendDHKeyCheck() }
            let number = try crypto.g2(u: keyPair!.x, v: peerX, x: na, y: nb) % 1_000_000
            phase = .compare
            return [.ask(.confirm(passkey: number))]
        case (.roundConfirm(let i), .pairingConfirm(let value)):
            cb = Array(value.reversed())
            phase = .roundRandom(i)
            return [.send(.pairingRandom(Array(na.reversed())))]
        case (.roundRandom(let i), .pairingRandom(let value)):
            nb = Array(value.reversed())
            let expected = try crypto.f4(u: peerX, v: keyPair!.x, x: nb, z: bit(i))
            guard expected == cb else { return fail(.confirmValueFailed, .authenticationFailed) }
            return i == 19 ? try sendDHKeyCheck() : try startRound(i + 1)
        case (.dhKeyCheck, .pairingDHKeyCheck(let value)):
            let r = method.usesPasskey ? passkeyBlock : [UInt8](repeating: 0, count: 16)
            let ioCapB = [response!.authReq, response!.oobData, response!.ioCapability]
            let expected = try crypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: ioCapB, a1: remote.typed, a2: local.typed)
            guard expected == Array(value.reversed()) else { return fail(.dhKeyCheckFailed, .authenticationFailed) }
            phase = .encrypting
            return [.encrypt(ltk: Array(masked(ltk).reversed()), ediv: 0, rand: 0)]
        case (.legacyConfirm, .pairingConfirm(let value)):
            sconfirm = Array(value.reversed())
            phase = .legacyRandom
            return [.send(.pairingRandom(Array(mrand.reversed())))]
        case (.legacyRandom, .pairingRandom(let value)):
            let srand = Array(value.reversed())
            guard try legacyConfirm(srand) == sconfirm else { return fail(.confirmValueFailed, .authenticationFailed) }
            let stk = try crypto.s1(k: tk, r1: srand, r2: mrand)
            phase = .encrypting
            return [.encrypt(ltk: Array(masked(stk).reversed()), ediv: 0, rand: 0)]
        case (.keys, _):
            return try distributed(pdu)
        default:
            return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order.")))
        }
    }

    /// The Pairing Response: the key size, the kind of pairing and the association model.
    private func agree(_ features: SMPPDU.Features) throws -> [SMPAction] {
        guard (7...16).contains(features.maxKeySize) else { return fail(.encryptionKeySize, .other(SMPFailureReason.encryptionKeySize.message)) }
        guard features.ioCapability <= 4 else { return fail(.invalidParameters, .other(SMPFailureReason.invalidParameters.message)) }
        response = features
        keySize = Int(features.maxKeySize)
        secure = features.authReq & 0x08 != 0
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
            let actions = showPasskey()
            return actions + (try sendLegacyConfirm())
        default:
            return try sendLegacyConfirm()
        }
    }

    /// Initiator KeyboardDisplay against the device's IO capability (Table 2.8).
    static func method(peer: UInt8, secure: Bool, mitm: Bool) -> Method {
        guard mitm else { return .justWorks }
        switch peer {
        case 0x00: return .passkeyInput                            // DisplayOnly
        case 0x01: return secure ? .numericComparison : .passkeyInput  // DisplayYesNo
        case 0x02: return .passkeyDisplay                          // KeyboardOnly
        case 0x04: return secure ? .numericComparison : .passkeyDisplay  // KeyboardDisplay
        default: return .justWorks                                 // NoInputNoOutput
        }
    }

    private func keysExchanged(x: [UInt8], y: [UInt8]) throws -> [SMPAction] {
        guard let keyPair else { return [] }
        // A device that sends our own key back is reflecting it (§2.3.5.6.1).
        guard x != keyPair.x else { return fail(.invalidParameters, .authenticationFailed) }
        do {
            dhKey = try keyPair.dhKey(peerX: x, peerY: y)
        } catch {
            return fail(.dhKeyCheckFailed, .authenticationFailed)
        }
        peerX = x
        switch method {
        case .justWorks, .numericComparison:
            phase = .confirm
            return []
        case .passkeyInput:
            phase = .passkey
            return [.ask(.enterPasskey)]
        case .passkeyDisplay:
            return showPasskey() + (try startRound(0))
        }
    }

    private func sendDHKeyCheck() throws -> [SMPAction] {
        let keys = try crypto.f5(w: dhKey, n1: na, n2: nb, a1: local.typed, a2: remote.typed)
        macKey = keys.macKey
        ltk = keys.ltk
        let r = method.usesPasskey ? passkeyBlock : [UInt8](repeating: 0, count: 16)
        let ioCapA = [request.authReq, request.oobData, request.ioCapability]
        let ea = try crypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: ioCapA, a1: local.typed, a2: remote.typed)
        phase = .dhKeyCheck
        return [.send(.pairingDHKeyCheck(Array(ea.reversed())))]
    }

    private func legacyConfirm(_ random: [UInt8]) throws -> [UInt8] {
        try crypto.c1(k: tk, r: random, preq: Array(SMPPDU.pairingRequest(request).bytes.reversed()),
                      pres: Array(SMPPDU.pairingResponse(response!).bytes.reversed()),
                      iat: local.type, ia: local.octets, rat: remote.type, ra: remote.octets)
    }

    private func sendLegacyConfirm() throws -> [SMPAction] {
        tk = passkeyBlock
        mrand = crypto.random(16)
        let confirm = try legacyConfirm(mrand)
        phase = .legacyConfirm
        return [.send(.pairingConfirm(Array(confirm.reversed())))]
    }

    func fail(_ reason: SMPFailureReason, _ failure: PairingFailure) -> [SMPAction] {
        phase = .over
        return [.send(.pairingFailed(reason)), .failed(failure)]
    }
}

extension SMPInitiator.Method {
    var usesPasskey: Bool { self == .passkeyInput || self == .passkeyDisplay }
}
