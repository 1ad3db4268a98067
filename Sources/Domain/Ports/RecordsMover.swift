// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Moves everything kept under one device to another, in one step: what pairing does when it
/// reveals that a private address belongs to an identity address.
public protocol RecordsMover: Sendable {
    /// Re-keys the favorite, nickname, sightings, hidden mark, chat history, bond and characteristic labels of `old` to
    /// `new`. Where `new` has a record already it is kept, and only what it lacks comes from
    /// `old` (a nickname, say); nothing of either is lost.
    func moveRecords(from old: DeviceID, to new: DeviceID) async throws
}
