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
        public internal(set) var kind: TrackerKind
        public internal(set) var state: TrackerState
        public internal(set) var addresses: [DeviceID]
        public internal(set) var firstSeen: Date
        public internal(set) var lastSeen: Date
        /// The latest aging counter (SmartTag).
        var agingCounter: UInt32?
        var stableID: [UInt8]?
    }

    /// One sighting, at most one a minute per tracker, for the window.
    private struct Mark {
        let time: Date
        let place: String?
        let session: Int
    }

    public var rule: TrackerRule
    /// Trackers that never alert (your own), by key or by any of their addresses.
    public var trusted: Set<String> = []
    public private(set) var trackers: [String: Tracked] = [:]
    public private(set) var alerts: [TrackerAlert] = []
    private var marks: [String: [Mark]] = [:]
    private var keyOfAddress: [DeviceID: String] = [:]
    private var silencedUntil: [String: Date] = [:]
    private var alerted: Set<String> = []
    /// Two reports this close are "heard at once": such trackers are never taken for one.
    private let together: TimeInterval = 2
    /// How long a SmartTag may be silent before a new address continues it.
    private let smartTagGap: TimeInterval = 30 * 60

    public init(rule: TrackerRule) {
        self.rule = rule
    }

    /// Stops alerts for `key` until `date` ("Not a Threat" gives 24 h).
    public func silence(_ key: String, until date: Date) {
        silencedUntil[key] = date
    }

    /// The tracker an address belongs to, once heard.
    public func key(of address: DeviceID) -> String? { keyOfAddress[address] }

    /// Takes in one report; returns the alert it makes due, if any.
    @discardableResult
    public func heard(_ address: DeviceID, _ reading: TrackerReading, at time: Date, place: String?, session: Int) -> TrackerAlert? {
        guard reading.kind.isTag else { return nil }
        let key = link(address, reading, at: time)
        var tracked = trackers[key] ?? Tracked(key: key, family: reading.family, kind: reading.kind, state: reading.state,
                                              addresses: [], firstSeen: time, lastSeen: time)
        if !tracked.addresses.contains(address) { tracked.addresses.append(address) }
        tracked.kind = reading.kind
        tracked.state = reading.state
        tracked.lastSeen = max(tracked.lastSeen, time)
        tracked.agingCounter = reading.agingCounter ?? tracked.agingCounter
        tracked.stableID = reading.stableID ?? tracked.stableID
        trackers[key] = tracked
        keyOfAddress[address] = key
        var list = marks[key] ?? []
        if let last = list.last, time.timeIntervalSince(last.time) < 60, last.place == place, last.session == session {
            // One mark a minute is enough for minutes and places; the last one moves on.
        } else {
            list.append(Mark(time: time, place: place, session: session))
        }
        let start = time.addingTimeInterval(-rule.windowHours * 3600)
        if let first = list.first, first.time < start { list.removeAll { $0.time < start } }
        marks[key] = list
        return check(tracked, marks: list, reading: reading, at: time)
    }

    private func check(_ tracked: Tracked, marks list: [Mark], reading: TrackerReading, at time: Date) -> TrackerAlert? {
        guard reading.mayBeFollowing, !alerted.contains(tracked.key),
              !trusted.contains(tracked.key), !tracked.addresses.contains(where: { trusted.contains($0.storageKey) }) else { return nil }
        if let until = silencedUntil[tracked.key], time < until { return nil }
        guard let first = list.first?.time else { return nil }
        let span = time.timeIntervalSince(first)
        let places = Set(list.compactMap(\.place))
        let due: Bool
        if list.contains(where: { $0.place != nil }) {
            due = span >= rule.minutes * 60 && places.count >= rule.places
        } else {
            due = span >= rule.timeAloneHours * 3600 && Set(list.map(\.session)).count >= rule.timeAloneSessions
        }
        guard due else { return nil }
        alerted.insert(tracked.key)
        let alert = TrackerAlert(tracker: tracked.key, family: tracked.family, kind: tracked.kind, addresses: tracked.addresses,
                                 firstSeen: first, lastSeen: time, places: places.count)
        alerts.append(alert)
        return alert
    }

    /// The tracker `address` continues: itself when known; a tracker with the same stable bytes
    /// (a separated Find My or Find My Device tag); the one SmartTag whose aging counter it
    /// carries on, silent meanwhile. Never one heard at the same time as this address.
    private func link(_ address: DeviceID, _ reading: TrackerReading, at time: Date) -> String {
        if let known = keyOfAddress[address] { return known }
        let own = "\(reading.family.rawValue):\(address.storageKey)"
        if let stable = reading.stableID {
            let key = "\(reading.family.rawValue):\(Hex.compact(stable))"
            if let other = trackers[key], time.timeIntervalSince(other.lastSeen) < together { return own }
            return key
        }
        if reading.family == .samsungSmartTag, let counter = reading.agingCounter {
            let candidates = trackers.values.filter { t in
                guard t.family == .samsungSmartTag, let old = t.agingCounter, counter >= old, counter - old <= 1 else { return false }
                let silent = time.timeIntervalSince(t.lastSeen)
                return silent >= together && silent <= smartTagGap
            }
            // Two silent tags the counter would fit: neither is taken.
            if candidates.count == 1, let only = candidates.first {
                let heardNow = trackers.values.contains { t in
                    t.key != only.key && t.family == .samsungSmartTag && t.agingCounter == counter && time.timeIntervalSince(t.lastSeen) < together
                }
                if !heardNow { return only.key }
            }
        }
        return own
    }
}
