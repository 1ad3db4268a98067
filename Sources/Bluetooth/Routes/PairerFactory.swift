// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Makes the pairer a source allows.
public enum PairerFactory {
    /// BlueZ's pairing for `bluez` and `auto` (through the bus the scanner shares), else a pairer
    /// that says why `source` cannot pair.
    /// On an H4 source, FavBlue's own Security Manager pairs on `connector` with `security`.
    public static func make(_ source: ScanSource, bus: BlueZBus? = nil, connector: DeviceConnector? = nil,
                            security: HCISecurity? = nil,
                            log: @escaping @Sendable (String) -> Void = { _ in }) -> DevicePairer {
        switch source {
        case .bluez(let adapter):
            return BlueZPairer(bus: bus ?? BlueZBus(), adapter: adapter, log: log)
        case .auto:
            return BlueZPairer(bus: bus ?? BlueZBus(), log: log)
        case .h4Unix, .h4TCP, .h4Serial:
            guard let connector = connector as? HCILinkConnector, let security else {
                return UnavailablePairer(reason: L10n.tr("There is no link to the Bluetooth adapter."))
            }
            return HCIPairer(connector: connector, security: security)
        case .hci:
            return UnavailablePairer(reason: L10n.tr(
                "Pairing is not possible over a raw HCI socket, because the system’s Bluetooth service would act on it too. Use the BlueZ source (--source bluez) to pair."))
        case .btsnoop:
            return UnavailablePairer(reason: L10n.tr("A replayed capture cannot pair with devices."))
        case .mqtt:
            return UnavailablePairer(reason: L10n.tr("Gateways only report what they hear: pair through this computer’s adapter."))
        case .demo:
            return UnavailablePairer(reason: L10n.tr("The demo’s devices cannot pair."))
        }
    }
}
