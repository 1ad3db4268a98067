// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// BlueZ's object tree as last reported: path → interface → property → value. Kept up to date
/// from GetManagedObjects and the ObjectManager and PropertiesChanged signals.
public struct BlueZObjects: Sendable {
    /// The BlueZ interfaces FavBlue reads.
    public enum Interface {
        public static let adapter = "org.bluez.Adapter1"
        public static let device = "org.bluez.Device1"
        public static let gattService = "org.bluez.GattService1"
        public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    }

    /// Every object and its interfaces' properties.
    public private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    /// An empty tree (BlueZ not running).
    public init() {}

    /// The tree GetManagedObjects returned.
    public init(_ objects: [String: [String: [String: DBusValue]]]) { self.objects = objects }

    /// The properties of `interface` on `path`, if the object has it.
    public subscript(path: String, interface: String) -> [String: DBusValue]? { objects[path]?[interface] }

    /// Applies a signal; returns false for signals about nothing kept here.
    @discardableResult
    public mutating func apply(_ signal: DBusSignal) -> Bool {
        switch signal {
        case .interfacesAdded(let path, let interfaces):
            objects[path, default: [:]].merge(interfaces) { $1 }
        case .interfacesRemoved(let path, let interfaces):
            guard objects[path] != nil else { return false }
            for name in interfaces { objects[path]?[name] = nil }
            if objects[path]?.isEmpty == true { objects[path] = nil }
        case .propertiesChanged(let path, let interface, let changed, let invalidated):
            // A change to an object not announced (yet) is no object of ours.
            guard objects[path]?[interface] != nil else { return false }
            for (key, value) in changed { objects[path]![interface]![key] = value }
            for key in invalidated { objects[path]![interface]![key] = nil }
        case .nameOwnerChanged:
            return false
        }
        return true
    }

    // MARK: Adapters

    /// Adapter paths ("/org/bluez/hci0"), lowest adapter number first.
    public var adapters: [String] {
        objects.compactMap { $0.value[Interface.adapter] != nil ? $0.key : nil }.sorted(by: Self.adapterOrder)
    }

    /// The adapter a source names ("hci1"), or the first one for nil; nil when there is none.
    public func adapter(named name: String?) -> String? {
        guard let name else { return adapters.first }
        return adapters.first { $0.split(separator: "/").last.map(String.init) == name }
    }

    /// hci2 before hci10.
    private static func adapterOrder(_ a: String, _ b: String) -> Bool {
        func number(_ path: String) -> Int { Int(path.reversed().prefix { $0.isNumber }.reversed().map(String.init).joined()) ?? .max }
        return number(a) != number(b) ? number(a) < number(b) : a < b
    }

    // MARK: Devices

    /// The device objects under `adapter`.
    public func devices(of adapter: String) -> [(path: String, properties: [String: DBusValue])] {
        objects.compactMap { path, interfaces in
            guard let device = interfaces[Interface.device], device["Adapter"]?.stringValue == adapter else { return nil }
            return (path, device)
        }
    }

    /// The object path of `id` under `adapter`, if BlueZ knows it.
    public func devicePath(for id: DeviceID, adapter: String) -> String? {
        devices(of: adapter).first { BlueZDevice.id(of: $0.properties) == id }?.path
    }

    // MARK: GATT

    /// A characteristic's path, UUID and flags ("write", "notify" …).
    public struct Characteristic: Equatable, Sendable {
        public let path: String
        public let uuid: AttributeUUID
        public let flags: Set<String>
    }

    /// The GATT services BlueZ resolved on `device`: path and UUID, in path (handle) order.
    public func services(of device: String) -> [(path: String, uuid: AttributeUUID)] {
        objects.compactMap { path, interfaces in
            guard let service = interfaces[Interface.gattService], service["Device"]?.stringValue == device,
                  let uuid = service["UUID"]?.stringValue.flatMap(AttributeUUID.init) else { return nil }
            return (path, uuid)
        }.sorted { $0.path < $1.path }
    }

    /// The characteristics of the service at `service`.
    public func characteristics(of service: String) -> [Characteristic] {
        objects.compactMap { path, interfaces in
            guard let characteristic = interfaces[Interface.gattCharacteristic],
                  characteristic["Service"]?.stringValue == service,
                  let uuid = characteristic["UUID"]?.stringValue.flatMap(AttributeUUID.init) else { return nil }
            let flags = Set(characteristic["Flags"]?.items?.compactMap(\.stringValue) ?? [])
            return Characteristic(path: path, uuid: uuid, flags: flags)
        }.sorted { $0.path < $1.path }
    }
}
