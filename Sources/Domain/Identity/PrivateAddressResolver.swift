// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The address hash `ah` (Core spec Vol 3 Part H §2.2.2). Domain names what it needs; an
/// adapter brings the AES from a crypto library.
public protocol AddressHashing: Sendable {
    /// ah(irk, prand): the 24-bit hash of the 24-bit `prand` under `irk`.
    func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32
    /// `ah` under one key, with whatever the key needs made once (an AES key, say): the
    /// resolver prepares each bond when the bonds change, not for every address.
    func prepared(_ irk: IdentityResolvingKey) -> @Sendable (UInt32) -> UInt32
}

extension AddressHashing {
    public func prepared(_ irk: IdentityResolvingKey) -> @Sendable (UInt32) -> UInt32 {
        { [self] prand in self.ah(irk: irk, prand: prand) }
    }
}

/// A bond as far as recognising a device goes: who it is, and the key that tells.
public struct ResolvingBond: Hashable, Sendable {
    /// The device's identity address (public or static random).
    public let identity: DeviceID
    /// Its Identity Resolving Key.
    public let irk: IdentityResolvingKey

    public init(identity: DeviceID, irk: IdentityResolvingKey) {
        self.identity = identity
        self.irk = irk
    }
}

/// Maps resolvable private addresses to identities by trying each bond's IRK
/// (`ah(IRK, prand) == hash`), and remembers every answer, yes or no, per address.
///
/// A busy room repeats its addresses many times a second, so the cost is one AES block per
/// new address per bond, not one per report. The memory is two generations of at most
/// `capacity / 2` answers each: when the newer fills, the older is dropped, so an address
/// heard again soon is still remembered and nothing grows without bound.
public struct PrivateAddressResolver: Sendable {
    /// The bonds tried, in the order given.
    public private(set) var bonds: [ResolvingBond]
    /// How many answers are remembered at most.
    public let capacity: Int
    /// How many times `ah` was computed: what resolution has cost so far.
    public private(set) var hashesComputed = 0

    private let hashing: any AddressHashing
    private var hashes: [@Sendable (UInt32) -> UInt32] = []
    // The address (48 bits) to the index of its bond, or -1 for none.
    private var newer: [UInt64: Int] = [:]
    private var older: [UInt64: Int] = [:]

    public init(hashing: any AddressHashing, bonds: [ResolvingBond] = [], capacity: Int = 8192) {
        precondition(capacity >= 2, "the resolver remembers at least two answers")
        self.hashing = hashing
        self.bonds = bonds
        self.capacity = capacity
        hashes = bonds.map { hashing.prepared($0.irk) }
    }

    /// How many answers are remembered now.
    public var remembered: Int { newer.count + older.count }

    /// Replaces the bonds; every answer remembered so far is forgotten, since it may change.
    public mutating func setBonds(_ bonds: [ResolvingBond]) {
        self.bonds = bonds
        hashes = bonds.map { hashing.prepared($0.irk) }
        newer.removeAll(keepingCapacity: true)
        older.removeAll()
    }

    /// The identity behind `address` when it is a resolvable private address that one of the
    /// bonds resolves; nil otherwise (any other kind of address, or no bond matches).
    public mutating func resolve(_ address: DeviceID) -> DeviceID? {
        guard !bonds.isEmpty, AddressType(address) == .resolvablePrivate else { return nil }
        let key = address.value
        if let index = newer[key] { return index < 0 ? nil : bonds[index].identity }
        let index: Int
        if let earlier = older[key] {
            index = earlier
        } else {
            // The top 24 bits are prand, the bottom 24 the hash (Vol 6 Part B §1.3.2.2).
            let prand = UInt32(truncatingIfNeeded: key >> 24)
            let hash = UInt32(truncatingIfNeeded: key & 0xFF_FFFF)
            var found = -1
            for (i, ah) in hashes.enumerated() {
                hashesComputed += 1
                if ah(prand) & 0xFF_FFFF == hash { found = i; break }
            }
            index = found
        }
        remember(key, index)
        return index < 0 ? nil : bonds[index].identity
    }

    private mutating func remember(_ key: UInt64, _ index: Int) {
        if newer.count >= capacity / 2 {
            older = newer
            newer = [:]
            newer.reserveCapacity(capacity / 2)
        }
        newer[key] = index
    }
}
