// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The server as a GATT application BlueZ serves (doc/org.bluez.GattManager.rst,
/// org.bluez.GattCharacteristic.rst): an ObjectManager root, then a service, characteristic and
/// descriptor object each. BlueZ numbers the handles and adds Generic Access and Attribute.
extension BlueZPeripheral {
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let descriptorInterface = "org.bluez.GattDescriptor1"

    /// BlueZ's flags for a characteristic: its properties, and the security each access needs.
    static func flags(_ c: ServedCharacteristic) -> [String] {
        var flags: [String] = []
        let p = c.properties
        if p.contains(.broadcast) { flags.append("broadcast") }
        if p.contains(.read) {
            flags.append(c.readSecurity == .none ? "read" : c.readSecurity == .encrypted ? "encrypt-read" : "encrypt-authenticated-read")
        }
        if p.contains(.writeWithoutResponse) { flags.append("write-without-response") }
        if p.contains(.write) {
            flags.append(c.writeSecurity == .none ? "write" : c.writeSecurity == .encrypted ? "encrypt-write" : "encrypt-authenticated-write")
        }
        if p.contains(.notify) { flags.append("notify") }
        if p.contains(.indicate) { flags.append("indicate") }
        if p.contains(.signedWrite) { flags.append("authenticated-signed-writes") }
        return flags
    }

    static func descriptorFlags(_ d: ServedDescriptor) -> [String] {
        var flags: [String] = []
        if d.readable { flags.append(d.readSecurity == .none ? "read" : d.readSecurity == .encrypted ? "encrypt-read" : "encrypt-authenticated-read") }
        if d.writable {
            flags.append(d.writeSecurity == .none ? "write" : d.writeSecurity == .encrypted ? "encrypt-write" : "encrypt-authenticated-write")
        }
        return flags
    }

    /// Every object of the application with its interface's properties, as GetManagedObjects answers.
    func managedObjects(_ app: Application) -> [(path: String, interface: String, properties: [String: DBusValue])] {
        var out: [(String, String, [String: DBusValue])] = []
        let base = "\(Self.root)/app"
        for (s, service) in app.setup.services.enumerated() {
            let servicePath = "\(base)/service\(s)"
            out.append((servicePath, Self.serviceInterface, ["UUID": .string(service.uuid.longText), "Primary": .bool(service.primary)]))
            for (c, characteristic) in service.characteristics.enumerated() {
                let id = ServedCharacteristicID(service: s, characteristic: c)
                let path = "\(servicePath)/char\(c)"
                out.append((path, Self.characteristicInterface, [
                    "UUID": .string(characteristic.uuid.longText), "Service": .objectPath(servicePath),
                    "Value": .bytes(lock.withLock { app.values[id] } ?? characteristic.value),
                    "Notifying": .bool(lock.withLock { app.notifying.contains(id) }),
                    "Flags": .array(elementType: "s", Self.flags(characteristic).map { .string($0) }),
                ]))
                for (d, descriptor) in Self.descriptors(of: characteristic).enumerated() {
                    out.append(("\(path)/desc\(d)", Self.descriptorInterface, [
                        "UUID": .string(descriptor.uuid.longText), "Characteristic": .objectPath(path),
                        "Value": .bytes(descriptor.value),
                        "Flags": .array(elementType: "s", Self.descriptorFlags(descriptor).map { .string($0) }),
                    ]))
                }
            }
        }
        return out
    }

    /// The descriptors FavBlue hands BlueZ: the description and format as plain ones, then the rest.
    static func descriptors(of c: ServedCharacteristic) -> [ServedDescriptor] {
        var list: [ServedDescriptor] = []
        if let text = c.userDescription { list.append(ServedDescriptor(uuid: ServerSetup.userDescription, value: Array(text.utf8))) }
        if let format = c.presentation { list.append(ServedDescriptor(uuid: ServerSetup.presentationFormat, value: format.bytes)) }
        return list + c.descriptors
    }

    public func serve(_ setup: ServerSetup) async throws(PeripheralError) {
        let adapter = try await adapter()
        await stopServing()
        let connection: DBusConnection
        do { connection = try await bus.connect() } catch { throw .unavailable(error.message) }
        let app = Application(setup: setup)
        do {
            for (path, interface, properties) in managedObjects(app) {
                let xml = interface == Self.serviceInterface ? Self.serviceXML
                    : interface == Self.characteristicInterface ? Self.characteristicXML : Self.descriptorXML
                app.exports.append(try connection.export(path: path, xml: xml, property: { [weak self, weak app] name in
                    guard let self, let app else { return nil }
                    return self.managedObjects(app).first { $0.path == path }?.properties[name]
                }) { [weak self, weak app] call in
                    guard let self, let app else { return call.fail("org.bluez.Error.Failed", "Not served") }
                    self.handle(call, at: path, in: app)
                })
            }
            let root = "\(Self.root)/app"
            app.exports.append(try connection.export(path: root, xml: Self.managerXML) { [weak self, weak app] call in
                guard let self, let app else { return call.fail("org.bluez.Error.Failed", "Not served") }
                var objects: [String: [String: DBusValue]] = [:]
                for (path, interface, properties) in self.managedObjects(app) {
                    objects[path, default: [:]][interface] = .vardict(properties)
                }
                call.reply([.dictionary(keyType: "o", valueType: "a{sa{sv}}", objects.keys.sorted().map { path in
                    .init(.objectPath(path), .dictionary(keyType: "s", valueType: "a{sv}", objects[path]!.keys.sorted().map { name in
                        .init(.string(name), objects[path]![name]!)
                    }))
                })])
            })
            lock.withLock { application = app }
            try await bus.call(adapter, Self.gattManager, "RegisterApplication", [.objectPath(root), .vardict([:])])
        } catch {
            for export in app.exports { export.unexport() }
            lock.withLock { if application === app { application = nil } }
            if case .other(let name, _) = error, name.hasPrefix("org.freedesktop.DBus.Error.Unknown") {
                throw .unavailable(L10n.tr("The system’s Bluetooth service cannot serve GATT on this adapter."))
            }
            throw .refused(L10n.format("The system’s Bluetooth service refused the server: {}", error.message))
        }
        log("serving \(setup.services.count) services through BlueZ")
    }

    public func stopServing() async {
        guard let app = lock.withLock({ () -> Application? in
            defer { application = nil }
            return application
        }) else { return }
        if let adapter = bus.objects.adapter(named: adapterName) {
            _ = try? await bus.call(adapter, Self.gattManager, "UnregisterApplication", [.objectPath("\(Self.root)/app")])
        }
        for export in app.exports { export.unexport() }
    }

    /// The characteristic (and descriptor number) an object path names.
    private func locate(_ path: String, in app: Application) -> (ServedCharacteristicID, descriptor: Int?)? {
        let parts = path.dropFirst("\(Self.root)/app/".count).split(separator: "/")
        guard parts.count >= 2, let s = Int(parts[0].dropFirst("service".count)), let c = Int(parts[1].dropFirst("char".count)),
              s < app.setup.services.count, c < app.setup.services[s].characteristics.count else { return nil }
        let d = parts.count == 3 ? Int(parts[2].dropFirst("desc".count)) : nil
        return (ServedCharacteristicID(service: s, characteristic: c), d)
    }

    /// A request BlueZ forwards from a central (on the bus's thread): answered at once.
    private func handle(_ call: DBusMethodCall, at path: String, in app: Application) {
        guard let (id, descriptor) = locate(path, in: app) else { return call.fail("org.bluez.Error.Failed", "No such object") }
        let characteristic = app.setup.services[id.service].characteristics[id.characteristic]
        let options = call.arguments.last?.stringKeyed ?? [:]
        let central = central(options)
        if let mtu = options["mtu"].flatMap(Self.integer), lock.withLock({ toldMTU.insert(central.id).inserted }) {
            feed.yield(.mtu(central, mtu))
        }
        switch call.method {
        case "ReadValue":
            let value = descriptor.map { Self.descriptors(of: characteristic)[safe: $0]?.value ?? [] }
                ?? lock.withLock { app.values[id] } ?? characteristic.value
            let offset = options["offset"].flatMap(Self.integer) ?? 0
            guard offset <= value.count else { return call.fail("org.bluez.Error.InvalidOffset", "Invalid offset") }
            call.reply([.bytes(Array(value[offset...]))])
            if descriptor == nil { feed.yield(.read(central, id)) }
        case "WriteValue":
            guard case .bytes(let bytes)? = call.arguments.first?.unwrapped else { return call.fail("org.bluez.Error.InvalidArguments", "No value") }
            let offset = options["offset"].flatMap(Self.integer) ?? 0
            guard descriptor == nil else { return call.reply() }
            var value = lock.withLock { app.values[id] } ?? characteristic.value
            guard offset <= value.count else { return call.fail("org.bluez.Error.InvalidOffset", "Invalid offset") }
            value.replaceSubrange(offset..<min(value.count, offset + bytes.count), with: bytes)
            guard value.count <= characteristic.maximumLength else {
                return call.fail("org.bluez.Error.InvalidValueLength", "Invalid value length")
            }
            lock.withLock { app.values[id] = value }
            call.reply()
            feed.yield(.wrote(central, id, value, withResponse: options["type"]?.stringValue != "command"))
        case "StartNotify":
            // Subscribed before the reply: a value sent as soon as BlueZ has its answer is notified.
            let started = lock.withLock { app.notifying.insert(id).inserted }
            call.reply()
            if started { feed.yield(.subscribed(central, id, indicate: !characteristic.properties.contains(.notify))) }
        case "StopNotify":
            let stopped = lock.withLock { app.notifying.remove(id) != nil }
            call.reply()
            if stopped { feed.yield(.unsubscribed(central, id)) }
        case "Confirm":
            call.reply()
            feed.yield(.confirmed(central, id))
        default:
            call.fail("org.freedesktop.DBus.Error.UnknownMethod", "Unknown method")
        }
    }

    public func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async {
        guard let app = lock.withLock({ application }) else { return }
        lock.withLock { app.values[characteristic] = value }
    }

    /// Sets the value and tells BlueZ it changed (PropertiesChanged on Value): BlueZ notifies or
    /// indicates it to every central subscribed.
    @discardableResult
    public func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int {
        guard let app = lock.withLock({ application }), let connection = try? await bus.connect() else { return 0 }
        let notifying = lock.withLock { () -> Bool in
            app.values[characteristic] = value
            return app.notifying.contains(characteristic)
        }
        let path = "\(Self.root)/app/service\(characteristic.service)/char\(characteristic.characteristic)"
        connection.emit(path: path, interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged",
                        [.string(Self.characteristicInterface), .vardict(["Value": .bytes(value)]), .array(elementType: "s", [])])
        return notifying ? 1 : 0
    }
}
