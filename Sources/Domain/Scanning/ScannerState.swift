// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Why scanning is not possible or stopped, with what the user can do about it.
public enum ScanFailure: Error, Equatable, Sendable {
    /// No adapter or source at all (no Bluetooth sockets, missing socket path, missing file).
    case unavailable(String)
    /// The system refused access to the adapter.
    case permissionDenied(String)
    /// The source stopped answering or went away mid-scan.
    case disconnected(String)
    /// The controller answered with an error or nonsense.
    case controller(String)
    /// The source text or file could not be understood.
    case badSource(String)
    /// The system's Bluetooth service (BlueZ) refused a request: a policy or an authorisation said no.
    case serviceRefused(String)
    /// The adapter is switched off; it can be switched on from FavBlue.
    case adapterOff
    /// The adapter is blocked by airplane mode or rfkill; FavBlue cannot switch it on.
    case adapterBlocked

    /// What happened, in plain words.
    public var message: String {
        switch self {
        case .unavailable(let detail): return L10n.format("No Bluetooth adapter can be used: {}", detail)
        case .permissionDenied(let detail): return L10n.format("Access to the Bluetooth adapter was denied: {}", detail)
        case .disconnected(let detail): return L10n.format("The Bluetooth adapter stopped answering: {}", detail)
        case .controller(let detail): return L10n.format("The Bluetooth adapter reported an error: {}", detail)
        case .badSource(let detail): return L10n.format("The Bluetooth source cannot be used: {}", detail)
        case .serviceRefused(let detail): return L10n.format("The system’s Bluetooth service refused: {}", detail)
        case .adapterOff: return L10n.tr("Bluetooth is off.")
        case .adapterBlocked: return L10n.tr("Bluetooth is blocked, so it cannot be turned on here.")
        }
    }

    /// What to do next.
    public var suggestion: String {
        switch self {
        case .unavailable:
            return L10n.tr("Plug in or switch on a Bluetooth adapter and try again, or try the demo.")
        case .permissionDenied:
            return L10n.tr("Raw HCI access needs extra rights: run “sudo setcap cap_net_raw,cap_net_admin+eip $(command -v favblue)” once, then try again.")
        case .disconnected:
            return L10n.tr("Check that the adapter is still connected, then try again.")
        case .controller:
            return L10n.tr("Try again; if it keeps failing, reset the adapter by unplugging it.")
        case .badSource:
            return L10n.tr("Check the source given with --source, or try the demo.")
        case .serviceRefused:
            return L10n.tr("Check that you may use Bluetooth on this computer (a local session, or the “bluetooth” group), then try again.")
        case .adapterOff:
            return L10n.tr("Turn Bluetooth on to find devices nearby.")
        case .adapterBlocked:
            return L10n.tr("Turn off airplane mode, or unblock Bluetooth with “rfkill unblock bluetooth”, then try again.")
        }
    }
}

/// The scanner's lifecycle, as the user sees it.
public enum ScannerState: Equatable, Sendable {
    /// Not started.
    case idle
    /// Opening the source and setting up the controller.
    case starting
    /// Receiving reports.
    case scanning
    /// Between windows of a periodic scan.
    case waiting
    /// Stopped by the user.
    case paused
    /// The source ended normally (a replay finished).
    case finished
    /// Cannot scan; see the failure.
    case failed(ScanFailure)
}
