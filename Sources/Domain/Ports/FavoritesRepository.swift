// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where favorites are kept (SQLite, or memory for a session that must not write).
public protocol FavoritesRepository: Sendable {
    /// Every favorite, in no particular order.
    func all() async throws -> [Favorite]
    /// One favorite, or nil.
    func favorite(_ id: DeviceID) async throws -> Favorite?
    /// Inserts or replaces the favorite with this id.
    func save(_ favorite: Favorite) async throws
    /// Deletes the favorite with this id; nothing happens if there is none.
    func remove(_ id: DeviceID) async throws
}
