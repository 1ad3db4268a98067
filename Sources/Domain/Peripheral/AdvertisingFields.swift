// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Service data for one UUID (AD types 0x16, 0x20, 0x21).
public struct ServiceDataField: Equatable, Sendable {
    public var uuid: BluetoothUUID
    public var data: [UInt8]

    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.uuid = uuid
        self.data = data
    }
}

/// Manufacturer specific data (AD type 0xFF): a company identifier from the SIG's list and its bytes.
public struct ManufacturerField: Equatable, Sendable {
    public var companyID: UInt16
    public var data: [UInt8]

    public init(companyID: UInt16, data: [UInt8]) {
        self.companyID = companyID
        self.data = data
    }
}

/// An AD structure given as type and bytes, for what the other fields do not cover.
public struct RawADField: Equatable, Sendable {
    public var type: UInt8
    public var data: [UInt8]

    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }
}

/// What one advertisement (or its scan response) carries, field by field, and the AD
/// structures they make (Core Specification Supplement, Part A, §1).
public struct AdvertisingFields: Equatable, Sendable {
    /// The Flags byte (§1.3): 0x06 is "LE General Discoverable, BR/EDR not supported"; nil sends none.
    public var flags: UInt8?
    public var localName: String?
    /// Sent as a shortened name (0x08) rather than the complete one (0x09).
    public var shortenedName = false
    /// dBm.
    public var txPower: Int8?
    /// An Appearance value (Assigned Numbers §2.6).
    public var appearance: UInt16?
    public var serviceUUIDs: [BluetoothUUID] = []
    public var serviceData: [ServiceDataField] = []
    public var manufacturerData: [ManufacturerField] = []
    public var raw: [RawADField] = []

    public init(flags: UInt8? = nil, localName: String? = nil, shortenedName: Bool = false, txPower: Int8? = nil,
                appearance: UInt16? = nil, serviceUUIDs: [BluetoothUUID] = [], serviceData: [ServiceDataField] = [],
                manufacturerData: [ManufacturerField] = [], raw: [RawADField] = []) {
        self.flags = flags
        self.localName = localName
        self.shortenedName = shortenedName
        self.txPower = txPower
        self.appearance = appearance
        self.serviceUUIDs = serviceUUIDs
        self.serviceData = serviceData
        self.manufacturerData = manufacturerData
        self.raw = raw
    }

    /// Nothing at all.
    public var isEmpty: Bool { structures.isEmpty }

    /// Which field an AD structure comes from, to say which one does not fit.
    public enum Field: Equatable, Sendable {
        case flags
        case localName
        case txPower
        case appearance
        /// The complete list of UUIDs of one width (2, 4 or 16 bytes).
        case serviceUUIDs(width: Int)
        case serviceData(BluetoothUUID)
        case manufacturerData(UInt16)
        case raw(UInt8)

        /// Service data whose format has a name of its own: BTHome (bthome.io, UUID 0xFCD2) and
        /// Eddystone (Google's specification, UUID 0xFEAA), the two the presets send.
        static let dataFormats: [BluetoothUUID: String] = [BluetoothUUID(0xFCD2): "BTHome", BluetoothUUID(0xFEAA): "Eddystone"]

        /// The field's name in a sentence; `company` names a company identifier.
        public func name(company: (UInt16) -> String) -> String {
            switch self {
            case .flags: return L10n.tr("The flags")
            case .localName: return L10n.tr("The name")
            case .txPower: return L10n.tr("The transmit power")
            case .appearance: return L10n.tr("The appearance")
            case .serviceUUIDs(let width):
                return L10n.format("The {}-bit service UUIDs", Formats.number(width * 8))
            case .serviceData(let uuid):
                // A known format by its name, as the Scanner says it ("BTHome data").
                if let format = Self.dataFormats[uuid] { return L10n.format("The {} data", format) }
                return L10n.format("The service data for {}", uuid.text)
            case .manufacturerData(let id): return L10n.format("The manufacturer data of {}", company(id))
            case .raw(let type): return L10n.format("The AD structure of type 0x{}", Hex.compact([type]))
            }
        }
    }

    /// The AD structures in the order they are sent: length, type, data each.
    public var structures: [(field: Field, bytes: [UInt8])] {
        var out: [(Field, [UInt8])] = []
        func add(_ field: Field, _ type: UInt8, _ data: [UInt8]) { out.append((field, [UInt8(truncatingIfNeeded: data.count + 1), type] + data)) }
        if let flags { add(.flags, 0x01, [flags]) }
        if let localName { add(.localName, shortenedName ? 0x08 : 0x09, Array(localName.utf8)) }
        if let txPower { add(.txPower, 0x0A, [UInt8(bitPattern: txPower)]) }
        if let appearance { add(.appearance, 0x19, [UInt8(appearance & 0xFF), UInt8(appearance >> 8)]) }
        for (width, type) in [(2, UInt8(0x03)), (4, 0x05), (16, 0x07)] {
            let list = serviceUUIDs.map(\.shortest).filter { $0.count == width }
            if !list.isEmpty { add(.serviceUUIDs(width: width), type, list.flatMap { $0 }) }
        }
        for field in serviceData {
            let uuid = field.uuid.shortest
            add(.serviceData(field.uuid), uuid.count == 2 ? 0x16 : uuid.count == 4 ? 0x20 : 0x21, uuid + field.data)
        }
        for field in manufacturerData {
            add(.manufacturerData(field.companyID), 0xFF, [UInt8(field.companyID & 0xFF), UInt8(field.companyID >> 8)] + field.data)
        }
        for field in raw { add(.raw(field.type), field.type, field.data) }
        return out
    }

    /// The advertising data as sent.
    public var encoded: [UInt8] { structures.flatMap(\.bytes) }

    /// The first field that takes the data past `limit` bytes, and by how much the data is over.
    public func overflow(limit: Int) -> (field: Field, over: Int)? {
        var used = 0
        var first: Field?
        for (field, bytes) in structures {
            used += bytes.count
            if used > limit, first == nil { first = field }
        }
        guard let first else { return nil }
        return (first, used - limit)
    }
}
