// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// How the Scanner page scans, filters and orders; kept across restarts.
public struct ScannerPreferences: Equatable, Sendable {
    /// How rows are ordered.
    public enum SortOrder: String, Sendable, CaseIterable { case signal, name, lastSeen = "last-seen" }

    public var sortOrder: SortOrder = .signal
    public var favoritesOnly = false
    public var hideUnnamed = true
    /// Devices weaker than this are hidden, dBm (-127 shows all).
    public var minimumRSSI = -127
    /// Seconds unseen before a row fades, and before it goes.
    public var fadeAfterSeconds = 30
    public var removeAfterSeconds = 60
    /// Scan for `scanWindowSeconds` every `periodSeconds` instead of continuously.
    public var periodic = false
    public var periodSeconds = 60
    public var scanWindowSeconds = 10
    /// Scan quietly in Auto Scan's rhythm while the Scanner is not open, so Favorites knows what is nearby.
    public var backgroundScan = false

    public init() {}

    /// The scan mode these preferences ask for.
    public var scanMode: ScanMode {
        periodic ? periodicMode : .continuous
    }

    /// The quiet scan while the Scanner is closed: Auto Scan's window and interval, or none.
    public var backgroundScanMode: ScanMode? {
        backgroundScan ? periodicMode : nil
    }

    private var periodicMode: ScanMode {
        let window = max(1, min(scanWindowSeconds, periodSeconds))
        return .periodic(windowSeconds: Double(window), intervalSeconds: Double(max(periodSeconds, window)))
    }
}
