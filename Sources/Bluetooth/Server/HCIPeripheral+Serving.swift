// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The GATT server: what centrals ask, what FavBlue sends them, and the setup served.
extension HCIPeripheral {
    /// An ATT PDU from a central (the read thread): answered at once, told as events.
    func receiveATT(_ payload: [UInt8], on link: PeripheralLink) {
        link.lock.lock()
        let (answer, notes) = link.server.receive(payload)
        var next: (ServedCharacteristicID, [UInt8])?
        let confirmed = notes.contains(.confirmed) ? link.indicating : nil
        if notes.contains(.confirmed) {
            link.indicating = nil
            if !link.indications.isEmpty { next = link.indications.removeFirst() }
        }
        link.lock.unlock()
        if let answer { link.send(att: answer) }
        for note in notes {
            switch note {
            case .mtu(let mtu): feed.yield(.mtu(link.central, mtu))
            case .read(let id): feed.yield(.read(link.central, id))
            case .wrote(let id, let value, let withResponse): feed.yield(.wrote(link.central, id, value, withResponse: withResponse))
            case .subscribed(let id, let indicate): feed.yield(.subscribed(link.central, id, indicate: indicate))
            case .unsubscribed(let id): feed.yield(.unsubscribed(link.central, id))
            case .confirmed: if let confirmed { feed.yield(.confirmed(link.central, confirmed)) }
            case .refused(_, _, let code): feed.yield(.refused(link.central, code.message))
            }
        }
        if let (id, value) = next { indicate(value, of: id, on: link) }
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

    /// Notifies or indicates `value` to every central subscribed; returns how many. Never blocks.
    @discardableResult
    public func sendNow(_ value: [UInt8], of characteristic: ServedCharacteristicID) -> Int {
        let database = attributes.database
        let current = lock.withLock { Array(links.values) }
        guard let valueHandle = database.valueHandles[characteristic],
              let cccd = database.configurationHandles[characteristic] else { return 0 }
        database.setValue(value, at: valueHandle)
        var count = 0
        for link in current {
            link.lock.lock()
            let bits = link.server.configuration(at: cccd)
            let mtu = link.server.mtu
            link.lock.unlock()
            if bits & 1 != 0 {
                // Cut to ATT_MTU − 3, as the Core allows (Vol 3, Part F, §3.4.7.1).
                link.send(att: ATTPDU.notification(handle: valueHandle, value: Array(value.prefix(mtu - 3))).bytes)
                count += 1
            } else if bits & 2 != 0 {
                indicate(value, of: characteristic, on: link)
                count += 1
            }
        }
        return count
    }

    /// Sends an indication now, or queues it behind the one awaiting confirmation (§3.4.7.2).
    func indicate(_ value: [UInt8], of characteristic: ServedCharacteristicID, on link: PeripheralLink) {
        guard let valueHandle = attributes.database.valueHandles[characteristic] else { return }
        link.lock.lock()
        guard link.indicating == nil else {
            link.indications.append((characteristic, value))
            link.lock.unlock()
            return
        }
        link.indicating = characteristic
        link.server.awaitingConfirmation = true
        let mtu = link.server.mtu
        link.lock.unlock()
        link.send(att: ATTPDU.indication(handle: valueHandle, value: Array(value.prefix(mtu - 3))).bytes)
    }
}
