// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The owner of who each device is: the bonds, and the resolution of private addresses
/// against them. The live model asks it at the door, so everything after keys on identities.
@MainActor
public final class Identities {
    /// What became of a key typed in for a device.
    public enum KeyOutcome: Equatable, Sendable {
        /// Kept; `swapped` when it resolved only with its bytes the other way round. `matched` is the
        /// private address heard that it resolved, when the device's own address is not a private
        /// one: that device is shown as this one from now on, so the user is told which it was.
        case kept(swapped: Bool, matched: DeviceID?)
        /// Neither byte order resolves the device's own address (`ownAddress`), or, when that is not
        /// a private one, any private address heard: nothing was kept.
        case noMatch(ownAddress: Bool)
    }

    private let hashing: any AddressHashing
    private let repository: BondsRepository?
    private var resolver: PrivateAddressResolver
    private var stored: [DeviceID: Bond] = [:]
    private let observers = ChangeObservers()

    /// Starts with `bonds`; `hashing` brings the AES, `repository` keeps what changes.
    public init(hashing: any AddressHashing, repository: BondsRepository? = nil, bonds: [Bond] = []) {
        self.hashing = hashing
        self.repository = repository
        resolver = PrivateAddressResolver(hashing: hashing)
        apply(bonds)
    }

    /// Calls `handler` after every change of the bonds.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Reads the stored bonds; returns the rows that could not be read, which stay where they are.
    @discardableResult
    public func load() async throws -> [String] {
        guard let repository else { return [] }
        let reading = try await repository.all()
        apply(reading.bonds)
        return reading.unreadable
    }

    /// Whether `identity` was paired by FavBlue itself (its bond holds a link key, which a key
    /// typed in never does).
    public func isPairedHere(_ identity: DeviceID) -> Bool { stored[identity]?.ltk != nil }

    /// Whether `identity` has a key that resolves its private addresses.
    public func hasKey(_ identity: DeviceID) -> Bool { stored[identity]?.irk != nil }

    /// The identity behind `address`: its bond's identity when a bond resolves it, else the address itself.
    public func identity(of address: DeviceID) -> DeviceID { resolver.resolve(address) ?? address }

    /// Keeps `irk` for `identity` (a key from a device bonded elsewhere) when it, or the same bytes
    /// the other way round, resolves the device's own address. A device kept under a private
    /// address is proof enough; a key that does not resolve it belongs to another device. Only
    /// for a device kept under a fixed address are the private addresses `heard` tried instead.
    public func addKey(_ irk: IdentityResolvingKey, for identity: DeviceID, heard: [DeviceID], now: Date = Date()) async throws -> KeyOutcome {
        let own = AddressType(identity) == .resolvablePrivate
        let addresses = own ? [identity] : heard.filter { AddressType($0) == .resolvablePrivate }
        for (key, swapped) in [(irk, false), (irk.byteSwapped, true)] {
            var trial = PrivateAddressResolver(hashing: hashing, bonds: [ResolvingBond(identity: identity, irk: key)])
            guard let resolved = addresses.first(where: { trial.resolve($0) != nil }) else { continue }
            var bond = stored[identity] ?? Bond(identity: identity, irk: nil, ltk: nil, authenticated: false,
                                                secureConnections: false, createdAt: now)
            bond.irk = key
            try await repository?.save(bond)
            stored[identity] = bond
            apply(Array(stored.values))
            return .kept(swapped: swapped, matched: own ? nil : resolved)
        }
        return .noMatch(ownAddress: own)
    }

    /// Every bond kept.
    public var bonds: [Bond] { stored.values.sorted { $0.identity < $1.identity } }

    /// Keeps `bond`, from a pairing, in place of any earlier one of its identity.
    public func keep(_ bond: Bond) async throws {
        try await repository?.save(bond)
        stored[bond.identity] = bond
        apply(Array(stored.values))
    }

    /// Deletes the bond of `identity`, key and all.
    public func forget(_ identity: DeviceID) async throws {
        try await repository?.forget(identity)
        stored[identity] = nil
        apply(Array(stored.values))
    }

    private func apply(_ bonds: [Bond]) {
        stored = Dictionary(bonds.map { ($0.identity, $0) }, uniquingKeysWith: { $1 })
        resolver.setBonds(stored.values.sorted { $0.identity < $1.identity }.compactMap(\.resolving))
        observers.notify()
    }
}
