// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The bonds as the HCI route's threads read them: the owner of the bonds (`Identities`) hands
/// every change here, and the connector looks up a link's keys without a hop to the main thread.
/// Also holds FavBlue's own identity, given to each device it pairs with.
public final class HCIKeyring: @unchecked Sendable {
    private let lock = NSLock()
    private var bonds: [DeviceID: Bond] = [:]
    private var resolver: PrivateAddressResolver
    /// Identities whose device answered our key with "key missing": it forgot the pairing.
    private var lost: Set<DeviceID> = []
    /// Identities bonded without a code whose device then refused for want of one.
    private var wantCode: Set<DeviceID> = []
    /// Told when a device is found to have lost its key (on the radio's thread).
    public var onLost: (@Sendable (DeviceID) -> Void)?
    /// Told when a device bonded without a code refuses for want of one (on the radio's thread).
    public var onCodeWanted: (@Sendable (DeviceID) -> Void)?
    private var ownIdentity: LocalIdentity
    /// Per listener (a connector), what to call after a change: one entry each, however often it asks.
    private var changeHandlers: [ObjectIdentifier: @Sendable () -> Void] = [:]

    /// Starts with `local` as FavBlue's identity, until the one kept is read (`setLocal`).
    public init(hashing: any AddressHashing, local: LocalIdentity) {
        resolver = PrivateAddressResolver(hashing: hashing)
        ownIdentity = local
    }

    /// FavBlue's own IRK and static address, given to each device it pairs with; links are made from that address.
    public var local: LocalIdentity { lock.withLock { ownIdentity } }

    /// Replaces FavBlue's identity with the one kept; links made later use it.
    public func setLocal(_ identity: LocalIdentity) { lock.withLock { ownIdentity = identity } }

    /// Every bond kept, in identity order.
    public var all: [Bond] { lock.withLock { bonds.values.sorted { $0.identity < $1.identity } } }

    /// Calls `handler` (on the caller's thread) after every change of the bonds, in place of any
    /// handler `listener` gave before, until `stopTelling(listener)`.
    func onChange(of listener: AnyObject, _ handler: @escaping @Sendable () -> Void) {
        lock.withLock { changeHandlers[ObjectIdentifier(listener)] = handler }
    }

    /// Forgets `listener`'s handler (a connector whose controller went away).
    func stopTelling(_ listener: AnyObject) {
        lock.withLock { changeHandlers[ObjectIdentifier(listener)] = nil }
    }

    /// Replaces the bonds with `bonds`.
    public func set(_ bonds: [Bond]) {
        defer { for handler in lock.withLock({ changeHandlers.values }) { handler() } }
        lock.withLock {
            let old = self.bonds
            self.bonds = Dictionary(bonds.map { ($0.identity, $0) }, uniquingKeysWith: { $1 })
            // A bond made again (or deleted) is no longer lost, nor wanting.
            lost = lost.filter { old[$0] == self.bonds[$0] }
            wantCode = wantCode.filter { old[$0] == self.bonds[$0] }
            resolver.setBonds(bonds.sorted { $0.identity < $1.identity }.compactMap(\.resolving))
        }
    }

    /// The bond of `address` (its own, or that of the identity it resolves to) while the device still has its half.
    public func bond(for address: DeviceID) -> Bond? {
        storedBond(for: address).flatMap { bond in lock.withLock { lost.contains(bond.identity) } ? nil : bond }
    }

    /// The bond kept for `address`, even one the device has lost.
    public func storedBond(for address: DeviceID) -> Bond? {
        lock.withLock {
            if let bond = bonds[address] { return bond }
            return resolver.resolve(address).flatMap { bonds[$0] }
        }
    }

    /// Whether `identity`'s bond was made without a code and its device wants one.
    public func wantsCode(_ identity: DeviceID) -> Bool { lock.withLock { wantCode.contains(identity) } }

    /// The device behind `address` refused a request for want of authentication: if its bond
    /// was made without a code (Just Works), pairing again is offered.
    func noteAuthenticationWanted(by address: DeviceID) {
        guard let bond = storedBond(for: address), !bond.authenticated else { return }
        let handler = lock.withLock { wantCode.insert(bond.identity).inserted ? onCodeWanted : nil }
        handler?(bond.identity)
    }

    /// The device of `identity` no longer has the key: pairing is offered again.
    func markLost(_ identity: DeviceID) {
        let handler = lock.withLock { lost.insert(identity).inserted ? onLost : nil }
        handler?(identity)
    }
}
