// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The GATT server: what centrals ask, what FavBlue sends them, and the setup served.
extension HCIPeripheral {
    /// An ATT PDU from a central (the read thread): answered at once, told as events.
    func receiveATT(_ payload: [UInt8], on link: LELink) {
        let (notes, confirmed) = link.answer(payload)
        tell(notes, on: link, confirmed: confirmed)
    }

    /// What the server noted of `link`'s central, as the role's events; `confirmed` is the
    /// characteristic a confirmation was for.
    func tell(_ notes: [ATTServerNote], on link: LELink, confirmed: ServedCharacteristicID? = nil) {
        for note in notes {
            switch note {
            case .mtu(let mtu): feed.yield(.mtu(link.central, mtu))
            case .read(let id): feed.yield(.read(link.central, id))
            case .wrote(let id, let value, let withResponse): feed.yield(.wrote(link.central, id, value, withResponse: withResponse))
            case .subscribed(let id, let indicate): feed.yield(.subscribed(link.central, id, indicate: indicate))
            case .unsubscribed(let id): feed.yield(.unsubscribed(link.central, id))
            case .confirmed: if let confirmed { feed.yield(.confirmed(link.central, confirmed)) }
            case .refused(_, _, .databaseOutOfSync):
                // The words of 0x12 speak to a client; here FavBlue is the server that said it.
                feed.yield(.refused(link.central, L10n.tr("What is served changed since it last connected, so it was told to find the services again.")))
            case .refused(_, _, let code): feed.yield(.refused(link.central, code.message))
            }
        }
    }

    // MARK: DevicePeripheral

    public func serve(_ setup: ServerSetup) async throws(PeripheralError) {
        do { try attributes.serve(setup) } catch { throw .refused(error.message) }
        // Links open now keep the tree they discovered until they connect again.
        log("serving \(setup.services.count) services as “\(setup.name)”")
    }

    public func stopServing() async { attributes.stopServing() }

    /// The served tree, handle for handle (for tests and the server page).
    public var servedTree: [GATTService] { attributes.database.tree }

    public func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async {
        let database = attributes.database
        guard let handle = database.valueHandles[characteristic] else { return }
        database.setValue(value, at: handle)
    }

    @discardableResult
    public func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int {
        sendNow(value, of: characteristic)
    }

    /// Notifies or indicates `value` to every peer subscribed; returns how many. Never blocks.
    @discardableResult
    public func sendNow(_ value: [UInt8], of characteristic: ServedCharacteristicID) -> Int {
        let database = attributes.database
        // Every link answers from this database, so a device FavBlue connected to gets it too.
        let current = lock.withLock { host }?.links.all ?? []
        guard let valueHandle = database.valueHandles[characteristic],
              let cccd = database.configurationHandles[characteristic] else { return 0 }
        database.setValue(value, at: valueHandle)
        return current.filter { $0.push(value, of: characteristic, at: valueHandle, configuration: cccd) }.count
    }
}
