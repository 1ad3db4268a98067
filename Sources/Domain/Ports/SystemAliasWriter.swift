// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Gives a device the name other apps on this computer show for it (BlueZ's `Device1.Alias`),
/// so a nickname set in FavBlue is the name GNOME Settings shows too.
public protocol SystemAliasWriter: AnyObject, Sendable {
    /// Sets the system's name for `device` to `alias`; an empty alias gives back the name the
    /// device advertises. Returns false, doing nothing, when the system does not know the device.
    func setAlias(_ alias: String, for device: DeviceID) async throws(AliasWriteError) -> Bool
}

/// Why the system's name for a device could not be set.
public struct AliasWriteError: Error, Equatable, Sendable {
    /// What the system said, in plain words.
    public let reason: String

    /// Creates an error carrying `reason`.
    public init(reason: String) { self.reason = reason }

    /// What happened, for a notice.
    public var message: String {
        L10n.format("The nickname could not be shared with other apps: {}", reason)
    }
}
