// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where the machine is, as far as the network it is on tells: an opaque, salted hash of the
/// primary connection's network, never its name. Nil while no place can be told.
@MainActor
public protocol PlaceSource: AnyObject {
    /// The place now.
    var current: String? { get }
    /// Whether places can be told at all here (false without NetworkManager).
    var isAvailable: Bool { get }
}
