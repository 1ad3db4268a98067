// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Key distribution (Core v5.4, Vol 3, Part H, §3.6): the keys the device hands over once the
/// link is encrypted, ours in return, and the bond they make.
extension SMPInitiator {
    /// A key cut to the agreed size: its most significant octets are zeroed (§2.3.4).
    func masked(_ key: [UInt8]) -> [UInt8] {
        key.enumerated().map { $0.offset < 16 - keySize ? 0 : $0.element }
    }

    func distributed(_ pdu: SMPPDU) throws -> [SMPAction] {
        let code = pdu.bytes[0]
        guard owed.contains(code) else {
            return fail(.unspecified, .other(L10n.tr("the device sent a pairing step out of order.")))
        }
        owed.remove(code)
        switch pdu {
        case .encryptionInformation(let key): peerLTK = Array(key.reversed())
        case .centralIdentification(let ediv, let rand):
            peerEDIV = ediv
            peerRand = rand
        case .identityInformation(let irk): peerIRK = Array(irk.reversed())
        case .identityAddressInformation(let type, let address):
            // Only a public or static random address can be an identity.
            let id = DeviceID(wireBytes: address, kind: type == 0 ? .lePublic : .leRandom)
            if type == 0 || address.last.map({ $0 & 0xC0 == 0xC0 }) == true { peerIdentity = id }
        default: break
        }
        return finishIfOwedNothing()
    }

    func finishIfOwedNothing() -> [SMPAction] {
        guard phase == .keys, owed.isEmpty else { return [] }
        var actions: [SMPAction] = []
        let ourKeys = (response?.initiatorKeys ?? 0) & request.initiatorKeys
        if ourKeys & 0x02 != 0 {
            actions.append(.send(.identityInformation(irk: Array(identity.irk.reversed()))))
            actions.append(.send(.identityAddressInformation(type: identity.address.type, address: identity.address.octets.reversed())))
        }
        phase = .over
        let device = peerIdentity ?? DeviceID(octets: remote.octets, kind: remote.type == 0 ? .lePublic : .leRandom)
        let key = secure ? masked(ltk) : peerLTK.map(masked)
        let bonding = (response?.authReq ?? 0) & 0x03 == 0x01
        let bond = bonding && (key != nil || peerIRK != nil)
            ? Bond(identity: device, irk: peerIRK.flatMap { IdentityResolvingKey(bytes: $0) }, ltk: key,
                   ediv: secure ? nil : peerEDIV, rand: secure ? nil : peerRand, keySize: keySize,
                   authenticated: method != .justWorks, secureConnections: secure, createdAt: now())
            : nil
        actions.append(.finished(identity: device, bond: bond))
        return actions
    }
}
