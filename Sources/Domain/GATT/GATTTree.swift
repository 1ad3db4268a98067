// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// What a characteristic allows (Core spec Vol 3 Part G §3.3.1.1).
public struct GATTProperties: OptionSet, Equatable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let broadcast = GATTProperties(rawValue: 0x01)
    public static let read = GATTProperties(rawValue: 0x02)
    public static let writeWithoutResponse = GATTProperties(rawValue: 0x04)
    public static let write = GATTProperties(rawValue: 0x08)
    public static let notify = GATTProperties(rawValue: 0x10)
    public static let indicate = GATTProperties(rawValue: 0x20)
    public static let signedWrite = GATTProperties(rawValue: 0x40)
    public static let extendedProperties = GATTProperties(rawValue: 0x80)

    /// The properties as words, in the spec's order: "Read, Write, Notify". A context keeps
    /// them apart from the Read and Write buttons, which are verbs.
    public var words: [String] {
        let all: [(GATTProperties, () -> String)] = [
            (.broadcast, { L10n.ctx("characteristic property", "Broadcast") }), (.read, { L10n.ctx("characteristic property", "Read") }),
            (.writeWithoutResponse, { L10n.ctx("characteristic property", "Write Without Response") }), (.write, { L10n.ctx("characteristic property", "Write") }),
            (.notify, { L10n.ctx("characteristic property", "Notify") }), (.indicate, { L10n.ctx("characteristic property", "Indicate") }),
            (.signedWrite, { L10n.ctx("characteristic property", "Signed Write") }), (.extendedProperties, { L10n.ctx("characteristic property", "Extended Properties") }),
        ]
        return all.filter { contains($0.0) }.map { $0.1() }
    }
}

/// One descriptor of a characteristic, with its handle.
public struct GATTDescriptor: Equatable, Sendable {
    public let uuid: BluetoothUUID
    /// "Client Characteristic Configuration", say; nil when not well known.
    public let name: String?
    public let handle: UInt16

    public init(uuid: BluetoothUUID, name: String? = nil, handle: UInt16) {
        self.uuid = uuid
        self.name = name
        self.handle = handle
    }
}

/// One characteristic, with its declaration and value handles and its descriptors.
public struct GATTCharacteristic: Equatable, Sendable {
    public let uuid: BluetoothUUID
    /// "Battery Level", say; nil when not well known.
    public let name: String?
    public let handle: UInt16
    public let valueHandle: UInt16
    public let properties: GATTProperties
    public var descriptors: [GATTDescriptor]

    public init(uuid: BluetoothUUID, name: String? = nil, handle: UInt16, valueHandle: UInt16, properties: GATTProperties,
                descriptors: [GATTDescriptor] = []) {
        self.uuid = uuid
        self.name = name
        self.handle = handle
        self.valueHandle = valueHandle
        self.properties = properties
        self.descriptors = descriptors
    }
}

/// A service included by another (Core spec Vol 3 Part G §3.2).
public struct GATTInclude: Equatable, Sendable {
    /// Nil when the device would not say (a 128-bit UUID that could not be read).
    public let uuid: BluetoothUUID?
    public let start: UInt16
    public let end: UInt16

    public init(uuid: BluetoothUUID?, start: UInt16, end: UInt16) {
        self.uuid = uuid
        self.start = start
        self.end = end
    }
}

/// One service: its handle range, the services it includes and its characteristics. The GATT
/// client fills a tree of these from a device's discovery, and FavBlue's server from its setup.
public struct GATTService: Equatable, Sendable {
    public let uuid: BluetoothUUID
    /// "Battery", say; nil when not well known.
    public let name: String?
    public let start: UInt16
    public let end: UInt16
    public var includes: [GATTInclude]
    public var characteristics: [GATTCharacteristic]
    /// Rebuilt by the system's Bluetooth service from what it read itself (BlueZ hides Generic
    /// Access and, with its battery plugin, Battery): its handles are not the device's.
    public var fromSystem: Bool
    /// False for a secondary service, which only another's include reaches (Vol 3, Part G, §3.1).
    public var primary: Bool

    public init(uuid: BluetoothUUID, name: String?, start: UInt16, end: UInt16, includes: [GATTInclude] = [],
                characteristics: [GATTCharacteristic] = [], fromSystem: Bool = false, primary: Bool = true) {
        self.uuid = uuid
        self.name = name
        self.start = start
        self.end = end
        self.includes = includes
        self.characteristics = characteristics
        self.fromSystem = fromSystem
        self.primary = primary
    }
}
