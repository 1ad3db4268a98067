// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

// MARK: GATTAccess

extension BlueZConnector {
    /// The tree BlueZ resolved, from its object tree; handles come from the object paths.
    public func discoverServices() async throws(GATTError) -> [GATTService] {
        guard let session = readySession() else { throw .notConnected }
        let (tree, paths) = bus.objects.gattTree(of: session.path)
        lock.withLock { session.attributes = paths }
        return tree
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        let (path, interface) = try attribute(at: handle)
        let value: DBusValue
        do {
            value = try await bus.call(path, interface, "ReadValue", [.vardict([:])], timeout: callTimeout)
        } catch {
            throw GATTError(error, reading: true)
        }
        guard case .bytes(let bytes)? = value.items?.first else {
            throw .device(message: L10n.tr("The system’s Bluetooth service answered with something other than a value."),
                          wantsPairing: false)
        }
        return bytes
    }

    /// BlueZ writes long values in parts (Prepare/Execute) itself where they need it.
    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        let (path, interface) = try attribute(at: handle)
        let options: [String: DBusValue] = interface == BlueZObjects.Interface.gattCharacteristic
            ? ["type": .string(withResponse ? "request" : "command")] : [:]
        do {
            try await bus.call(path, interface, "WriteValue", [.bytes(value), .vardict(options)], timeout: callTimeout)
        } catch {
            throw GATTError(error, reading: false)
        }
    }

    /// StartNotify or StopNotify; BlueZ writes the descriptor and confirms indications itself.
    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        let (path, _) = try attribute(at: handle)
        guard let session = readySession() else { throw .notConnected }
        do {
            if on {
                lock.withLock { session.subscribed[path] = handle }
                try await bus.call(path, BlueZObjects.Interface.gattCharacteristic, "StartNotify", timeout: callTimeout)
            } else {
                try await bus.call(path, BlueZObjects.Interface.gattCharacteristic, "StopNotify", timeout: callTimeout)
                lock.withLock { session.subscribed[path] = nil }
            }
        } catch {
            if on { lock.withLock { session.subscribed[path] = nil } }
            throw GATTError(error, reading: true)
        }
    }

    private func readySession() -> Session? {
        lock.withLock { session.flatMap { $0.ready ? $0 : nil } }
    }

    private func attribute(at handle: UInt16) throws(GATTError) -> (String, String) {
        guard let session = readySession() else { throw .notConnected }
        guard let found = lock.withLock({ session.attributes[handle] }) else { throw .vanished }
        return found
    }
}

extension GATTError {
    /// What BlueZ said, in the port's words. bluetoothd turns the device's ATT errors into its
    /// own: NotPermitted ("Read not permitted", or "Not paired"), NotAuthorized, NotSupported,
    /// InvalidValueLength, and Failed with "ATT error: 0x…" for the rest.
    init(_ error: DBusError, reading: Bool) {
        switch error {
        case .notPaired: self = .device(message: ATTErrorCode.insufficientAuthentication.message, wantsPairing: true)
        case .notPermitted:
            self = .device(message: (reading ? ATTErrorCode.readNotPermitted : .writeNotPermitted).message, wantsPairing: false)
        case .notAuthorized: self = .device(message: ATTErrorCode.insufficientAuthorization.message, wantsPairing: false)
        case .notSupported: self = .device(message: ATTErrorCode.requestNotSupported.message, wantsPairing: false)
        case .other(name: "org.bluez.Error.InvalidValueLength", _):
            self = .device(message: ATTErrorCode.invalidAttributeValueLength.message, wantsPairing: false)
        case .other(name: "org.bluez.Error.InvalidOffset", _):
            self = .device(message: ATTErrorCode.invalidOffset.message, wantsPairing: false)
        case .failed(let detail):
            if let range = detail.range(of: "ATT error: 0x"), let raw = UInt8(detail[range.upperBound...].prefix(2), radix: 16) {
                let code = ATTErrorCode(raw: raw)
                self = .device(message: code.message, wantsPairing: code.wantsPairing)
            } else {
                self = .device(message: error.message, wantsPairing: false)
            }
        case .timedOut, .noReply: self = .timedOut
        case .notConnected, .disconnected, .serviceUnknown: self = .connectionLost
        case .doesNotExist: self = .vanished
        default: self = .device(message: error.message, wantsPairing: false)
        }
    }
}
