// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What pairing leaves behind for one device (Core spec Vol 3 Part H §2.4.1): the keys that
/// recognise it and encrypt later links. Never logged, exported or shown; Forget deletes it.
public struct Bond: Equatable, Sendable {
    /// The device's identity address (public or static random).
    public let identity: DeviceID
    /// The key that resolves its private addresses; nil when it gave none.
    public var irk: IdentityResolvingKey?
    /// The Long Term Key, 16 bytes; nil when none was distributed.
    public var ltk: [UInt8]?
    /// EDIV and Rand, which name the LTK of LE legacy pairing; nil for Secure Connections.
    public var ediv: UInt16?
    public var rand: UInt64?
    /// The encryption key size agreed, 7 to 16 bytes.
    public var keySize: Int
    /// Whether pairing protected against a man in the middle (not Just Works).
    public var authenticated: Bool
    /// Whether it came from LE Secure Connections.
    public var secureConnections: Bool
    /// When it was made.
    public var createdAt: Date

    public init(identity: DeviceID, irk: IdentityResolvingKey?, ltk: [UInt8]?, ediv: UInt16? = nil, rand: UInt64? = nil,
                keySize: Int = 16, authenticated: Bool, secureConnections: Bool, createdAt: Date) {
        self.identity = identity
        self.irk = irk
        self.ltk = ltk
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.createdAt = createdAt
    }

    /// What resolution needs of it; nil without an IRK.
    public var resolving: ResolvingBond? { irk.map { ResolvingBond(identity: identity, irk: $0) } }
}

extension Bond: CustomStringConvertible, CustomDebugStringConvertible {
    /// The device only: keys must not reach a log by accident.
    public var description: String { "Bond(\(identity))" }
    public var debugDescription: String { description }
}

/// The bonds that could be read, and the stored rows that could not. An unreadable row is
/// left where it is, so nothing is lost, and reported.
public struct BondsReading: Equatable, Sendable {
    /// Every bond that decodes.
    public var bonds: [Bond]
    /// The device column of each row that does not, as stored.
    public var unreadable: [String]

    public init(bonds: [Bond], unreadable: [String]) {
        self.bonds = bonds
        self.unreadable = unreadable
    }
}

/// FavBlue's own identity on the HCI route (Core spec Vol 3 Part H §3.6.4): the IRK and static
/// random address it gives each device it pairs with. Made once and kept, so a bonded device
/// recognises FavBlue after a restart and finds its key.
public struct LocalIdentity: Equatable, Sendable {
    /// 16 bytes, most significant first.
    public let irk: [UInt8]
    /// A static random address (its two top bits set).
    public let address: DeviceID

    public init(irk: [UInt8], address: DeviceID) {
        self.irk = irk
        self.address = address
    }

    /// A new identity from 22 random bytes: 16 for the key, 6 for the address.
    public init(random bytes: [UInt8]) {
        precondition(bytes.count >= 22, "a local identity takes 22 random bytes")
        var octets = Array(bytes[16..<22])
        octets[0] |= 0xC0
        self.init(irk: Array(bytes[0..<16]), address: DeviceID(octets: octets, kind: .leRandom))
    }
}

extension LocalIdentity: CustomStringConvertible, CustomDebugStringConvertible {
    /// The address only: the key must not reach a log by accident.
    public var description: String { "LocalIdentity(\(address))" }
    public var debugDescription: String { description }
}
