// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// The calculations both roles make (Core v5.4, Vol 3, Part H, §2.2, §2.3.5), written once in
/// terms of the initiator (A) and the responder (B), and the key distribution (§3.6).
extension SMPSession {
    // MARK: Who is A and who is B

    private var initiatorParty: Party { role == .initiator ? local : remote }
    private var responderParty: Party { role == .initiator ? remote : local }
    /// The initiator's and the responder's nonces.
    private var na: [UInt8] { role == .initiator ? mine : theirs }
    private var nb: [UInt8] { role == .initiator ? theirs : mine }

    // MARK: Secure Connections

    /// A side's commitment to `nonce`: this side's (f4(PKmine, PKtheirs, …)) or the other side's.
    func confirmOf(_ nonce: [UInt8], z: UInt8, mine own: Bool) throws -> [UInt8] {
        guard let keyPair else { return [] }
        return own ? try crypto.f4(u: keyPair.x, v: peerX, x: nonce, z: z) : try crypto.f4(u: peerX, v: keyPair.x, x: nonce, z: z)
    }

    /// Numeric Comparison's six digits: g2(PKax, PKbx, Na, Nb).
    func comparedNumber() throws -> UInt32 {
        guard let keyPair else { return 0 }
        let (pka, pkb) = role == .initiator ? (keyPair.x, peerX) : (peerX, keyPair.x)
        return try crypto.g2(u: pka, v: pkb, x: na, y: nb) % 1_000_000
    }

    /// Passkey Entry round `i`: this side's nonce and confirm. The initiator then awaits the
    /// responder's confirm; the responder, the initiator's random.
    func sendRoundConfirm(_ i: Int) throws -> [SMPAction] {
        mine = crypto.random(16)
        let confirm = try confirmOf(mine, z: bit(i), mine: true)
        phase = role == .initiator ? .roundConfirm(i) : .roundRandom(i)
        return [.send(.pairingConfirm(Array(confirm.reversed())))]
    }

    /// A side's DHKey check: f6(MacKey, its nonce, the other's, r, its IOcap, its address, the other's).
    private func check(ofInitiator: Bool) throws -> [UInt8] {
        let r = method.usesPasskey ? passkeyBlock : [UInt8](repeating: 0, count: 16)
        let features = (ofInitiator ? request : response).map { [$0.authReq, $0.oobData, $0.ioCapability] } ?? []
        return ofInitiator
            ? try crypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: features, a1: initiatorParty.typed, a2: responderParty.typed)
            : try crypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: features, a1: responderParty.typed, a2: initiatorParty.typed)
    }

    /// MacKey and LTK: f5(DHKey, Na, Nb, A, B).
    private func deriveKeys() throws {
        let keys = try crypto.f5(w: dhKey, n1: na, n2: nb, a1: initiatorParty.typed, a2: responderParty.typed)
        macKey = keys.macKey
        ltk = keys.ltk
    }

    /// The initiator sends Ea.
    func sendDHKeyCheck() throws -> [SMPAction] {
        try deriveKeys()
        phase = .dhKeyCheck
        return [.send(.pairingDHKeyCheck(Array(try check(ofInitiator: true).reversed())))]
    }

    /// Checks the other side's DHKey check: the initiator then encrypts; the responder gives the
    /// key the encryption will ask for and answers with Eb.
    func checkDHKey(_ value: [UInt8]) throws -> [SMPAction] {
        if role == .responder { try deriveKeys() }
        guard try check(ofInitiator: role == .responder) == value else { return fail(.dhKeyCheckFailed, .authenticationFailed) }
        phase = .encrypting
        let key = Array(masked(ltk).reversed())
        if role == .initiator { return [.encrypt(ltk: key, ediv: 0, rand: 0)] }
        return [.key(key), .send(.pairingDHKeyCheck(Array(try check(ofInitiator: false).reversed())))]
    }

    // MARK: Legacy

    /// c1(TK, r, preq, pres, iat, ia, rat, ra): the same for either side's random.
    func legacyConfirm(_ random: [UInt8], mine own: Bool) throws -> [UInt8] {
        guard let request, let response else { return [] }
        let a = initiatorParty, b = responderParty
        return try crypto.c1(k: tk, r: random, preq: Array(SMPPDU.pairingRequest(request).bytes.reversed()),
                             pres: Array(SMPPDU.pairingResponse(response).bytes.reversed()),
                             iat: a.type, ia: a.octets, rat: b.type, ra: b.octets)
    }

    /// This side's random and confirm (Mconfirm, or Sconfirm in answer to it).
    func sendLegacyConfirm() throws -> [SMPAction] {
        tk = passkeyBlock
        mine = crypto.random(16)
        let confirm = try legacyConfirm(mine, mine: true)
        phase = role == .initiator ? .legacyConfirm : .legacyRandom
        return [.send(.pairingConfirm(Array(confirm.reversed())))]
    }

    // MARK: The code

    /// A code for the other side's user to type, shown here.
    func showPasskey() -> [SMPAction] {
        let value = crypto.random(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        passkey = value
        typed = 0
        tk = passkeyBlock
        return [.ask(.displayPasskey(passkey: value, typed: nil))]
    }

    /// The passkey's bit for round `i`, as f4's z.
    func bit(_ round: Int) -> UInt8 { 0x80 | UInt8(truncatingIfNeeded: ((passkey ?? 0) >> UInt32(round)) & 1) }

    /// The passkey as a 128-bit value, most significant first (0 for Just Works).
    var passkeyBlock: [UInt8] {
        let value = passkey ?? 0
        return [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }

    /// A key cut to the agreed size: its most significant octets are zeroed (§2.3.4).
    func masked(_ key: [UInt8]) -> [UInt8] {
        key.enumerated().map { $0.offset < 16 - keySize ? 0 : $0.element }
    }

    // MARK: Key distribution (§3.6)

    /// FavBlue's own keys, as agreed: its identity, and a legacy responder's LTK with its EDIV and Rand.
    func ourKeys() -> [SMPAction] {
        let given = role == .initiator ? (response?.initiatorKeys ?? 0) & (request?.initiatorKeys ?? 0) : (response?.responderKeys ?? 0)
        var actions: [SMPAction] = []
        if given & 0x01 != 0, !secure {
            let key = masked(crypto.random(16))
            let ediv = crypto.random(2).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
            let rand = crypto.random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            givenLTK = (key, ediv, rand)
            actions.append(.send(.encryptionInformation(ltk: Array(key.reversed()))))
            actions.append(.send(.centralIdentification(ediv: ediv, rand: rand)))
        }
        if given & 0x02 != 0 {
            actions.append(.send(.identityInformation(irk: Array(identity.irk.reversed()))))
            actions.append(.send(.identityAddressInformation(type: identity.address.type, address: identity.address.octets.reversed())))
        }
        return actions
    }

    /// A key the other side gives, if it owes it.
    func distributed(_ pdu: SMPPDU) -> [SMPAction] {
        let code = pdu.bytes[0]
        guard owed.contains(code) else { return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order."))) }
        owed.remove(code)
        switch pdu {
        case .encryptionInformation(let key): peerLTK = Array(key.reversed())
        case .centralIdentification(let ediv, let rand):
            peerEDIV = ediv
            peerRand = rand
        case .identityInformation(let irk): peerIRK = Array(irk.reversed())
        case .identityAddressInformation(let type, let address):
            // Only a public or static random address can be an identity.
            if type == 0 || address.last.map({ $0 & 0xC0 == 0xC0 }) == true {
                peerIdentity = DeviceID(wireBytes: address, kind: type == 0 ? .lePublic : .leRandom)
            }
        default: break
        }
        return finishIfOwedNothing()
    }

    /// Once the other side owes nothing: the initiator gives its keys last, and the bond is made.
    func finishIfOwedNothing() -> [SMPAction] {
        guard phase == .keys, owed.isEmpty else { return [] }
        var actions = role == .initiator ? ourKeys() : []
        phase = .over
        let device = peerIdentity ?? remote.device
        // The key later encryptions use: derived (Secure Connections), or the responder's (legacy).
        let key: [UInt8]?, ediv: UInt16?, rand: UInt64?
        if secure {
            (key, ediv, rand) = (masked(ltk), nil, nil)
        } else if role == .initiator {
            (key, ediv, rand) = (peerLTK.map(masked), peerEDIV, peerRand)
        } else {
            (key, ediv, rand) = (givenLTK?.ltk, givenLTK?.ediv, givenLTK?.rand)
        }
        let bonding = (request?.authReq ?? 0) & 0x03 == 0x01 && (response?.authReq ?? 0) & 0x03 == 0x01
        let bond = bonding && (key != nil || peerIRK != nil)
            ? Bond(identity: device, irk: peerIRK.flatMap { IdentityResolvingKey(bytes: $0) }, ltk: key, ediv: ediv, rand: rand,
                   keySize: keySize, authenticated: method != .justWorks, secureConnections: secure, createdAt: now())
            : nil
        actions.append(.finished(identity: device, bond: bond))
        return actions
    }
}
