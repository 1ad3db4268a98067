// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One device heard in this session: everything the pages show of it while it is live.
///
/// Per-device state lives here and nowhere else, so later state (a connection,
/// unread messages) joins this record instead of another page's model.
///
/// Its state is behind one reference, copied when a shared copy is changed: the Scanner's
/// list is made from a copy of every device while reports keep coming in, and copying a
/// thousand devices was then a thousand times twenty references on the main thread.
public struct LiveDevice: Sendable {
    private struct State {
        let id: DeviceID
        let key: String
        var identifierLine: String
        var advertised: AdvertisedData
        var counts: ReportCounts
        var smoothedRSSI: Double?
        var trace = SignalTrace()
        var departed = false
        var heardAddress: DeviceID?
        var lastPayload: [UInt8] = []
        var formerAddresses: [DeviceID] = []
        var heardBy: [SourceHearing] = []
        var room = RoomChoice()
        var sensorGuard: SensorGuard?

        /// Folds in a newer report.
        mutating func fold(_ o: Observation) {
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
    }

    /// Changed only while no other copy holds it (`state`'s modify), so shared between threads as a value.
    private final class Box: @unchecked Sendable {
        var state: State
        init(_ state: State) { self.state = state }
    }

    private var box: Box

    private var state: State {
        _read { yield box.state }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.state) }
            yield &box.state
        }
    }

    /// The device.
    public var id: DeviceID { state.id }
    /// `id.storageKey`, made once: thousands of rows are keyed four times a second.
    public var key: String { state.key }
    /// "AA:BB:… · LE random", made once for the same reason (and again when it turns out to
    /// change its address).
    public var identifierLine: String { state.identifierLine }
    /// Everything it advertised so far.
    public var advertised: AdvertisedData { _read { yield state.advertised } }
    /// Reports, readings and times, counted by the one rule `favblue-scan` uses too.
    public var counts: ReportCounts { state.counts }
    /// The newest reading, dBm.
    public var rssi: Int? { state.counts.rssi }
    /// The strongest reading, dBm.
    public var rssiMax: Int? { state.counts.rssiMax }
    /// An exponential moving average of the readings, dBm.
    public var smoothedRSSI: Double? { state.smoothedRSSI }
    /// One reading a second over the last five minutes or so.
    public var trace: SignalTrace { _read { yield state.trace } }
    /// How many reports were folded in.
    public var reports: Int { state.counts.reports }
    /// When it was first heard in this session.
    public var firstSeen: Date { state.counts.firstSeen }
    /// When it was last heard.
    public var lastSeen: Date { state.counts.lastSeen }
    /// The source said it went out of range, and it has not been heard since.
    public var departed: Bool { state.departed }
    /// The resolvable private address it was last heard from, when `id` is the identity behind it.
    public var heardAddress: DeviceID? { state.heardAddress }
    /// The advertising data of its last report that was not a scan response.
    public var lastPayload: [UInt8] { state.lastPayload }
    /// Addresses it used before, oldest first, when it was seen to change its address.
    public var formerAddresses: [DeviceID] { state.formerAddresses }
    /// Each source that heard it, where several are in use; empty with one alone.
    public var heardBy: [SourceHearing] { _read { yield state.heardBy } }
    /// The room it is in: the source that hears it best, with hysteresis.
    public var room: RoomChoice { _read { yield state.room } }
    /// Which of its sensor frames are believed, once its key is known; nil without a key.
    public internal(set) var sensorGuard: SensorGuard? {
        _read { yield state.sensorGuard }
        _modify { yield &state.sensorGuard }
    }

    /// A device as its first report describes it.
    public init(_ first: Observation) {
        box = Box(State(id: first.id, key: first.id.storageKey, identifierLine: first.id.identifierLine,
                        advertised: AdvertisedData(), counts: ReportCounts(at: first.timestamp)))
        fold(first)
    }

    /// The smoothed signal, rounded, dBm.
    public var smoothed: Int? { state.smoothedRSSI.map { Int($0.rounded()) } }

    /// Its battery level in percent, as last read (over BlueZ or from the connected device's
    /// Battery Level); nil when unknown.
    public var battery: Int? { state.advertised.battery }

    /// Notes a battery level read over a connection.
    mutating func noteBattery(_ percent: Int) { state.advertised.battery = percent }

    /// Folds in a newer report.
    public mutating func fold(_ o: Observation) {
        state.fold(o)
    }

    /// The address it is heard from now: the one after `heardAddress`'s resolution, else its own.
    public var currentAddress: DeviceID { state.heardAddress ?? state.id }

    /// Every address it was heard at, oldest first, once it changed its address; else empty.
    public var addresses: [DeviceID] { formerAddresses.isEmpty ? [] : formerAddresses + [currentAddress] }

    /// Notes that it went on from its current address, so the row says it changes its address.
    public mutating func noteAddressChange() {
        let current = currentAddress
        state.formerAddresses.append(current)
        if state.formerAddresses.count == 1 {
            state.identifierLine = L10n.format("{} · changes its address", state.identifierLine)
        }
    }

    /// The same device kept under `identity`, which pairing showed its address to belong to.
    /// Everything heard stays; the address it had is listed as an earlier one.
    public init(_ other: LiveDevice, movedTo identity: DeviceID) {
        var moved = State(id: identity, key: identity.storageKey, identifierLine: identity.identifierLine,
                          advertised: other.advertised, counts: other.counts)
        moved.smoothedRSSI = other.smoothedRSSI
        moved.trace = other.trace
        moved.departed = other.departed
        moved.lastPayload = other.lastPayload
        moved.heardBy = other.heardBy
        moved.room = other.room
        moved.formerAddresses = other.formerAddresses + [other.currentAddress]
        box = Box(moved)
    }

    /// Notes `address` as one it used before (a row pairing folded into this one).
    public mutating func noteFormer(_ address: DeviceID) {
        if !state.formerAddresses.contains(address) { state.formerAddresses.append(address) }
    }

    /// Marks it out of range: it fades at once, and goes like any silent device.
    public mutating func depart() { state.departed = true }

    /// Seconds since it was last heard, as of `now`.
    public func age(at now: Date) -> Double { now.timeIntervalSince(lastSeen) }
}
