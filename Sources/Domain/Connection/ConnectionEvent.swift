// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// What a `DeviceConnector` reports, in the order it happened.
public enum ConnectionEvent: Equatable, Sendable {
    /// The connection state changed.
    case state(ConnectionState)
    /// The primary services of the connected device, once discovered.
    case services(DeviceID, [ServiceID])
    /// A message arrived from the device (direction incoming, delivery sent).
    case received(ChatMessage)
}
