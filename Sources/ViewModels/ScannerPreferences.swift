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
    /// Devices weaker than this are hidden, dBm (-127 shows all).
    public var minimumRSSI = -127

    public init() {}
}
