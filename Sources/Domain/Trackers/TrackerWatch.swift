// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Follows the trackers heard, across their address changes where their family allows, and
/// raises an alert when `TrackerRule` says one is moving with you. No threads and no clock of
/// its own: the app feeds it live reports, `favblue-scan trackers` a capture's.
public final class TrackerWatch {
    /// One tracker as followed so far.
    public struct Tracked: Equatable, Sendable {
        public let key: String
        public let family: TrackerFamily
        public let kind: TrackerKind
        public let state: TrackerState
        public let addresses: [DeviceID]
        public let firstSeen: Date
        public let lastSeen: Date
    }

    /// A tracker's record, changed in place: reports come thousands a second.
    private final class Entry {
        let key: String
        let family: TrackerFamily
        var kind: TrackerKind
        var state: TrackerState
        var addresses: [DeviceID] = []
        var firstSeen: Date
        var lastSeen: Date
        var agingCounter: UInt32?
        /// At most one a minute (`TrackerRule.markSeconds`), within the rule's window.
        var marks: [TrackerSighting] = []

        init(key: String, family: TrackerFamily, kind: TrackerKind, state: TrackerState, at time: Date) {
            self.key = key
            self.family = family
            self.kind = kind
            self.state = state
            firstSeen = time
            lastSeen = time
        }

        var snapshot: Tracked {
            Tracked(key: key, family: family, kind: kind, state: state, addresses: addresses, firstSeen: firstSeen, lastSeen: lastSeen)
        }
    }

    public var rule: TrackerRule
    /// Trackers that never alert (your own), by key or by the storage key of any of their addresses.
    public var trusted: Set<String> = []
    public private(set) var alerts: [TrackerAlert] = []
    private var entries: [String: Entry] = [:]
    private var entryOfAddress: [DeviceID: Entry] = [:]
    private var silencedUntil: [String: Date] = [:]
    private var alerted: Set<String> = []
    /// Marks made since `takeNewSightings()` last ran: what the guard stores.
    private var fresh: [TrackerSighting] = []
    /// Two reports this close are "heard at once": such trackers are never taken for one.
    private let together: TimeInterval = 2
    /// How long a SmartTag may be silent before a new address continues it.
    private let smartTagGap: TimeInterval = 30 * 60

    public init(rule: TrackerRule) {
        self.rule = rule
    }

    /// Every tracker followed so far, by key.
    public var trackers: [String: Tracked] { entries.mapValues(\.snapshot) }

    /// The tracker `key`, as followed so far.
    public func tracked(_ key: String) -> Tracked? { entries[key]?.snapshot }

    /// When `key` was last heard: a cheap way to see that something changed.
    public func lastSeen(of key: String) -> Date? { entries[key]?.lastSeen }

    /// Stops alerts for `key` until `date` ("Not a Threat" gives 24 h).
    public func silence(_ key: String, until date: Date) {
        silencedUntil[key] = date
    }

    /// The tracker an address belongs to, once heard.
    public func key(of address: DeviceID) -> String? { entryOfAddress[address]?.key }

    /// What was marked of `key` within the rule's window, oldest first: the page's timeline.
    public func sightings(of key: String) -> [TrackerSighting] { entries[key]?.marks ?? [] }

    /// The marks made since the last call, for the store.
    public func takeNewSightings() -> [TrackerSighting] {
        defer { fresh = [] }
        return fresh
    }

    /// Lets go of the trackers silent since before `cutoff`: a long run keeps no more than a day's.
    public func forget(silentSince cutoff: Date) {
        for (key, entry) in entries where entry.lastSeen < cutoff {
            entries[key] = nil
            for address in entry.addresses where entryOfAddress[address] === entry { entryOfAddress[address] = nil }
            alerted.remove(key)
        }
        alerts.removeAll { entries[$0.tracker] == nil }
    }

    /// Takes back what an earlier run kept: its sightings (oldest first), the alerts it raised
    /// and the silences still running. What this run heard already stays, merged in time order.
    public func restore(sightings: [TrackerSighting], alerts: [TrackerAlert], silences: [String: Date]) {
        for sighting in sightings {
            let entry = entries[sighting.tracker] ?? Entry(key: sighting.tracker, family: sighting.family, kind: sighting.kind,
                                                           state: sighting.state, at: sighting.time)
            entries[sighting.tracker] = entry
            if entryOfAddress[sighting.address] == nil {
                entryOfAddress[sighting.address] = entry
                entry.addresses.append(sighting.address)
            }
            entry.firstSeen = min(entry.firstSeen, sighting.time)
            entry.lastSeen = max(entry.lastSeen, sighting.time)
            entry.marks.append(sighting)
        }
        for entry in entries.values { entry.marks.sort { $0.time < $1.time } }
        for alert in alerts where !alerted.contains(alert.tracker) {
            alerted.insert(alert.tracker)
            self.alerts.append(alert)
        }
        silencedUntil.merge(silences) { max($0, $1) }
    }

    /// Takes in one report; returns the alert it makes due, if any.
    @discardableResult
    public func heard(_ address: DeviceID, _ reading: TrackerReading, at time: Date, place: String?, session: Int, rssi: Int? = nil) -> TrackerAlert? {
        guard reading.kind.isTag else { return nil }
        let entry = entryOfAddress[address] ?? link(address, reading, at: time)
        entry.kind = reading.kind
        entry.state = reading.state
        if time > entry.lastSeen { entry.lastSeen = time }
        if let counter = reading.agingCounter { entry.agingCounter = counter }
        if let last = entry.marks.last, time.timeIntervalSince(last.time) < rule.markSeconds, last.place == place, last.session == session {
            // One mark a minute is enough for minutes and places; nothing new to judge.
            return nil
        }
        let mark = TrackerSighting(tracker: entry.key, family: entry.family, kind: entry.kind, state: entry.state, address: address,
                                   time: time, rssi: rssi, place: place, session: session)
        entry.marks.append(mark)
        fresh.append(mark)
        let start = time.addingTimeInterval(-rule.windowHours * 3600)
        if let first = entry.marks.first, first.time < start { entry.marks.removeAll { $0.time < start } }
        return check(entry, reading: reading, at: time)
    }

    private func check(_ entry: Entry, reading: TrackerReading, at time: Date) -> TrackerAlert? {
        guard reading.mayBeFollowing, !alerted.contains(entry.key), let first = entry.marks.first?.time else { return nil }
        if let until = silencedUntil[entry.key], time < until { return nil }
        let span = time.timeIntervalSince(first)
        let places = Set(entry.marks.compactMap(\.place))
        let due: Bool
        if entry.marks.contains(where: { $0.place != nil }) {
            due = span >= rule.minutes * 60 && places.count >= rule.places
        } else {
            due = span >= rule.timeAloneHours * 3600 && Set(entry.marks.map(\.session)).count >= rule.timeAloneSessions
        }
        guard due, !trusted.contains(entry.key), !entry.addresses.contains(where: { trusted.contains($0.storageKey) }) else { return nil }
        alerted.insert(entry.key)
        let alert = TrackerAlert(tracker: entry.key, family: entry.family, kind: entry.kind, addresses: entry.addresses,
                                 firstSeen: first, lastSeen: time, places: places.count)
        alerts.append(alert)
        return alert
    }

    /// The key a tracker heard at `address` saying `reading` is followed by, when nothing else
    /// heard links it to another: its stable bytes where it has them, else its address.
    public static func key(of address: DeviceID, _ reading: TrackerReading) -> String {
        guard let stable = reading.stableID else { return "\(reading.family.rawValue):\(address.storageKey)" }
        return "\(reading.family.rawValue):\(Hex.compact(Array(stable)))"
    }

    /// The tracker a newly heard `address` continues, else a new one: a tracker with the same
    /// stable bytes (a separated Find My or Find My Device tag); the one SmartTag whose aging
    /// counter it carries on, silent meanwhile. Never one heard at the same time as this address.
    private func link(_ address: DeviceID, _ reading: TrackerReading, at time: Date) -> Entry {
        let own = "\(reading.family.rawValue):\(address.storageKey)"
        var key = own
        if reading.stableID != nil {
            let shared = Self.key(of: address, reading)
            // The same bytes re-match for a day (Find My and Find My Device keep them that long);
            // never a tag heard at this moment, nor one silent for longer.
            if let other = entries[shared], time.timeIntervalSince(other.lastSeen) < together
                || time.timeIntervalSince(other.lastSeen) > rule.windowHours * 3600 {
                key = own
            } else {
                key = shared
            }
        } else if reading.family == .samsungSmartTag, let counter = reading.agingCounter {
            let candidates = entries.values.filter { t in
                guard t.family == .samsungSmartTag, let old = t.agingCounter, counter >= old, counter - old <= 1 else { return false }
                let silent = time.timeIntervalSince(t.lastSeen)
                return silent >= together && silent <= smartTagGap
            }
            // Two silent tags the counter would fit: neither is taken.
            if candidates.count == 1, let only = candidates.first {
                let heardNow = entries.values.contains { t in
                    t !== only && t.family == .samsungSmartTag && t.agingCounter == counter && time.timeIntervalSince(t.lastSeen) < together
                }
                if !heardNow { key = only.key }
            }
        }
        let entry = entries[key] ?? Entry(key: key, family: reading.family, kind: reading.kind, state: reading.state, at: time)
        entries[key] = entry
        entry.addresses.append(address)
        entryOfAddress[address] = entry
        return entry
    }
}
