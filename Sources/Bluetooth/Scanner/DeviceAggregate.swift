// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Everything heard from one device so far.
public struct DeviceAggregate: Sendable {
    public let id: DeviceID
    public var name: String?
    public var rssi: Int?
    public var rssiMax: Int?
    public var txPower: Int?
    public var manufacturer: ManufacturerData?
    public var services: [ServiceID] = []
    public var reports = 0
    public var firstSeen: Date
    public var lastSeen: Date
    /// The latest observation in full.
    public var last: Observation

    init(_ o: Observation) {
        id = o.id
        firstSeen = o.timestamp
        lastSeen = o.timestamp
        last = o
        merge(o)
    }

    /// Folds in a newer observation; names and data seen once are kept when a later report lacks them.
    mutating func merge(_ o: Observation) {
        reports += 1
        if let name = o.name, !name.isEmpty { self.name = name }
        if let value = o.rssi {
            rssi = value
            rssiMax = max(rssiMax ?? value, value)
        }
        if let tx = o.txPower { txPower = tx }
        if let m = o.manufacturerData.first { manufacturer = m }
        for service in o.services where !services.contains(service) { services.append(service) }
        lastSeen = max(lastSeen, o.timestamp)
        firstSeen = min(firstSeen, o.timestamp)
        last = o
    }
}

/// Groups observations by device.
public struct DeviceTable: Sendable {
    public private(set) var devices: [DeviceID: DeviceAggregate] = [:]

    public init() {}

    /// Adds one observation.
    public mutating func add(_ o: Observation) {
        if devices[o.id] != nil { devices[o.id]!.merge(o) } else { devices[o.id] = DeviceAggregate(o) }
    }

    /// Devices ordered by address.
    public var sorted: [DeviceAggregate] { devices.values.sorted { $0.id < $1.id } }
}
