// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A manufacturer-specific data block (AD type 0xFF).
public struct ManufacturerData: Equatable, Sendable {
    /// The Bluetooth SIG company identifier.
    public let companyID: UInt16
    /// The company's name, or "Unknown maker (0xNNNN)" when unassigned.
    public let companyName: String

    /// What a company number no one was given is called.
    public static func unknownMaker(_ id: UInt16) -> String {
        // Translators: a company number the Bluetooth SIG list does not hold.
        L10n.format("Unknown maker (0x{})", Hex.word(id))
    }

    /// The company number is not on the SIG's list.
    public var isUnknownMaker: Bool { companyName == Self.unknownMaker(companyID) }
    /// The bytes after the identifier.
    public let data: [UInt8]

    /// Creates a block.
    public init(companyID: UInt16, companyName: String, data: [UInt8]) {
        self.companyID = companyID
        self.companyName = companyName
        self.data = data
    }
}

/// A service UUID with its well-known name, if it has one.
public struct ServiceID: Equatable, Hashable, Sendable {
    /// The UUID, compared by value.
    public let id: BluetoothUUID
    /// "Battery", say; nil when not well known.
    public let name: String?

    /// The UUID as the device sent it: "180F" for 16-bit, "0000FE95" for 32-bit, the dashed form for 128-bit.
    public let uuid: String

    /// Creates a service id.
    public init(_ id: BluetoothUUID, name: String?) {
        self.id = id
        self.name = name
        uuid = id.heardText
    }

    public static func == (lhs: ServiceID, rhs: ServiceID) -> Bool { lhs.id == rhs.id && lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One report of a device: what it advertised (or answered to an inquiry) at one moment.
public struct Observation: Equatable, Sendable {
    /// The device: the address heard, or the identity behind it once resolved.
    public private(set) var id: DeviceID
    /// The resolvable private address it was heard from, once `id` is its identity.
    public private(set) var heardAs: DeviceID?
    /// When it was heard.
    public var timestamp: Date
    /// Received signal strength in dBm; nil when the report carries none.
    public var rssi: Int?
    /// The advertised or remote name, if any.
    public var name: String?
    /// Transmit power in dBm; nil when absent or "not available" (127).
    public var txPower: Int?
    /// The AD flags byte.
    public var flags: UInt8?
    /// Whether it accepts connections (LE connectable advertising); nil for BR/EDR.
    public var connectable: Bool?
    /// Whether this report is a scan response.
    public var isScanResponse: Bool
    /// Advertised service UUIDs (16, 32 and 128-bit lists).
    public var services: [ServiceID]
    /// Manufacturer data blocks.
    public var manufacturerData: [ManufacturerData]
    /// Service data blocks, by UUID.
    public var serviceData: [ServiceID: [UInt8]]
    /// GAP appearance value.
    public var appearance: UInt16?
    /// BR/EDR class of device (24 bits).
    public var classOfDevice: UInt32?
    /// The advertising or EIR data exactly as received.
    public var rawData: [UInt8]
    /// Whether the system has paired with it; nil when the source cannot tell (HCI).
    public var paired: Bool?
    /// Whether the system holds a connection to it, ours or another app's; nil when the source cannot tell.
    public var connected: Bool?
    /// Its battery level in percent, where the system reads it (BlueZ's Battery1); nil when unknown.
    public var battery: Int?
    /// The name's bytes when they are not valid UTF-8 (`name` then holds U+FFFD in their place).
    public var invalidNameBytes: [UInt8]?
    /// Whether the advertising data broke off inside a structure; what came before it is kept.
    public var malformed = false
    /// The source that heard it ("Kitchen"), where several are in use; nil with one alone.
    public var source: String?

    /// Keys it on `identity`, keeping the address it was heard from.
    public mutating func resolve(to identity: DeviceID) {
        guard identity != id else { return }
        heardAs = id
        id = identity
    }

    /// Creates an observation.
    public init(id: DeviceID, timestamp: Date, rssi: Int?, name: String? = nil, txPower: Int? = nil,
                flags: UInt8? = nil, connectable: Bool? = nil, isScanResponse: Bool = false,
                services: [ServiceID] = [], manufacturerData: [ManufacturerData] = [],
                serviceData: [ServiceID: [UInt8]] = [:], appearance: UInt16? = nil,
                classOfDevice: UInt32? = nil, rawData: [UInt8] = [], paired: Bool? = nil, connected: Bool? = nil,
                invalidNameBytes: [UInt8]? = nil, malformed: Bool = false) {
        self.id = id
        self.timestamp = timestamp
        self.rssi = rssi
        self.name = name
        self.txPower = txPower
        self.flags = flags
        self.connectable = connectable
        self.isScanResponse = isScanResponse
        self.services = services
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.appearance = appearance
        self.classOfDevice = classOfDevice
        self.rawData = rawData
        self.paired = paired
        self.connected = connected
        self.invalidNameBytes = invalidNameBytes
        self.malformed = malformed
        heardAs = nil
    }

    /// The transport the device was seen on.
    public var transport: Transport { id.kind.transport }
}
