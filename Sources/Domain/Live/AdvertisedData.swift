// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Everything a device has advertised so far, folded report by report.
///
/// This is the one merge rule for a device's advertising: the engine's device table,
/// the live-device model and every page read it. Advertising and scan response
/// carry different fields, so fields accumulate instead of being replaced.
public struct AdvertisedData: Equatable, Sendable {
    /// The latest non-empty advertised or remote name.
    public private(set) var name: String?
    /// Transmit power in dBm, as last advertised.
    public private(set) var txPower: Int?
    /// The AD flags byte, as last advertised.
    public private(set) var flags: UInt8?
    /// Whether it accepts connections; a scan response says nothing about it. Nil for BR/EDR.
    public private(set) var connectable: Bool?
    /// GAP appearance value.
    public private(set) var appearance: UInt16?
    /// BR/EDR class of device (24 bits).
    public private(set) var classOfDevice: UInt32?
    /// Every service UUID listed so far, in the order first heard.
    public private(set) var services: [ServiceID] = []
    /// One block per company, the most recently heard last.
    public private(set) var manufacturerData: [ManufacturerData] = []
    /// Service data blocks, by UUID; the newest block per UUID.
    public private(set) var serviceData: [ServiceID: [UInt8]] = [:]
    /// Whether the system has paired with it, as last reported; nil when the source cannot tell.
    public private(set) var paired: Bool?
    /// Whether the system holds a connection to it, as last reported; nil when the source cannot tell.
    public private(set) var connected: Bool?
    /// Its battery level in percent, as last read; nil when unknown.
    public internal(set) var battery: Int?
    /// What its advertising says as a sensor or beacon, decoded without keys (an encrypted frame
    /// says only that it is encrypted); nil when no family reads it. Decoded when the payload
    /// changes, not per report.
    public var sensor: SensorData? { sensorBox?.data }
    /// Whether a family read it, without copying what it read (asked per report).
    public var hasSensor: Bool { sensorBox != nil }
    /// Whether it is an encrypted sensor's, without copying what was read.
    public var hasEncryptedSensor: Bool { sensorBox?.data.encrypted == true }
    /// Held by reference: the fold copies a device's data with every report, and a sensor's
    /// readings are arrays of strings that each copy would retain one by one.
    private var sensorBox: SensorBox?

    /// The bytes of `name` when they were not valid UTF-8.
    public private(set) var invalidNameBytes: [UInt8]?
    /// Whether any report's advertising data broke off inside a structure.
    public private(set) var malformed = false

    /// Nothing heard yet.
    public init() {}

    /// What one report says.
    public init(_ observation: Observation) {
        merge(observation)
    }

    /// The company most recently heard, for one-line summaries.
    public var company: ManufacturerData? { manufacturerData.last }

    /// Folds in a newer report.
    public mutating func merge(_ o: Observation) {
        let oldName = name
        if let name = o.name, !name.isEmpty {
            self.name = name
            invalidNameBytes = o.invalidNameBytes
        }
        if o.malformed { malformed = true }
        if let value = o.txPower { txPower = value }
        if let value = o.flags { flags = value }
        if !o.isScanResponse, let value = o.connectable { connectable = value }
        if let value = o.appearance { appearance = value }
        if let value = o.classOfDevice { classOfDevice = value }
        var payloadChanged = false
        for service in o.services where !services.contains(service) {
            services.append(service)
            payloadChanged = true  // some families are told by a listed service
        }
        if !o.manufacturerData.isEmpty {
            let newer = Set(o.manufacturerData.map(\.companyID))
            payloadChanged = o.manufacturerData.contains { block in
                !manufacturerData.contains { $0.companyID == block.companyID && $0.data == block.data }
            }
            manufacturerData.removeAll { newer.contains($0.companyID) }
            manufacturerData += o.manufacturerData
        }
        for (service, data) in o.serviceData where serviceData[service] != data {
            serviceData[service] = data
            payloadChanged = true
        }
        // Some families tell their models apart by name, so a new name decodes again too.
        if payloadChanged || (name != oldName && !(manufacturerData.isEmpty && serviceData.isEmpty)) {
            let older = sensorBox?.data
            sensorBox = SensorDecoders.decode(SensorFrame(address: "", name: name, manufacturerData: manufacturerData,
                                                          serviceData: serviceData, services: services))
                .map { SensorBox($0.keepingProbes(of: older)) }
        }
        if let value = o.paired { paired = value }
        if let value = o.connected { connected = value }
        if let value = o.battery { battery = value }
    }
}

/// A sensor's data behind one reference (see `AdvertisedData.sensorBox`).
final class SensorBox: Sendable, Equatable {
    let data: SensorData

    init(_ data: SensorData) { self.data = data }

    static func == (a: SensorBox, b: SensorBox) -> Bool { a === b || a.data == b.data }
}
