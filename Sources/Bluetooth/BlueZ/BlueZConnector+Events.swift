// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the system's Bluetooth service says while a device is connected: values notified,
/// the identity pairing revealed, services changed, and the connection's end.
extension BlueZConnector {
    public func bus(_ bus: BlueZBus, didReceive event: BlueZEvent) {
        switch event {
        case .signal(.propertiesChanged(let path, BlueZObjects.Interface.gattCharacteristic, let changed, _)):
            guard case .bytes(let value)? = changed["Value"] else { return }
            received(value, on: path)
        case .signal(.propertiesChanged(let path, BlueZObjects.Interface.device, let changed, _)):
            if case .bool(false)? = changed["Connected"] { ended(path: path, .ended) }
            if changed["Address"] != nil || changed["AddressType"] != nil { identityChanged(path: path) }
        case .signal(.interfacesAdded(let path, let interfaces)):
            if interfaces[BlueZObjects.Interface.gattService] != nil || interfaces[BlueZObjects.Interface.gattCharacteristic] != nil {
                gattChanged(under: path)
            }
        case .signal(.interfacesRemoved(let path, let interfaces)):
            if interfaces.contains(BlueZObjects.Interface.device) { ended(path: path, .ended) }
            if interfaces.contains(BlueZObjects.Interface.gattService) || interfaces.contains(BlueZObjects.Interface.gattCharacteristic) {
                gattChanged(under: path)
            }
            if interfaces.contains(BlueZObjects.Interface.adapter) {
                ended(under: path, .adapterGone(L10n.tr("the adapter was removed")))
            }
        case .serviceStopped:
            ended(under: "/", .adapterGone(L10n.tr("the system’s Bluetooth service stopped")))
        case .connectionLost:
            ended(under: "/", .adapterGone(L10n.tr("the connection to the system bus was lost")))
        case .signal, .serviceStarted:
            break
        }
    }

    func received(_ value: [UInt8], on path: String) {
        let notified: (DeviceID, UInt16)? = lock.withLock {
            guard let session, session.ready, let handle = session.subscribed[path] else { return nil }
            return (session.device, handle)
        }
        if let (device, handle) = notified {
            streams.emit(.notified(device, handle: handle, value: value, at: Date()))
            return
        }
        let device: DeviceID? = lock.withLock {
            guard let session, session.chat?.tx == path else { return nil }
            if session.ready { return session.device }
            session.early.append(value)
            return nil
        }
        if let device { streams.emit(.received(ChatMessage.received(value, from: device))) }
    }

    /// Pairing revealed the device's identity and BlueZ gave the object that address (as it
    /// does once it has the device's identity key): the connection is the identity's from now on.
    func identityChanged(path: String) {
        guard let properties = bus.objects[path, BlueZObjects.Interface.device], let identity = BlueZDevice.id(of: properties) else { return }
        let service: ChatService?? = lock.withLock {
            guard let session, session.path == path, session.device != identity else { return nil }
            session.device = identity
            return session.ready ? .some(session.chat?.service) : nil
        }
        if let service { streams.set(.connected(identity, service: service)) }
    }

    /// bluetoothd changed the connected device's GATT objects after they were resolved (it
    /// handled a Service Changed indication): what the browser found is stale.
    func gattChanged(under path: String) {
        let device: DeviceID? = lock.withLock {
            guard let session, session.ready, path.hasPrefix(session.path + "/") else { return nil }
            session.attributes = [:]
            session.subscribed = [:]
            return session.device
        }
        if let device { streams.emit(.servicesChanged(device)) }
    }

    /// The connected device's link went (not at the user's request): say why.
    func ended(path: String, _ failure: ConnectionFailure) {
        let ended: Bool = lock.withLock {
            guard let session, session.path == path, session.ready, !session.ending else { return false }
            self.session = nil
            return true
        }
        if ended { streams.set(.failed(failure)) }
    }

    func ended(under prefix: String, _ failure: ConnectionFailure) {
        let ended: Bool = lock.withLock {
            guard let session, session.path.hasPrefix(prefix), !session.ending else { return false }
            generation += 1
            self.session = nil
            return true
        }
        if ended { streams.set(.failed(failure)) }
    }
}
