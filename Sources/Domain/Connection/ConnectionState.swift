// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// The GATT service a chat runs over.
public enum ChatService: String, Equatable, Sendable, CaseIterable {
    /// FavBlue's own chat service, 7E57C000-2C8F-4F3C-9F91-8577E1891234.
    case chat
    /// The Nordic UART Service, 6E400001-B5A3-F393-E0A9-E50E24DCCA9E, the fallback.
    case nordicUART

    /// The service UUID in canonical upper-case text.
    public var uuid: String {
        switch self {
        case .chat: return "7E57C000-2C8F-4F3C-9F91-8577E1891234"
        case .nordicUART: return "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"
        }
    }

    /// The service's name as shown to the user.
    public var displayName: String {
        switch self {
        case .chat: return L10n.tr("FavBlue Chat")
        case .nordicUART: return L10n.tr("Nordic UART")
        }
    }
}

/// Why a connection could not be made or ended without the user asking, in plain words.
public enum ConnectionFailure: Error, Equatable, Sendable {
    /// The device did not answer the connection request in time (seconds waited).
    case noAnswer(seconds: Int)
    /// The link was lost: the device went out of range or stopped answering.
    case linkLost
    /// The device ended the connection.
    case endedByDevice
    /// The controller could not establish the connection (HCI error code).
    case notEstablished(code: UInt8)
    /// The controller refused or reported an error (HCI error code, or 0 when it gave none).
    case controller(code: UInt8)
    /// The Bluetooth adapter or link to it went away; carries its explanation.
    case adapterGone(String)
    /// The device connected but did not answer GATT as expected; carries the detail.
    case protocolError(String)
    /// This source cannot make connections; carries why and what to do instead.
    case notSupported(String)
    /// The connection ended for another reason (HCI error code).
    case other(code: UInt8)
    /// The connection ended, and the system did not say why.
    case ended
    /// The system's Bluetooth service (BlueZ) could not connect or went on no further; carries what it said.
    case service(String)
    /// The device answered Insufficient Authentication or Encryption: it must be paired first.
    case needsPairing

    /// What happened, in plain words, for a toast or a subtitle.
    public var message: String {
        switch self {
        case .noAnswer(let seconds):
            return L10n.plural("The device did not answer within {} second.",
                               "The device did not answer within {} seconds.", seconds)
        case .linkLost:
            return L10n.tr("The connection timed out. The device may be out of range.")
        case .endedByDevice:
            return L10n.tr("The device ended the connection.")
        case .notEstablished:
            return L10n.tr("The connection could not be established.")
        case .controller(let code):
            return L10n.format("The Bluetooth adapter refused to connect (error 0x{}).", hex(code))
        case .adapterGone(let detail):
            return L10n.format("The Bluetooth adapter stopped answering: {}", detail)
        case .protocolError(let detail):
            return L10n.format("The device did not answer as expected: {}", detail)
        case .notSupported(let detail):
            return detail
        case .other(let code):
            return L10n.format("The connection ended (error 0x{}).", hex(code))
        case .ended:
            return L10n.tr("The connection ended.")
        case .service(let detail):
            return L10n.format("The system’s Bluetooth service could not connect: {}", detail)
        case .needsPairing:
            return L10n.tr("The device wants to be paired first. Press Pair, then connect again.")
        }
    }

    private func hex(_ code: UInt8) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}

/// The one connection's lifecycle, as the user sees it.
///
/// `failed` is also where a connection goes when it ends without the user asking (the
/// device left, the adapter went away); a disconnect the user asked for goes back to `idle`.
public enum ConnectionState: Equatable, Sendable {
    /// No connection and none under way.
    case idle
    /// Connecting to the device and opening its chat channel.
    case connecting(DeviceID)
    /// Connected; `service` is the chat channel, or nil when the device offers no chat service.
    case connected(DeviceID, service: ChatService?)
    /// Ending the connection the user asked to end.
    case disconnecting(DeviceID)
    /// The last attempt failed or the connection ended; the reason says why.
    case failed(ConnectionFailure)

    /// The device connected or being connected, if any.
    public var device: DeviceID? {
        switch self {
        case .connecting(let id), .connected(let id, _), .disconnecting(let id): return id
        case .idle, .failed: return nil
        }
    }

    /// Whether a chat can be sent right now.
    public var canChat: Bool {
        if case .connected(_, service: .some) = self { return true }
        return false
    }

    /// The state in a few words, for a subtitle.
    public var summary: String {
        switch self {
        case .idle: return L10n.tr("Not connected")
        case .connecting: return L10n.tr("Connecting…")
        case .connected(_, service: .some): return L10n.tr("Connected")
        case .connected(_, service: nil): return L10n.tr("Connected, no chat service")
        case .disconnecting: return L10n.tr("Disconnecting…")
        case .failed(let failure): return failure.message
        }
    }
}
