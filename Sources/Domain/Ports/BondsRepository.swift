// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where bonds are kept, in a place of their own.
public protocol BondsRepository: Sendable {
    /// Every bond, and the rows that could not be read.
    func all() async throws -> BondsReading
    /// Keeps `bond`, replacing an earlier one of the same identity.
    func save(_ bond: Bond) async throws
    /// Deletes the bond of `identity`; nothing happens if there is none.
    func forget(_ identity: DeviceID) async throws
    /// FavBlue's own identity: the one kept, or else `made`, kept from now on.
    func localIdentity(orKeep made: LocalIdentity) async throws -> LocalIdentity
    /// What FavBlue's GATT server kept of each bonded client when its last link ended (its
    /// subscriptions, its features, the database it knew), as the server wrote it.
    func servedClients() async throws -> [DeviceID: Data]
    /// Keeps what the server kept of the bonded client `identity`, replacing what was.
    func keepServed(_ memory: Data, for identity: DeviceID) async throws
}

extension BondsRepository {
    /// A store that keeps no server memory: a bonded client starts afresh after a restart.
    public func servedClients() async throws -> [DeviceID: Data] { [:] }
    public func keepServed(_ memory: Data, for identity: DeviceID) async throws {}
}
