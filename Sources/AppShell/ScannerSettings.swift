// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import ViewModels

/// Scanner preferences and scan settings in GSettings, so sorting, filters and auto scan survive a restart.
@MainActor
enum ScannerSettings {
    static func load(_ settings: Settings) -> ScannerPreferences {
        var p = ScannerPreferences()
        p.sortOrder = ScannerPreferences.SortOrder(rawValue: settings.string("scanner-sort")) ?? .signal
        p.favoritesOnly = settings.bool("scanner-favorites-only")
        p.hideUnnamed = settings.bool("scanner-hide-unnamed")
        p.trackersOnly = settings.bool("scanner-trackers-only")
        p.minimumRSSI = Int(settings.int("scanner-minimum-rssi"))
        return p
    }

    static func save(_ p: ScannerPreferences, to settings: Settings) {
        settings.set("scanner-sort", string: p.sortOrder.rawValue)
        settings.set("scanner-favorites-only", bool: p.favoritesOnly)
        settings.set("scanner-hide-unnamed", bool: p.hideUnnamed)
        settings.set("scanner-trackers-only", bool: p.trackersOnly)
        settings.set("scanner-minimum-rssi", int: Int32(clamping: p.minimumRSSI))
    }

    static func loadScan(_ settings: Settings) -> ScanSettings {
        var p = ScanSettings()
        p.fadeAfterSeconds = Int(settings.uint("scanner-fade-after-seconds"))
        p.removeAfterSeconds = Int(settings.uint("scanner-remove-after-seconds"))
        p.periodic = settings.bool("scanner-periodic")
        p.periodSeconds = Int(settings.uint("scanner-period-seconds"))
        p.scanWindowSeconds = Int(settings.uint("scanner-window-seconds"))
        p.backgroundScan = settings.bool("background-scan")
        return p
    }

    static func saveScan(_ p: ScanSettings, to settings: Settings) {
        settings.set("scanner-fade-after-seconds", uint: UInt32(clamping: p.fadeAfterSeconds))
        settings.set("scanner-remove-after-seconds", uint: UInt32(clamping: p.removeAfterSeconds))
        settings.set("scanner-periodic", bool: p.periodic)
        settings.set("scanner-period-seconds", uint: UInt32(clamping: p.periodSeconds))
        settings.set("scanner-window-seconds", uint: UInt32(clamping: p.scanWindowSeconds))
        settings.set("background-scan", bool: p.backgroundScan)
    }
}
