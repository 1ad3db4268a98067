// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One device heard in this session: everything the pages show of it while it is live.
///
/// Per-device state lives here and nowhere else, so later state (a connection,
/// unread messages) joins this record instead of another page's model.
public struct LiveDevice: Sendable {
    /// The device.
    public let id: DeviceID
    /// `id.storageKey`, made once: thousands of rows are keyed four times a second.
    public let key: String
    /// "AA:BB:… · LE random", made once for the same reason (and again when it turns out to
    /// change its address).
    public private(set) var identifierLine: String
    /// Everything it advertised so far.
    public private(set) var advertised: AdvertisedData
    /// Reports, readings and times, counted by the one rule `favblue-scan` uses too.
    public private(set) var counts: ReportCounts
    /// The newest reading, dBm.
    public var rssi: Int? { counts.rssi }
    /// The strongest reading, dBm.
    public var rssiMax: Int? { counts.rssiMax }
    /// An exponential moving average of the readings, dBm.
    public private(set) var smoothedRSSI: Double?
    /// One reading a second over the last five minutes or so.
    public private(set) var trace = SignalTrace()
    /// How many reports were folded in.
    public var reports: Int { counts.reports }
    /// When it was first heard in this session.
    public var firstSeen: Date { counts.firstSeen }
    /// When it was last heard.
    public var lastSeen: Date { counts.lastSeen }
    /// The source said it went out of range, and it has not been heard since.
    public private(set) var departed = false
    /// The resolvable private address it was last heard from, when `id` is the identity behind it.
    public private(set) var heardAddress: DeviceID?
    /// The advertising data of its last report that was not a scan response.
    public private(set) var lastPayload: [UInt8] = []
    /// Addresses it used before, oldest first, when it was seen to change its address.
    public private(set) var formerAddresses: [DeviceID] = []
    /// Each source that heard it, where several are in use; empty with one alone.
    public private(set) var heardBy: [SourceHearing] = []
    /// The room it is in: the source that hears it best, with hysteresis.
    public private(set) var room = RoomChoice()
    /// Which of its sensor frames are believed, once its key is known; nil without a key.
    public internal(set) var sensorGuard: SensorGuard?

    /// A device as its first report describes it.
    public init(_ first: Observation) {
        id = first.id
        key = first.id.storageKey
        identifierLine = first.id.identifierLine
        advertised = AdvertisedData()
        counts = ReportCounts(at: first.timestamp)
        fold(first)
    }

    /// The smoothed signal, rounded, dBm.
    public var smoothed: Int? { smoothedRSSI.map { Int($0.rounded()) } }

    /// Its battery level in percent, as last read (over BlueZ or from the connected device's
    /// Battery Level); nil when unknown.
    public var battery: Int? { advertised.battery }

    /// Notes a battery level read over a connection.
    mutating func noteBattery(_ percent: Int) { advertised.battery = percent }

    /// Folds in a newer report.
    public mutating func fold(_ o: Observation) {
        advertised.merge(o)
        heardAddress = o.heardAs
        if !o.isScanResponse { lastPayload = o.rawData }
        counts.count(rssi: o.rssi, at: o.timestamp)
        if let value = o.rssi {
            // A steady figure that still follows a walk away: 30 % of each new reading.
            smoothedRSSI = smoothedRSSI.map { $0 * 0.7 + Double(value) * 0.3 } ?? Double(value)
            trace.add(value, at: o.timestamp)
        }
        if let source = o.source {
            if let i = heardBy.firstIndex(where: { $0.source == source }) {
                heardBy[i].fold(o)
            } else {
                heardBy.append(SourceHearing(o, source: source))
            }
            room.update(heardBy, at: o.timestamp)
        }
        departed = false
    }

    /// The address it is heard from now: the one after `heardAddress`'s resolution, else its own.
    public var currentAddress: DeviceID { heardAddress ?? id }

    /// Every address it was heard at, oldest first, once it changed its address; else empty.
    public var addresses: [DeviceID] { formerAddresses.isEmpty ? [] : formerAddresses + [currentAddress] }

    /// Notes that it went on from its current address, so the row says it changes its address.
    public mutating func noteAddressChange() {
        formerAddresses.append(currentAddress)
        if formerAddresses.count == 1 {
            identifierLine = L10n.format("{} · changes its address", identifierLine)
        }
    }

    /// The same device kept under `identity`, which pairing showed its address to belong to.
    /// Everything heard stays; the address it had is listed as an earlier one.
    public init(_ other: LiveDevice, movedTo identity: DeviceID) {
        id = identity
        key = identity.storageKey
        identifierLine = identity.identifierLine
        advertised = other.advertised
        counts = other.counts
        smoothedRSSI = other.smoothedRSSI
        trace = other.trace
        departed = other.departed
        lastPayload = other.lastPayload
        heardBy = other.heardBy
        room = other.room
        formerAddresses = other.formerAddresses + [other.currentAddress]
    }

    /// Notes `address` as one it used before (a row pairing folded into this one).
    public mutating func noteFormer(_ address: DeviceID) {
        if !formerAddresses.contains(address) { formerAddresses.append(address) }
    }

    /// Marks it out of range: it fades at once, and goes like any silent device.
    public mutating func depart() { departed = true }

    /// Seconds since it was last heard, as of `now`.
    public func age(at now: Date) -> Double { now.timeIntervalSince(lastSeen) }
}
