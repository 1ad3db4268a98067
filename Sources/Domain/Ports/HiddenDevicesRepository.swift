// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where hidden devices and the "Only New Devices" mark are kept.
public protocol HiddenDevicesRepository: Sendable {
    /// Every hidden device, in no particular order.
    func all() async throws -> [HiddenDevice]
    /// Hides a device (again: its name and time are replaced).
    func hide(_ device: HiddenDevice) async throws
    /// Shows a device again; nothing happens if it was not hidden.
    func unhide(_ id: DeviceID) async throws
    /// The "Only New Devices" mark, or nil while it is off.
    func newDevicesMark() async throws -> NewDevicesMark?
    /// Sets the mark (nil turns it off and forgets the known devices).
    func setNewDevicesMark(_ mark: NewDevicesMark?) async throws
}
