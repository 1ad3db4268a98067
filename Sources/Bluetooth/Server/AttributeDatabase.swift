// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One attribute of FavBlue's GATT server (Core v5.4, Vol 3, Part F, §3.2).
struct ServedAttribute: Sendable {
    /// What the attribute is, so a request on it is told to the right part of the setup.
    enum Role: Sendable, Equatable {
        case service(end: UInt16)
        case declaration(ServedCharacteristicID?)
        case value(ServedCharacteristicID?)
        case configuration(ServedCharacteristicID?, valueHandle: UInt16, properties: GATTProperties)
        case descriptor(ServedCharacteristicID?)
        /// Client Supported Features: each link's own value (Vol 3, Part G, §7.2).
        case clientFeatures

        /// The setup's characteristic it belongs to.
        var characteristic: ServedCharacteristicID? {
            switch self {
            case .declaration(let id), .value(let id), .configuration(let id, _, _), .descriptor(let id): return id
            case .service, .clientFeatures: return nil
            }
        }
    }

    let handle: UInt16
    let type: BluetoothUUID
    var value: [UInt8]
    let role: Role
    // Read-only and open unless said otherwise, as declarations are.
    var readable = true
    /// Write Request and Prepare Write.
    var writable = false
    /// Write Command.
    var writableWithoutResponse = false
    var readSecurity = AttributeSecurity.none
    var writeSecurity = AttributeSecurity.none
    var maximumLength = 512
}

/// FavBlue's GATT server's database, made from a `ServerSetup`. Its layout is the same tree of
/// services, characteristics and descriptors with handles that the GATT client fills from a
/// device's discovery (`layout`); each handle's value and permissions sit beside it, and the
/// attributes ATT reads are laid out from the two. Generic Access
/// and Generic Attribute first (unless the setup brings its own: Service Changed, and with a
/// CMAC to hash the database, Client Supported Features and Database Hash), then each service with its
/// declarations, values and descriptors, the Client Characteristic Configuration added for
/// every characteristic that notifies or indicates (Vol 3, Part G, §3). Handles a setup keeps
/// (a clone) are used as they are; the rest follow on.
///
/// Values change while it serves: guarded by a lock, read and written from any thread.
final class AttributeDatabase: @unchecked Sendable {
    private let lock = NSLock()
    private var attributes: [ServedAttribute]
    /// The services, characteristics and descriptors, with their handles.
    let layout: [GATTService]
    /// The value handle of each characteristic of the setup.
    let valueHandles: [ServedCharacteristicID: UInt16]
    /// The configuration handle of each characteristic that has one.
    let configurationHandles: [ServedCharacteristicID: UInt16]
    /// The Service Changed characteristic's value handle, when FavBlue serves Generic Attribute.
    let serviceChangedHandle: UInt16?
    /// Its Client Characteristic Configuration's handle.
    let serviceChangedConfiguration: UInt16?
    /// The Database Hash (§7.3), where there is one: a client compares it with the one it knew.
    let hash: [UInt8]?

    /// Why a setup cannot be served: two attributes on one handle, or handles past 0xFFFF.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// `crypto` computes the Database Hash; without it, Generic Attribute has Service Changed alone.
    init(_ setup: ServerSetup, crypto: (any PairingCrypto)? = nil) throws(Problem) {
        var next: UInt16 = 1
        var values: [ServedCharacteristicID: UInt16] = [:], configurations: [ServedCharacteristicID: UInt16] = [:]
        func take(_ wanted: UInt16?) throws(Problem) -> UInt16 {
            let handle = wanted ?? next
            guard handle >= next else {
                throw Problem(message: L10n.format("the handle {} comes after a higher one, or twice.", String(handle)))
            }
            guard handle < 0xFFFF else { throw Problem(message: L10n.tr("the setup needs more than 65,534 handles.")) }
            next = handle + 1
            return handle
        }
        var services = setup.services
        var serviceChanged: UInt16?
        var serviceChangedConfiguration: UInt16?
        var hashHandle: UInt16?
        if !setup.hasOwnGenericAccess {
            let name = Array(setup.name.utf8.prefix(248))
            let appearance = setup.appearance ?? 0
            services.insert(ServedService(uuid: ServerSetup.genericAccess, characteristics: [
                ServedCharacteristic(uuid: BluetoothUUID(0x2A00), properties: [.read], value: name),
                ServedCharacteristic(uuid: BluetoothUUID(0x2A01), properties: [.read], value: [UInt8(appearance & 0xFF), UInt8(appearance >> 8)]),
            ]), at: 0)
            if !setup.services.contains(where: { $0.uuid == ServerSetup.genericAttribute }) {
                var gatt = [ServedCharacteristic(uuid: BluetoothUUID(0x2A05), properties: [.indicate], value: [0x01, 0x00, 0xFF, 0xFF])]
                if crypto != nil {
                    gatt.append(ServedCharacteristic(uuid: Self.clientSupportedFeatures, properties: [.read, .write], value: [0]))
                    gatt.append(ServedCharacteristic(uuid: Self.databaseHash, properties: [.read], value: []))
                }
                services.insert(ServedService(uuid: ServerSetup.genericAttribute, characteristics: gatt), at: 1)
            }
        }
        // The layout first, with handles; beside it, each value's and descriptor's attribute.
        var layout: [GATTService] = []
        var held: [UInt16: ServedAttribute] = [:]
        // Services FavBlue adds carry no index: their events are nobody's.
        let added = services.count - setup.services.count
        for (s, service) in services.enumerated() {
            let index = s - added
            let start = try take(service.handle)
            var characteristics: [GATTCharacteristic] = []
            for (c, characteristic) in service.characteristics.enumerated() {
                let id = index >= 0 ? ServedCharacteristicID(service: index, characteristic: c) : nil
                let declaration = try take(characteristic.handle)
                let valueHandle = try take(nil)
                let properties = characteristic.properties
                var node = GATTCharacteristic(uuid: characteristic.uuid, handle: declaration, valueHandle: valueHandle, properties: properties)
                held[valueHandle] = ServedAttribute(handle: valueHandle, type: characteristic.uuid.attForm, value: characteristic.value,
                                                    role: index < 0 && characteristic.uuid == Self.clientSupportedFeatures ? .clientFeatures : .value(id),
                                                    readable: properties.contains(.read), writable: properties.contains(.write),
                                                    writableWithoutResponse: properties.contains(.writeWithoutResponse),
                                                    readSecurity: characteristic.readSecurity, writeSecurity: characteristic.writeSecurity,
                                                    maximumLength: min(characteristic.maximumLength, 512))
                if let id { values[id] = valueHandle }
                if characteristic.uuid == Self.databaseHash, index < 0 { hashHandle = valueHandle }
                if characteristic.uuid == BluetoothUUID(0x2A05), index < 0 { serviceChanged = valueHandle }
                // Descriptors in handle order where the setup keeps them, the configuration where its handle says.
                var descriptors: [(UInt16?, ServedAttribute.Role, BluetoothUUID, [UInt8], ServedDescriptor?)] = []
                if characteristic.hasConfiguration {
                    descriptors.append((characteristic.cccdHandle, .configuration(id, valueHandle: valueHandle, properties: properties),
                                        BluetoothUUID.clientCharacteristicConfiguration, [0, 0], nil))
                }
                if let text = characteristic.userDescription {
                    descriptors.append((nil, .descriptor(id), BluetoothUUID.userDescription, Array(text.utf8.prefix(512)), nil))
                }
                if let format = characteristic.presentation {
                    descriptors.append((nil, .descriptor(id), BluetoothUUID.presentationFormat, format.bytes, nil))
                }
                for d in characteristic.descriptors {
                    descriptors.append((d.handle, .descriptor(id), d.uuid.attForm, d.value, d))
                }
                if descriptors.contains(where: { $0.0 != nil }) {
                    // Kept handles first in their order, then the ones FavBlue numbers.
                    descriptors.sort { ($0.0 ?? .max) < ($1.0 ?? .max) }
                }
                for (wanted, role, type, value, served) in descriptors {
                    let handle = try take(wanted)
                    node.descriptors.append(GATTDescriptor(uuid: type, handle: handle))
                    var attribute = ServedAttribute(handle: handle, type: type, value: value, role: role)
                    if case .configuration = role {
                        if let id { configurations[id] = handle }
                        if index < 0, characteristic.uuid == BluetoothUUID(0x2A05) { serviceChangedConfiguration = handle }
                        attribute.writable = true
                        attribute.maximumLength = 2
                    } else if let served {
                        attribute.readable = served.readable
                        attribute.writable = served.writable
                        attribute.readSecurity = served.readSecurity
                        attribute.writeSecurity = served.writeSecurity
                    }
                    held[handle] = attribute
                }
                characteristics.append(node)
            }
            layout.append(GATTService(uuid: service.uuid, name: service.uuid.serviceID.name, start: start, end: next - 1,
                                      characteristics: characteristics, primary: service.primary))
        }
        var list = Self.attributes(of: layout, held)
        var hash: [UInt8]?
        if let hashHandle, let crypto, let at = list.firstIndex(where: { $0.handle == hashHandle }) {
            hash = try Self.hash(list, crypto)
            list[at].value = hash ?? []
        }
        self.hash = hash
        attributes = list
        self.layout = layout
        valueHandles = values
        configurationHandles = configurations
        serviceChangedHandle = serviceChanged
        self.serviceChangedConfiguration = serviceChangedConfiguration
    }

    /// The attributes in handle order: each service's and characteristic's declaration laid out
    /// from `layout` (Vol 3, Part G, §3.1, §3.3.1), then the value and descriptors `held` has.
    private static func attributes(of layout: [GATTService], _ held: [UInt16: ServedAttribute]) -> [ServedAttribute] {
        var list: [ServedAttribute] = []
        for service in layout {
            list.append(ServedAttribute(handle: service.start, type: service.primary ? .primaryService : .secondaryService,
                                        value: service.uuid.attWire, role: .service(end: service.end)))
            for c in service.characteristics {
                guard let value = held[c.valueHandle] else { continue }
                list.append(ServedAttribute(handle: c.handle, type: .characteristic, value: [c.properties.rawValue] + HCICommand.le16(c.valueHandle) + c.uuid.attWire,
                                            role: .declaration(value.role.characteristic)))
                list.append(value)
                list += c.descriptors.compactMap { held[$0.handle] }
            }
        }
        return list
    }

    static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    static let databaseHash = BluetoothUUID(0x2B2A)

    /// The Database Hash (Vol 3, Part G, §7.3.1): AES-CMAC with a zero key over each service,
    /// include and characteristic declaration and extended properties (handle, type and
    /// value), and each of the GATT-defined descriptors (handle and type), in handle order;
    /// sent least significant octet first.
    private static func hash(_ list: [ServedAttribute], _ crypto: any PairingCrypto) throws(Problem) -> [UInt8] {
        let whole: Set<BluetoothUUID> = [BluetoothUUID.primaryService, BluetoothUUID.secondaryService, BluetoothUUID.include,
                                         BluetoothUUID.characteristic, BluetoothUUID.extendedProperties]
        let named: Set<BluetoothUUID> = [BluetoothUUID.userDescription, BluetoothUUID.clientCharacteristicConfiguration,
                                         BluetoothUUID.serverCharacteristicConfiguration, BluetoothUUID.presentationFormat, BluetoothUUID.aggregateFormat]
        var message: [UInt8] = []
        for a in list where whole.contains(a.type) || named.contains(a.type) {
            message += HCICommand.le16(a.handle) + a.type.attAsGiven
            if whole.contains(a.type) { message += a.value }
        }
        do {
            return Array(try crypto.aesCMAC(key: [UInt8](repeating: 0, count: 16), message: message).reversed())
        } catch {
            throw Problem(message: L10n.tr("the database hash could not be computed."))
        }
    }

    /// Every attribute, in handle order (a copy).
    var all: [ServedAttribute] { lock.withLock { attributes } }

    /// The attribute at `handle`.
    func attribute(_ handle: UInt16) -> ServedAttribute? {
        lock.withLock { index(handle).map { attributes[$0] } }
    }

    /// Sets the value at `handle`; false when there is no such attribute.
    @discardableResult
    func setValue(_ value: [UInt8], at handle: UInt16) -> Bool {
        lock.withLock {
            guard let i = index(handle) else { return false }
            attributes[i].value = value
            return true
        }
    }

    /// The attributes from `start` to `end`, in order.
    func range(_ start: UInt16, _ end: UInt16) -> ArraySlice<ServedAttribute> {
        lock.withLock {
            let from = attributes.firstIndex { $0.handle >= start } ?? attributes.count
            var to = from
            while to < attributes.count, attributes[to].handle <= end { to += 1 }
            return attributes[from..<to]
        }
    }

    /// Binary search; called with the lock held.
    private func index(_ handle: UInt16) -> Int? {
        var low = 0, high = attributes.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if attributes[mid].handle == handle { return mid }
            if attributes[mid].handle < handle { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }

    /// The served tree as FavBlue's GATT browser shows a device's, handle for handle.
    var tree: [GATTService] { layout }
}
