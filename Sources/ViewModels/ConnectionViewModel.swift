// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The connection bar's and the detail page's window on the one connection: where it
/// stands, its unread count, and the intents to connect and end it. Domain's
/// `ChatSessions` owns all of it; this model only reads it and forwards the intents.
@MainActor
public final class ConnectionViewModel {
    // MARK: Borrowed
    private let sessions: ChatSessions

    /// A window on `sessions`.
    public init(sessions: ChatSessions) {
        self.sessions = sessions
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { sessions.observe(handler) }

    // MARK: State

    /// Where the one connection stands.
    public var state: ConnectionState { sessions.state }
    /// The primary services of the connected device, once discovered.
    public var services: [ServiceID] { sessions.services }
    /// Messages received since the chat of their device was last shown.
    public var unread: Int { sessions.unread }
    /// The device of the last connection that failed or ended on its own, and why.
    public var lastEnded: (device: DeviceID, reason: String)? { sessions.lastEnded }
    /// Why the attempt under way goes on at another address, in words, while it does.
    public var connectingNote: String? { sessions.connectingNote }
    /// Whether the connected device has a Device Manager: its page has that to show, and a
    /// missing chat is nothing to point out there.
    public var hasDeviceManager: Bool { sessions.services.contains { $0.id == GATTSMPTransport.service } }
    /// Whether `device`'s last attempt failed because it wants to be paired first.
    public func wantsPairing(_ device: DeviceID) -> Bool { sessions.wantsPairing == device }
    /// The badge on Open Chat: nil, "1"–"99" or "...".
    public var badge: String? { UnreadBadge.text(for: unread) }
    /// "N unread messages", for the badge's accessible description.
    public var unreadDescription: String { L10n.plural("{} unread message", "{} unread messages", unread) }
    /// Why this source can never connect (a replayed capture); nil when it can.
    public var unavailableReason: String? { sessions.unavailableReason }
    /// Why `device` cannot be connected through this source (a demo device that is not the
    /// demo chat); nil when it may.
    public func unavailableReason(for device: DeviceID) -> String? { sessions.unavailableReason(for: device) }
    /// Whether the chat with the connected device can send now.
    public var canSend: Bool { sessions.canSend }
    /// Whether `device` is the one connected.
    public func isConnected(to device: DeviceID) -> Bool {
        if case .connected(device, _) = sessions.state { return true }
        return false
    }
    /// Whether the connected device's signal is read from the link while connected (the HCI
    /// route); through BlueZ the figure stands still at the last one heard.
    public var readsSignalWhileConnected: Bool { sessions.readsSignalWhileConnected }

    /// Messages of `device` not yet read: of the connection, or left when it ended.
    public func unread(of device: DeviceID) -> Int { sessions.unread(of: device) }

    /// Whether there is a chat with `device` to read: this session's messages, else the stored history.
    public func hasHistory(with device: DeviceID) async -> Bool {
        if hasMessagesThisSession(with: device) { return true }
        return ((try? await sessions.storedCount(of: device)) ?? 0) > 0
    }

    /// Whether this session exchanged messages with `device`.
    public func hasMessagesThisSession(with device: DeviceID) -> Bool { !sessions.messages(of: device).isEmpty }

    /// The name `device` goes by, also once it stopped advertising.
    public func name(of device: DeviceID) -> String { sessions.name(of: device) }

    // MARK: Intents

    public func connect(to device: DeviceID) { sessions.connect(to: device) }
    public func cancel() { sessions.cancel() }
    public func disconnect() { sessions.disconnect() }
}
