// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What a `DeviceConnector` reports, in the order it happened.
public enum ConnectionEvent: Equatable, Sendable {
    /// The connection state changed.
    case state(ConnectionState)
    /// The primary services of the connected device, once discovered.
    case services(DeviceID, [ServiceID])
    /// A message arrived from the device (direction incoming, delivery sent).
    case received(ChatMessage)
    /// A notification or indication of a characteristic the browser subscribed to, at its value
    /// handle, timed as it arrived.
    case notified(DeviceID, handle: UInt16, value: [UInt8], at: Date)
    /// The connected device's signal, dBm, read from the link (routes that can; see
    /// `DeviceConnector.readsSignalWhileConnected`).
    case signal(DeviceID, rssi: Int, at: Date)
    /// The connected device's services changed (a firmware update, a Service Changed
    /// indication the system handled): what was discovered is stale.
    case servicesChanged(DeviceID)
    /// The device being connected took a new address meanwhile; the attempt goes on at `address`.
    case retrying(DeviceID, at: DeviceID)
    /// The link was made but the device never answered it; it is dropped and made once more.
    case unanswered(DeviceID)
}
