// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// One reading of a sensor at one time, as its history keeps it: the reading's name
/// ("temperature", "temperature_2") and its value in the quantity's unit.
public struct SensorSample: Equatable, Sendable {
    public let id: DeviceID
    public let time: Date
    public let key: String
    public let value: Double

    public init(id: DeviceID, time: Date, key: String, value: Double) {
        self.id = id
        self.time = time
        self.key = key
        self.value = value
    }
}

/// Where favorites' readings are kept, bounded by days and rows as sightings are.
public protocol SensorReadingsRepository: Sendable {
    /// Stores a batch in one transaction.
    func record(_ samples: [SensorSample]) async throws
    /// The device's readings since `since`, oldest first.
    func history(for id: DeviceID, since: Date) async throws -> [SensorSample]
    /// Deletes readings beyond `retention` as of `now`; returns how many were deleted.
    @discardableResult
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int
}

/// What LiveDevices samples of each sensor: every 10 s into the last hour, kept in memory for any
/// sensor, and every minute into the store for favorites. A sensor that advertises every second
/// would otherwise write 86,400 rows a day.
final class SensorSampler {
    static let memoryInterval: TimeInterval = 10
    static let storeInterval: TimeInterval = 60
    static let memorySpan: TimeInterval = 3600

    private(set) var recent: [DeviceID: [SensorSample]] = [:]
    private var lastMemory: [DeviceID: Date] = [:]
    private var lastStored: [DeviceID: Date] = [:]

    /// Whether `id` is due a sample at `time`, in memory or (when `keep`) in the store.
    func isDue(_ id: DeviceID, at time: Date, keep: Bool) -> Bool {
        if lastMemory[id].map({ time.timeIntervalSince($0) >= Self.memoryInterval }) ?? true { return true }
        return keep && (lastStored[id].map { time.timeIntervalSince($0) >= Self.storeInterval } ?? true)
    }

    /// Takes `data`'s readings (measurements only: states and events are no line) at `time`;
    /// returns those to store.
    func take(_ id: DeviceID, _ data: SensorData, at time: Date, keep: Bool) -> [SensorSample] {
        let samples = data.named.compactMap { key, reading in
            reading.quantity.kind == .measurement && reading.quantity != .packetID
                ? SensorSample(id: id, time: time, key: key, value: reading.value) : nil
        }
        guard !samples.isEmpty else { return [] }
        if lastMemory[id].map({ time.timeIntervalSince($0) >= Self.memoryInterval }) ?? true {
            lastMemory[id] = time
            var kept = (recent[id] ?? []) + samples
            if let first = kept.first, time.timeIntervalSince(first.time) > Self.memorySpan {
                kept.removeAll { time.timeIntervalSince($0.time) > Self.memorySpan }
            }
            recent[id] = kept
        }
        guard keep, lastStored[id].map({ time.timeIntervalSince($0) >= Self.storeInterval }) ?? true else { return [] }
        lastStored[id] = time
        return samples
    }

    /// Each device's states (a door, motion) as last taken, and their changes over the last day.
    private var lastStates: [DeviceID: [String: Double]] = [:]
    private(set) var stateChanges: [DeviceID: [SensorSample]] = [:]
    /// The changes kept in memory per device: a day's at most.
    static let stateChangesKept = 500

    /// Takes `data`'s states where one changed since the last report (a door open for 10 s
    /// between two samples is a change all the same), and each new frame's event. Returns the changes, which the store keeps
    /// for a favorite (`keep`) as its timeline.
    func changes(_ id: DeviceID, _ data: SensorData, at time: Date, keep: Bool) -> [SensorSample] {
        var changed: [SensorSample] = []
        var states = lastStates[id] ?? [:]
        // An event (a button pressed) once per frame: a sensor repeats each frame with its packet number.
        let packet = data.readings.first { $0.quantity == .packetID }?.value ?? data.packetID.map(Double.init) ?? -1
        for (key, reading) in data.named where reading.quantity.kind != .measurement {
            let seen = reading.quantity.kind == .event ? reading.value + packet * 65_536 : reading.value
            guard states[key] != seen else { continue }
            states[key] = seen
            // Code 0 is "no event" in this frame.
            if reading.quantity.kind == .event, reading.value == 0 { continue }
            changed.append(SensorSample(id: id, time: time, key: key, value: reading.value))
        }
        lastStates[id] = states
        guard !changed.isEmpty else { return [] }
        var kept = (stateChanges[id] ?? []) + changed
        if kept.count > Self.stateChangesKept { kept.removeFirst(kept.count - Self.stateChangesKept) }
        stateChanges[id] = kept
        return keep ? changed : []
    }

    /// Forgets a device that left the list.
    func forget(_ id: DeviceID) {
        recent[id] = nil
        lastMemory[id] = nil
        lastStates[id] = nil
        stateChanges[id] = nil
        lastStored[id] = nil
    }
}
