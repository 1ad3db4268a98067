// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Everything heard from one device so far, with its report counts.
public struct DeviceAggregate: Equatable, Sendable {
    /// The device.
    public let id: DeviceID
    /// Everything it advertised, folded by Domain's one merge rule.
    public private(set) var advertised = AdvertisedData()
    /// Reports, readings and times, counted by Domain's one rule.
    public private(set) var counts: ReportCounts
    /// The newest reading, dBm.
    public var rssi: Int? { counts.rssi }
    /// The strongest reading, dBm.
    public var rssiMax: Int? { counts.rssiMax }
    /// How many reports were counted.
    public var reports: Int { counts.reports }
    /// The earliest and the latest report.
    public var firstSeen: Date { counts.firstSeen }
    public var lastSeen: Date { counts.lastSeen }
    /// The latest observation in full; the repeat check compares new reports with its data.
    public private(set) var last: Observation
    /// The advertising data of its last report that was not a scan response.
    public private(set) var lastPayload: [UInt8] = []
    /// Every address it was heard at, oldest first, once it changed its private address; else empty.
    public private(set) var addresses: [DeviceID] = []
    /// Each source that heard it, in the order first heard, where several are in use.
    public private(set) var sources: [DeviceRecord.Source] = []
    /// Which of its sensor frames are believed, when its key is known.
    public internal(set) var sensorGuard: SensorGuard?

    /// The latest non-empty name.
    public var name: String? { advertised.name }
    /// Transmit power in dBm, as last advertised.
    public var txPower: Int? { advertised.txPower }
    /// The company most recently heard.
    public var manufacturer: ManufacturerData? { advertised.company }
    /// Every service UUID listed so far.
    public var services: [ServiceID] { advertised.services }

    /// What its advertising says as a sensor; with its key in `keys`, only what its guard believes.
    public func sensor(keys: SensorKeys?) -> SensorData? {
        SensorGuard.sensor(advertised, judged: sensorGuard, heardAt: (last.heardAs ?? id).address, owner: id.address,
                           at: lastSeen, keys: keys)
    }

    init(_ o: Observation) {
        id = o.id
        counts = ReportCounts(at: o.timestamp)
        last = o
        merge(o)
    }

    /// Folds in a newer observation; names and data seen once are kept when a later report lacks them.
    mutating func merge(_ o: Observation) {
        if let source = o.source {
            let heard = DeviceRecord.Source(name: source, rssi: o.rssi, lastSeen: o.timestamp)
            if let i = sources.firstIndex(where: { $0.name == source }) { sources[i] = heard } else { sources.append(heard) }
        }
        counts.count(rssi: o.rssi, at: o.timestamp)
        advertised.merge(o)
        last = o
        if !o.isScanResponse { lastPayload = o.rawData }
    }

    /// Notes that it went on to `address` (folded by the one rule).
    mutating func moved(to address: DeviceID) {
        if addresses.isEmpty { addresses = [last.heardAs ?? id] }
        addresses.append(address)
    }

    /// Counts a report that repeats the last one apart from its signal and time, and says
    /// whether it did: merging the same data again would change nothing else.
    mutating func absorb(_ report: RepeatedReport, of packet: UnsafeRawBufferPointer) -> Bool {
        guard last.connectable == report.connectable, last.isScanResponse == report.scanResponse,
              report.txPower == nil || report.txPower == last.txPower,
              last.rawData.count == report.data.count else { return false }
        let same = report.data.isEmpty || last.rawData.withUnsafeBytes { old in
            memcmp(old.baseAddress!, packet.baseAddress! + report.data.lowerBound, report.data.count) == 0
        }
        guard same else { return false }
        counts.count(rssi: report.rssi, at: report.time)
        last.timestamp = report.time
        last.rssi = report.rssi
        return true
    }
}

/// The fields of an LE advertising event that carries exactly one report, read in place. Only
/// what a repeat check needs; anything unusual is left to the full decoder.
struct RepeatedReport {
    let id: DeviceID
    let connectable: Bool
    let scanResponse: Bool
    /// False for a piece of a longer extended advertisement, which only the full decoder joins.
    let isWhole: Bool
    /// Where the address lies in the packet.
    let addressAt: Int
    let addressType: UInt8
    let rssi: Int?
    let txPower: Int?
    /// Where the advertising data lies in the packet.
    let data: Range<Int>
    let time: Date

    /// Reads a legacy (§7.7.65.2) or extended (§7.7.65.13) report event with one report whose
    /// lengths all agree; nil for anything else.
    @inline(__always)
    init?(_ packet: UnsafeRawBufferPointer, at time: Date) {
        guard packet.count >= 4, packet[0] == 0x3E, packet[3] == 1 else { return nil }
        let end = 2 + Int(packet[1])
        guard end <= packet.count else { return nil }
        let type: AdvertisingEventType
        let length: Int
        switch packet[2] {
        case 0x02:
            // sub, count, type, address type, address, length, data, RSSI
            guard end >= 14, let legacy = AdvertisingEventType(legacy: packet[4]) else { return nil }
            type = legacy
            addressType = packet[5]
            addressAt = 6
            length = Int(packet[12])
            guard length <= 31, 14 + length <= end else { return nil }
            data = 13 ..< 13 + length
            rssi = Self.dBm(packet[13 + length])
            txPower = nil
        case 0x0D:
            // sub, count, type (2), address type, address, PHYs and SID (3), TX power, RSSI, 9 more, length, data
            guard end >= 28 else { return nil }
            type = AdvertisingEventType(extended: UInt16(packet[4]) | UInt16(packet[5]) << 8)
            addressType = packet[6]
            addressAt = 7
            length = Int(packet[27])
            guard 28 + length <= end else { return nil }
            data = 28 ..< 28 + length
            txPower = Self.dBm(packet[16])
            rssi = Self.dBm(packet[17])
        default:
            return nil
        }
        var value: UInt64 = 0
        for i in 0..<6 { value |= UInt64(packet[addressAt + i]) << (8 * UInt64(i)) }
        id = DeviceID(value: value, kind: ObservationDecoder.kind(addressType: addressType))
        isWhole = type.dataStatus == 0
        connectable = type.connectable
        scanResponse = type.scanResponse
        self.time = time
    }

    /// A signed dBm byte; 127 means "not available".
    private static func dBm(_ byte: UInt8) -> Int? { byte == 127 ? nil : Int(Int8(bitPattern: byte)) }
}

/// Groups observations by device. The aggregates sit in an array, so a repeated report
/// updates its device in place; a dictionary value would be moved out and back per report.
/// A device that changes its private address is one entry, by the app's folding rule, unless
/// `perAddress` keeps every address apart.
public struct DeviceTable: Sendable {
    private var index: [DeviceID: Int] = [:]
    private var entries: [DeviceAggregate] = []
    private var fragments = AdvertisingFragments()
    private var folding = AddressFolding()
    /// The newest report time: the clock the folding rule reads, so a capture keeps its own time.
    private var newest = Date.distantPast

    /// Resolves private addresses to the identities of the keys it holds, each address once, when
    /// it is first heard; nil keeps every address a device of its own.
    public var resolver: PrivateAddressResolver?
    /// Lists every address as a device of its own (no folding).
    public let perAddress: Bool
    /// Encrypted sensors' keys: a sensor whose key is here is believed only for frames it opens.
    public var sensorKeys: SensorKeys?
    /// Each sensor frame that was not believed, in words ("A4:C1:…: packet 7 was heard already…").
    public private(set) var sensorRefusals: [String] = []

    public init(resolver: PrivateAddressResolver? = nil, perAddress: Bool = false) {
        self.resolver = resolver
        self.perAddress = perAddress
    }

    /// Every device, by identifier.
    public var devices: [DeviceID: DeviceAggregate] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
    }

    /// Adds one observation.
    public mutating func add(_ o: Observation) {
        var o = o
        if o.timestamp > newest { newest = o.timestamp }
        if let i = index[o.id] {
            // An address resolved or folded before: its reports fold into its row.
            if entries[i].id != o.id { o.resolve(to: entries[i].id) }
            merge(o, at: i)
        } else if let identity = resolver?.resolve(o.id) {
            o.resolve(to: identity)
            if let i = index[identity] {
                index[o.heardAs ?? o.id] = i
                entries[i].merge(o)
                judgeSensor(at: i, time: o.timestamp)
            } else {
                index[identity] = entries.count
                index[o.heardAs ?? o.id] = entries.count
                entries.append(DeviceAggregate(o))
                judgeSensor(at: entries.count - 1, time: o.timestamp)
            }
        } else if perAddress || !hold(o) {
            list(o)
        }
        if folding.isDue(newest: newest, now: newest) { settle(onlyDue: true) }
    }

    /// Decides every address still held: the source is done.
    public mutating func finish() {
        if folding.isHolding { settle(onlyDue: false) }
    }

    private mutating func list(_ o: Observation) {
        index[o.id] = entries.count
        entries.append(DeviceAggregate(o))
        judgeSensor(at: entries.count - 1, time: o.timestamp)
        if foldable(o.id) { folding.index(o.id, from: nil, to: entries[entries.count - 1].lastPayload) }
    }

    private mutating func merge(_ o: Observation, at i: Int) {
        defer { judgeSensor(at: i, time: o.timestamp) }
        guard !perAddress, foldable(entries[i].id) else { return entries[i].merge(o) }
        let before = entries[i].lastPayload
        entries[i].merge(o)
        folding.index(entries[i].id, from: before, to: entries[i].lastPayload)
    }

    /// Feeds a keyed sensor's newest frame to its guard, noting a frame not believed.
    private mutating func judgeSensor(at i: Int, time: Date) {
        guard sensorKeys != nil, entries[i].advertised.hasSensor else { return }
        let entry = entries[i]
        let verdict = SensorGuard.judge(&entries[i].sensorGuard, entry.advertised, heardAt: (entry.last.heardAs ?? entry.id).address,
                                        owner: entry.id.address, keys: sensorKeys, at: time)
        if let refusal = verdict?.refusal { sensorRefusals.append("\(entry.id.address): \(refusal)") }
    }

    /// A private address no key resolves: the only kind the rule folds.
    private func foldable(_ id: DeviceID) -> Bool { AddressType(id) == .resolvablePrivate }

    private mutating func hold(_ o: Observation) -> Bool {
        let index = self.index, entries = self.entries
        return folding.hold(o, foldable: foldable(o.id), now: o.timestamp) { id in index[id].map { entries[$0].lastSeen } } != nil
    }

    /// Decides the held addresses that are due, or (the source is done) all of them.
    private mutating func settle(onlyDue: Bool) {
        let decided: [AddressFolding.Settled]
        do {
            let index = self.index, entries = self.entries
            decided = folding.settle(newest: newest, now: newest, onlyDue: onlyDue, ended: !onlyDue) { id in
                index[id].map { entries[$0].lastSeen }
            }
        }
        for settled in decided {
            if let row = settled.row, let i = index[row] {
                index[settled.address] = i
                entries[i].moved(to: settled.address)
                for o in settled.reports { merge(o, at: i) }
            } else if let first = settled.reports.first {
                list(first)
                for o in settled.reports.dropFirst() { merge(o, at: index[o.id]!) }
            }
        }
    }

    /// Folds in one HCI event packet (code, length, parameters) and returns how many reports it
    /// held. A report that repeats its device's last one apart from signal and time is counted
    /// without decoding its data again, since a busy room mostly repeats itself; everything else
    /// goes through the full decoder and fails with its errors.
    @discardableResult
    public mutating func add(event packet: ArraySlice<UInt8>, at time: Date) throws(DecodeError) -> Int {
        if packet.withUnsafeBytes({ absorbRepeat($0, at: time) }) { return 1 }
        return try decode(packet, at: time)
    }

    /// The same for a packet that lies in a reader's buffer: a repeat is counted in place, and
    /// only a report to decode is copied out.
    @discardableResult
    public mutating func add(event packet: UnsafeRawBufferPointer, at time: Date) throws(DecodeError) -> Int {
        if absorbRepeat(packet, at: time) { return 1 }
        return try decode(Array(packet)[...], at: time)
    }

    @inline(__always)
    private mutating func absorbRepeat(_ packet: UnsafeRawBufferPointer, at time: Date) -> Bool {
        guard let report = RepeatedReport(packet, at: time), report.isWhole, let i = index[report.id] else { return false }
        if !fragments.isEmpty,
           fragments.isPending(address: Array(packet[report.addressAt ..< report.addressAt + 6])[...], addressType: report.addressType) {
            return false
        }
        return entries[i].absorb(report, of: packet)
    }

    private mutating func decode(_ packet: ArraySlice<UInt8>, at time: Date) throws(DecodeError) -> Int {
        let observations = try ObservationDecoder.observations(inEvent: packet, at: time, fragments: &fragments)
        for o in observations { add(o) }
        return observations.count
    }

    /// Devices ordered by address (call `finish` first, or addresses still held are left out).
    public var sorted: [DeviceAggregate] { entries.sorted { $0.id < $1.id } }
}
