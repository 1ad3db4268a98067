// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Makes the peripheral a source allows: FavBlue's own host on the H4 sources (the link the
/// scanner and the connector share), BlueZ for `bluez` and `auto`, else one that says why not.
public enum PeripheralFactory {
    public static func make(_ source: ScanSource, link: HCILink?, bus: BlueZBus? = nil, security: HCISecurity? = nil,
                            log: @escaping @Sendable (String) -> Void = { _ in }) -> DevicePeripheral {
        switch source {
        case .bluez(let adapter):
            return BlueZPeripheral(bus: bus ?? BlueZBus(), adapter: adapter, log: log)
        case .auto:
            return BlueZPeripheral(bus: bus ?? BlueZBus(), log: log)
        case .h4Unix, .h4TCP, .h4Serial:
            guard let link else { return UnavailablePeripheral(reason: L10n.tr("There is no link to the Bluetooth adapter.")) }
            return HCIPeripheral(link: link, security: security, log: log)
        case .hci:
            return UnavailablePeripheral(reason: L10n.tr(
                "Advertising is not possible over a raw HCI socket, because the system’s Bluetooth service would answer the connected devices too. Use the BlueZ source (--source bluez)."))
        case .btsnoop:
            return UnavailablePeripheral(reason: L10n.tr("A replayed capture cannot advertise or serve."))
        case .mqtt:
            return UnavailablePeripheral(reason: L10n.tr("Gateways only listen: advertise through this computer’s adapter."))
        case .demo:
            // An adapter and a phone of the demo's own: Act as a Device works whole without a radio.
            return DemoPeripheral()
        }
    }
}
