// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A device the user hid from the Scanner, with the name it had then, so
/// Preferences can list it by name when it is no longer around.
public struct HiddenDevice: Equatable, Sendable {
    public let id: DeviceID
    /// The name shown when it was hidden; nil for an unnamed device.
    public let name: String?
    public let hiddenAt: Date

    public init(id: DeviceID, name: String?, hiddenAt: Date) {
        self.id = id
        self.name = name
        self.hiddenAt = hiddenAt
    }
}

/// "Only New Devices": the devices known when the user turned it on, and when that was.
/// A device is new when it is not among them, so the mark holds across restarts.
public struct NewDevicesMark: Equatable, Sendable {
    public let since: Date
    public let known: Set<DeviceID>

    public init(since: Date, known: Set<DeviceID>) {
        self.since = since
        self.known = known
    }

    /// Whether `id` was first heard after the mark.
    public func isNew(_ id: DeviceID) -> Bool { !known.contains(id) }
}
