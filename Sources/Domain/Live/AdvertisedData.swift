// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Synchronization

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
    /// says only that it is encrypted); nil when no family reads it. Decoded when first asked
    /// after the payload changed, not per report: a replay or a busy room folds far more
    /// reports than anyone reads.
    public var sensor: SensorData? { sensorCache.read { frame } }
    /// The payload as a decoder reads it.
    private var frame: SensorFrame {
        SensorFrame(heardAt: heardAt, name: name, manufacturerData: manufacturerData, serviceData: serviceData, services: services)
    }
    /// Whether a family read it (decoding it if need be).
    public var hasSensor: Bool { sensor != nil }
    /// The address its last report came from (nil before any): a format that carries the device's
    /// own address (Jaalee's compact block) is told by it. Kept as the ID, not as text: this is
    /// set by every report.
    public private(set) var heardAt: DeviceID?
    /// Whether it is an encrypted sensor's.
    public var hasEncryptedSensor: Bool { sensor?.encrypted == true }
    /// What was decoded since the payload last changed, behind one reference: the fold copies
    /// a device's data with every report.
    private var sensorCache = SensorCache()
    /// A report of it may have been a family's that sends its probes a few a frame.
    private var sendsPartialFrames = Derived()

    /// The last advertising data and scan response heard, as they were sent (Clone This Device).
    public private(set) var lastAdvertising: [UInt8] = []
    public private(set) var lastScanResponse: [UInt8] = []

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
        // A family that sends its probes a few a frame needs those of the frames before.
        // Asked of each report, not of all that was heard: each family's first look holds for
        // any one part of a device's advertising (a block, a listed service), and once true stays.
        // So a report whose blocks were all heard before, and that lists nothing, is not asked again.
        let newBlock = o.manufacturerData.contains { block in
            !manufacturerData.contains { $0.companyID == block.companyID && $0.data == block.data }
        }
        if !sendsPartialFrames.value, newBlock || !o.services.isEmpty || !o.serviceData.isEmpty {
            sendsPartialFrames.value = SensorDecoders.mayBePartial(o.services, o.manufacturerData, o.serviceData)
        }
        let before = sendsPartialFrames.value ? frame : nil
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
        let address = o.heardAs ?? o.id
        if address != heardAt {
            payloadChanged = heardAt != nil
            heardAt = address
        }
        for service in o.services where !services.contains(service) {
            services.append(service)
            payloadChanged = true  // some families are told by a listed service
        }
        payloadChanged = payloadChanged || newBlock
        // The same one block again changes nothing, not even the order.
        if !o.manufacturerData.isEmpty, newBlock || o.manufacturerData.count != 1 || manufacturerData.count != 1 {
            manufacturerData.removeAll { old in o.manufacturerData.contains { $0.companyID == old.companyID } }
            manufacturerData += o.manufacturerData
        }
        for (service, data) in o.serviceData where serviceData[service] != data {
            serviceData[service] = data
            payloadChanged = true
        }
        // Some families tell their models apart by name, so a new name decodes again too.
        if payloadChanged || (name != oldName && !(manufacturerData.isEmpty && serviceData.isEmpty)) {
            // A cache no copy holds is emptied in place: no allocation per sensor report.
            if isKnownUniquelyReferenced(&sensorCache) {
                sensorCache.reset(after: before)
            } else {
                sensorCache = sensorCache.continued(after: before)
            }
        }
        if !o.rawData.isEmpty {
            if o.isScanResponse { lastScanResponse = o.rawData } else { lastAdvertising = o.rawData }
        }
        if let value = o.paired { paired = value }
        if let value = o.connected { connected = value }
        if let value = o.battery { battery = value }
    }
}

/// A flag derived from the reports folded, so no part of equality.
struct Derived: Equatable, Sendable {
    var value = false
    static func == (a: Derived, b: Derived) -> Bool { true }
}
