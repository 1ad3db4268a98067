// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

// MARK: GATTAccess

extension BlueZConnector {
    /// The tree BlueZ resolved, from its object tree; handles come from the object paths.
    /// BlueZ keeps Generic Access (and, with its battery plugin, Battery) to itself: they are
    /// rebuilt from Device1's Name and Appearance and from Battery1, marked as the system's.
    public func discoverServices() async throws(GATTError) -> [GATTService] {
        guard let session = readySession() else { throw .notConnected }
        var (tree, paths) = bus.objects.gattTree(of: session.path)
        if !tree.contains(where: { $0.uuid == BluetoothUUID(0x1800) }) {
            tree.insert(Self.systemService(0x1800, [(0x2A00, SystemHandle.name), (0x2A01, SystemHandle.appearance)]), at: 0)
        }
        if !tree.contains(where: { $0.uuid == BluetoothUUID(0x180F) }), bus.objects[session.path, BlueZObjects.Interface.battery] != nil {
            tree.append(Self.systemService(0x180F, [(0x2A19, SystemHandle.battery)]))
        }
        lock.withLock { session.attributes = paths }
        return tree
    }

    /// Handles for the values the system read, above any BlueZ names an object by.
    enum SystemHandle {
        static let name: UInt16 = 0xFFF1
        static let appearance: UInt16 = 0xFFF2
        static let battery: UInt16 = 0xFFF3
    }

    private static func systemService(_ uuid: UInt16, _ values: [(UInt16, UInt16)]) -> GATTService {
        GATTService(uuid: BluetoothUUID(uuid), name: ServiceNames.name(uuid), start: values[0].1 - 1, end: values.last!.1,
                           characteristics: values.map { uuid, handle in
                               GATTCharacteristic(uuid: BluetoothUUID(uuid), name: AttributeNames.characteristic(BluetoothUUID(uuid)), handle: handle - 1,
                                                  valueHandle: handle, properties: [.read])
                           }, fromSystem: true)
    }

    /// A value the system read itself (Device1's Name and Appearance, Battery1's Percentage).
    private func systemValue(at handle: UInt16, of path: String) -> [UInt8]? {
        let device = bus.objects[path, BlueZObjects.Interface.device]
        switch handle {
        case SystemHandle.name: return device?["Name"]?.stringValue.map { Array($0.utf8) } ?? []
        case SystemHandle.appearance:
            if case .uint16(let value)? = device?["Appearance"] { return [UInt8(value & 0xFF), UInt8(value >> 8)] }
            return [0, 0]
        case SystemHandle.battery:
            return BlueZDevice.battery(of: bus.objects[path, BlueZObjects.Interface.battery]).map { [UInt8($0)] }
        default: return nil
        }
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        if let session = readySession(), let value = systemValue(at: handle, of: session.path) { return value }
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

    /// BlueZ writes long values in parts (Prepare/Execute) itself where they need it. A command
    /// goes through AcquireWrite's socket where BlueZ offers one.
    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        let (path, interface) = try attribute(at: handle)
        if !withResponse, interface == BlueZObjects.Interface.gattCharacteristic,
           try await writeCommandThroughSocket(value, path: path) {
            return
        }
        let options: [String: DBusValue] = interface == BlueZObjects.Interface.gattCharacteristic
            ? ["type": .string(withResponse ? "request" : "command")] : [:]
        do {
            try await bus.call(path, interface, "WriteValue", [.bytes(value), .vardict(options)], timeout: callTimeout)
        } catch {
            throw GATTError(error, reading: false)
        }
    }

    /// ATT_MTU − 3, as BlueZ gives each characteristic's link MTU ("MTU", BlueZ 5.62 and later);
    /// 20, the least, where it does not say.
    public func writeCommandLimit() async -> Int {
        guard let session = readySession() else { return 20 }
        let paths = lock.withLock { session.attributes.values.filter { $0.1 == BlueZObjects.Interface.gattCharacteristic }.map(\.0) }
        let objects = bus.objects
        for path in paths {
            if case .uint16(let mtu)? = objects[path, BlueZObjects.Interface.gattCharacteristic]?["MTU"] { return max(Int(mtu) - 3, 20) }
        }
        return 20
    }

    /// AcquireNotify's socket where BlueZ offers one for notifications, else StartNotify; BlueZ
    /// writes the descriptor and confirms indications itself.
    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        let (path, _) = try attribute(at: handle)
        guard let session = readySession() else { throw .notConnected }
        if on {
            lock.withLock { session.subscribed[path] = handle }
            do {
                if !indicate, try await notifyThroughSocket(path: path) { return }
            } catch {
                lock.withLock { session.subscribed[path] = nil }
                throw error
            }
        } else if stopNotifyThroughSocket(path: path) {
            lock.withLock { session.subscribed[path] = nil }
            return
        }
        do {
            if on {
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
