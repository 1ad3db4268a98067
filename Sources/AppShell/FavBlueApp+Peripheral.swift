// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Localization
import Persistence
import SecurityToolbox
import ViewModels

extension FavBlueApp {
    /// Act as a Device over the source's route: FavBlue's own host on H4 (sharing the link and
    /// the bonds), BlueZ otherwise. A central's pairing asks through the pairing dialog.
    static func makePeripheral(source: ScanSource, link: HCILink?, bus: BlueZBus?, security: HCISecurity, store: Store,
                               pairing: Pairing, log: @escaping @Sendable (String) -> Void) -> PeripheralRole {
        let port = PeripheralFactory.make(source, link: link, bus: bus, security: security, log: log)
        if let own = port as? HCIPeripheral {
            own.ask = { prompt in Task { @MainActor in pairing.askForCentral(prompt) } }
        }
        let role = PeripheralRole(port: port, store: store.peripheral, sealer: SensorKeyring())
        Task { await role.load() }
        return role
    }

    /// The page's names, in the user's language: a well-known service, characteristic or descriptor by its UUID.
    static func attributeName(_ uuid: BluetoothUUID) -> String? {
        if let name = ServiceNames.name(uuid128: uuid.text) { return L10n.ctx("Bluetooth service", name) }
        if let name = AttributeNames.characteristic(uuid.text) { return L10n.ctx("Bluetooth characteristic", name) }
        return AttributeNames.descriptor(uuid.text).map { L10n.ctx("Bluetooth descriptor", $0) }
    }
}
