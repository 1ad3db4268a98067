// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// How the Scanner page filters and orders its list; kept across restarts. How FavBlue scans
/// is Domain's `ScanSettings`, owned by `ScanPolicy`.
public struct ScannerPreferences: Equatable, Sendable {
    /// How rows are ordered.
    public enum SortOrder: String, Sendable, CaseIterable { case signal, name, lastSeen = "last-seen" }

    public var sortOrder: SortOrder = .signal
    public var favoritesOnly = false
    public var hideUnnamed = true
    /// Only the trackers (tags of the Find My networks, Tile and the like).
    public var trackersOnly = false
    /// Devices weaker than this are hidden, dBm (`showsAll` shows all).
    public var minimumRSSI = Self.showsAll

    /// The minimum that hides nothing: the weakest signal a report can carry.
    public static let showsAll = -127
    /// The minimum offered when weak devices are first hidden: about where a device is in the next room.
    public static let suggestedMinimum = -90

    public init() {}
}
