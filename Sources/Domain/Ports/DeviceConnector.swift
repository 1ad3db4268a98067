// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Why a chat message could not be written.
public enum ChatSendError: Error, Equatable, Sendable {
    /// There is no connection with a chat channel.
    case notConnected
    /// The device refused the write; carries its reason.
    case rejected(String)
    /// The connection ended before the write was done.
    case connectionLost
    /// The device did not acknowledge the write in time.
    case timedOut
    /// The device answered Insufficient Authentication or Encryption: it must be paired first.
    case needsPairing

    /// Why, in plain words, next to "Not sent".
    public var message: String {
        switch self {
        case .notConnected: return L10n.tr("Not connected to the device.")
        case .rejected(let detail): return L10n.format("The device refused the message: {}", detail)
        case .connectionLost: return L10n.tr("The connection ended before the message was sent.")
        case .timedOut: return L10n.tr("The device did not confirm the message in time.")
        case .needsPairing: return L10n.tr("The device wants to be paired first. Pair it on its page, then send again.")
        }
    }
}

/// Connects one device at a time and carries its chat.
///
/// Implemented by the HCI route (`HCIConnector`) and, later, BlueZ. Calls return at once
/// and never block the caller; the work runs on the adapter's own threads. What happens is
/// reported through `events`, a `Feed` fed from those threads: consume it in a
/// `Task { @MainActor in for await event in connector.events { … } }`, which GtkKit's
/// MainLoop runs while GTK owns the main thread (DESIGN.md §3), as with `DeviceScanner`.
public protocol DeviceConnector: GATTAccess {
    /// Every event from now on, starting with the current state. Each access makes a new stream.
    var events: Feed<ConnectionEvent> { get }
    /// The state right now.
    var state: ConnectionState { get }
    /// Connects to `device` and opens its chat channel, first ending any other connection.
    /// Routes that do not resolve addresses themselves reach it where it is heard now (its
    /// newest private address), and follow it when it moves meanwhile; reports keep naming `device`.
    func connect(to device: DeviceID)
    /// Gives up a connection attempt under way; the state goes back to idle.
    func cancel()
    /// Ends the connection; the state goes back to idle.
    func disconnect()
    /// Ends the connection as the app quits, returning once the device was told (at most
    /// `timeout` seconds), so the transport below can close after it; it blocks the caller.
    func disconnectBeforeQuitting(within timeout: TimeInterval)
    /// Writes `text` to the device, split as the link requires. Returns once every part was
    /// written (acknowledged, where the device acknowledges writes).
    func send(_ text: String) async throws(ChatSendError)
    /// Why this source can never connect (a replayed capture), for a page to say before the user tries; nil when it can.
    var unavailableReason: String? { get }
    /// Whether the connected device's signal keeps coming while connected (as
    /// `ConnectionEvent.signal`, or in adverts it goes on sending): a connected device
    /// normally stops advertising, so otherwise none is heard.
    var readsSignalWhileConnected: Bool { get }
    /// Why `device` cannot be connected through this source, said before the user tries; nil when it may.
    func unavailableReason(for device: DeviceID) -> String?
}

extension DeviceConnector {
    /// Routes whose disconnect goes out on its own (BlueZ flushes its bus at quit) only ask.
    public func disconnectBeforeQuitting(within timeout: TimeInterval) { disconnect() }
    public var unavailableReason: String? { nil }
    public var readsSignalWhileConnected: Bool { false }
    public func unavailableReason(for device: DeviceID) -> String? { unavailableReason }
}
