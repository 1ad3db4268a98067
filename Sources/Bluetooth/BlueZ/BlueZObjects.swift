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
        public static let gattDescriptor = "org.bluez.GattDescriptor1"
        public static let battery = "org.bluez.Battery1"
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
        public let uuid: BluetoothUUID
        public let flags: Set<String>
    }

    /// The GATT services BlueZ resolved on `device`: path and UUID, in path (handle) order.
    public func services(of device: String) -> [(path: String, uuid: BluetoothUUID)] {
        objects.compactMap { path, interfaces in
            guard let service = interfaces[Interface.gattService], service["Device"]?.stringValue == device,
                  let uuid = service["UUID"]?.stringValue.flatMap(BluetoothUUID.init) else { return nil }
            return (path, uuid)
        }.sorted { $0.path < $1.path }
    }

    /// The characteristics of the service at `service`.
    public func characteristics(of service: String) -> [Characteristic] {
        objects.compactMap { path, interfaces in
            guard let characteristic = interfaces[Interface.gattCharacteristic],
                  characteristic["Service"]?.stringValue == service,
                  let uuid = characteristic["UUID"]?.stringValue.flatMap(BluetoothUUID.init) else { return nil }
            let flags = Set(characteristic["Flags"]?.items?.compactMap(\.stringValue) ?? [])
            return Characteristic(path: path, uuid: uuid, flags: flags)
        }.sorted { $0.path < $1.path }
    }

    /// Where each attribute of a tree lives on the bus: its object and interface.
    public typealias AttributePaths = [UInt16: (path: String, interface: String)]

    /// The whole GATT tree BlueZ resolved on `device`, with every handle, and where each value
    /// and descriptor is read. BlueZ names its objects by handle (service000a/char000b/desc000d:
    /// the service's first handle, the characteristic's declaration, the descriptor); a
    /// characteristic's value follows its declaration (Core spec Vol 3 Part G §3.3).
    public func gattTree(of device: String) -> (services: [GATTService], paths: AttributePaths) {
        var paths: AttributePaths = [:]
        var tree: [GATTService] = []
        func uuid(_ properties: [String: DBusValue]) -> BluetoothUUID? { properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init) }
        func handle(_ path: String) -> UInt16? {
            path.split(separator: "/").last.flatMap { UInt16($0.suffix(4), radix: 16) }
        }
        let servicePaths = objects.compactMap { path, interfaces -> String? in
            guard let service = interfaces[Interface.gattService], service["Device"]?.stringValue == device,
                  service["Primary"] != .bool(false) else { return nil }
            return path
        }
        for path in servicePaths.sorted() {
            guard let properties = objects[path]?[Interface.gattService], let type = uuid(properties),
                  let start = handle(path) else { continue }
            var characteristics: [GATTCharacteristic] = []
            var last = start
            for (charPath, interfaces) in objects where interfaces[Interface.gattCharacteristic]?["Service"]?.stringValue == path {
                guard let c = interfaces[Interface.gattCharacteristic], let type = uuid(c), let declaration = handle(charPath) else { continue }
                let flags = Set(c["Flags"]?.items?.compactMap(\.stringValue) ?? [])
                var descriptors: [GATTDescriptor] = []
                for (descPath, interfaces) in objects where interfaces[Interface.gattDescriptor]?["Characteristic"]?.stringValue == charPath {
                    guard let d = interfaces[Interface.gattDescriptor], let type = uuid(d), let at = handle(descPath) else { continue }
                    descriptors.append(GATTDescriptor(uuid: type, name: AttributeNames.descriptor(type), handle: at))
                    paths[at] = (descPath, Interface.gattDescriptor)
                    last = max(last, at)
                }
                let value = declaration &+ 1
                paths[value] = (charPath, Interface.gattCharacteristic)
                last = max(last, value)
                characteristics.append(GATTCharacteristic(
                    uuid: type, name: AttributeNames.characteristic(type), handle: declaration, valueHandle: value, properties: Self.properties(flags),
                    descriptors: descriptors.sorted { $0.handle < $1.handle }))
            }
            let includes = (properties["Includes"]?.items ?? []).compactMap { item -> GATTInclude? in
                guard let included = item.stringValue, let first = handle(included) else { return nil }
                let type = objects[included]?[Interface.gattService].flatMap(uuid)
                return GATTInclude(uuid: type, start: first, end: first)
            }
            tree.append(GATTService(uuid: type, name: type.serviceID.name, start: start, end: last,
                                    includes: includes, characteristics: characteristics.sorted { $0.handle < $1.handle }))
        }
        // An included service ends where that service does.
        let ends = Dictionary(tree.map { ($0.start, $0.end) }, uniquingKeysWith: { a, _ in a })
        for index in tree.indices {
            tree[index].includes = tree[index].includes.map { GATTInclude(uuid: $0.uuid, start: $0.start, end: ends[$0.start] ?? $0.end) }
        }
        return (tree.sorted { $0.start < $1.start }, paths)
    }

    /// BlueZ's flags as the properties byte would say them.
    static func properties(_ flags: Set<String>) -> GATTProperties {
        let table: [(String, GATTProperties)] = [
            ("broadcast", .broadcast), ("read", .read), ("write-without-response", .writeWithoutResponse), ("write", .write),
            ("notify", .notify), ("indicate", .indicate), ("authenticated-signed-writes", .signedWrite),
            ("extended-properties", .extendedProperties), ("reliable-write", .extendedProperties),
            ("writable-auxiliaries", .extendedProperties),
        ]
        return table.reduce(into: GATTProperties()) { if flags.contains($1.0) { $0.insert($1.1) } }
    }
}
