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
    /// the bonds), BlueZ otherwise. A central's pairing asks through the pairing dialog. The
    /// adapter is first asked once `identityKept` has read FavBlue's kept identity: asking sets
    /// the address both roles use on that controller, which bonded devices know it by.
    static func makePeripheral(source: ScanSource, link: HCILink?, bus: BlueZBus?, security: HCISecurity, store: Store,
                               pairing: Pairing, after identityKept: Task<Void, Never>,
                               log: @escaping @Sendable (String) -> Void) -> PeripheralRole {
        let port = PeripheralFactory.make(source, link: link, bus: bus, security: security, log: log)
        if let own = port as? HCIPeripheral {
            own.ask = { prompt in Task { @MainActor in pairing.askForCentral(prompt) } }
        }
        let role = PeripheralRole(port: port, store: store.peripheral, sealer: SensorKeyring())
        Task {
            await identityKept.value
            await role.load()
        }
        return role
    }

    /// What FavBlue's GATT server keeps of each bonded client (its subscriptions, its features,
    /// the database it knew) is kept beside the bonds, so it holds across a restart as across
    /// links: a phone bonded to FavBlue as a device is notified without subscribing again.
    /// A failure costs the phone a subscription after the next restart; it is logged.
    static func keepServedClients(of attributes: LocalAttributes, in bonds: BondsRepository, log: @escaping @Sendable (String) -> Void) {
        attributes.keeping { identity, memory in
            Task {
                do { try await bonds.keepServed(memory, for: identity) } catch { log("what the server keeps of \(identity) could not be stored: \(error)") }
            }
        }
        Task {
            do { attributes.restore(try await bonds.servedClients()) } catch { log("what the server kept of bonded clients could not be read: \(error)") }
        }
    }

    /// The page's names, in the user's language: a well-known service, characteristic or descriptor by its UUID.
    static func attributeName(_ uuid: BluetoothUUID) -> String? {
        if let name = ServiceNames.name(uuid128: uuid.text) { return L10n.ctx("Bluetooth service", name) }
        if let name = AttributeNames.characteristic(uuid.text) { return L10n.ctx("Bluetooth characteristic", name) }
        return AttributeNames.descriptor(uuid.text).map { L10n.ctx("Bluetooth descriptor", $0) }
    }
}
