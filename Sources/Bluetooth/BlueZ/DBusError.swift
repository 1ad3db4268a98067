// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// What went wrong talking to BlueZ over D-Bus, in cases callers can act on.
public enum DBusError: Error, Equatable, Sendable {
    /// A value could not be turned into or read from D-Bus; the text says which.
    case invalidValue(String)
    case inProgress
    case notReady
    case failed(String)
    case notAuthorized
    case notPermitted
    /// The device wants to be paired first (an ATT Insufficient Authentication or Encryption).
    case notPaired
    case alreadyConnected
    case notConnected
    case doesNotExist
    case invalidArguments
    case notSupported
    case timedOut
    case serviceUnknown
    case noReply
    case accessDenied
    case disconnected
    /// Any other D-Bus error, by name, with the peer's own text.
    case other(name: String, detail: String)

    /// Maps a D-Bus error name (`org.bluez.Error.*` or a standard one) to a case.
    public init(name: String, detail: String) {
        switch name {
        case "org.bluez.Error.InProgress": self = .inProgress
        case "org.bluez.Error.NotReady": self = .notReady
        case "org.bluez.Error.Failed": self = .failed(detail)
        case "org.bluez.Error.NotAuthorized": self = .notAuthorized
        // bluetoothd's words for an ATT Insufficient Authentication or Encryption.
        case "org.bluez.Error.NotPermitted" where detail.localizedCaseInsensitiveContains("not paired"),
             "org.bluez.Error.NotPaired":
            self = .notPaired
        case "org.bluez.Error.NotPermitted": self = .notPermitted
        case "org.bluez.Error.AlreadyConnected": self = .alreadyConnected
        case "org.bluez.Error.NotConnected": self = .notConnected
        case "org.bluez.Error.DoesNotExist", "org.freedesktop.DBus.Error.UnknownObject": self = .doesNotExist
        case "org.bluez.Error.InvalidArguments", "org.freedesktop.DBus.Error.InvalidArgs": self = .invalidArguments
        case "org.bluez.Error.NotSupported", "org.freedesktop.DBus.Error.NotSupported": self = .notSupported
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            self = .serviceUnknown
        case "org.freedesktop.DBus.Error.NoReply": self = .noReply
        case "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut": self = .timedOut
        case "org.freedesktop.DBus.Error.AccessDenied": self = .accessDenied
        case "org.freedesktop.DBus.Error.Disconnected": self = .disconnected
        default: self = .other(name: name, detail: detail)
        }
    }

    /// Plain words for the user.
    public var message: String {
        switch self {
        case .invalidValue(let text): text
        case .inProgress: L10n.tr("Bluetooth is still busy with an earlier request.")
        case .notReady: L10n.tr("The Bluetooth adapter is not ready. Is it switched on?")
        case .failed(let detail):
            detail.isEmpty ? L10n.tr("The Bluetooth request failed.")
                : L10n.format("The Bluetooth request failed: {}", detail)
        case .notAuthorized: L10n.tr("The Bluetooth request was not authorized.")
        case .notPermitted: L10n.tr("The Bluetooth request is not permitted.")
        case .notPaired: L10n.tr("The device wants to be paired first.")
        case .alreadyConnected: L10n.tr("The device is already connected.")
        case .notConnected: L10n.tr("The device is not connected.")
        case .doesNotExist: L10n.tr("The Bluetooth adapter or device no longer exists.")
        case .invalidArguments: L10n.tr("The Bluetooth service rejected the request’s arguments.")
        case .notSupported: L10n.tr("The Bluetooth adapter or device does not support this.")
        case .timedOut: L10n.tr("The Bluetooth service did not answer in time.")
        case .serviceUnknown: L10n.tr("The Bluetooth service is not running.")
        case .noReply: L10n.tr("The Bluetooth service did not reply.")
        case .accessDenied: L10n.tr("Access to the Bluetooth service was denied.")
        case .disconnected: L10n.tr("The connection to the Bluetooth service was lost.")
        case .other(let name, let detail):
            L10n.format("The Bluetooth service reported an error ({}): {}", name, detail)
        }
    }
}
