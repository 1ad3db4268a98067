// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Preferences' window on Domain's `ScanPolicy`: how FavBlue scans, changed in place.
@MainActor
public final class ScanSettingsViewModel {
    // MARK: Borrowed
    private let policy: ScanPolicy

    /// A window on `policy`.
    public init(policy: ScanPolicy) { self.policy = policy }

    /// The settings as they are; setting a field applies it at once (and it is kept).
    public var settings: ScanSettings {
        get { policy.settings }
        set { policy.settings = newValue }
    }
}
