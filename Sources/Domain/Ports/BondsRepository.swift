// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

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
}
