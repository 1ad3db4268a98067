// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// How soon a tracker moving with you is called out (Preferences); AirGuard's three levels.
public enum TrackerSensitivity: String, CaseIterable, Sendable, Codable {
    case high, medium, low
}

/// When an alert is due. A tracker away from its owner, not trusted, seen for at least
/// `minutes` and at `places` distinct places within 24 h (AirGuard's rule: 30, 60 or 120
/// minutes, 2, 3 or 4 places). Where no place can be told (no network information), time
/// alone decides with a higher bar: `timeAloneHours` across `timeAloneSessions` scan sessions.
public struct TrackerRule: Equatable, Sendable {
    public var minutes: Double
    public var places: Int
    public var timeAloneHours: Double = 3
    public var timeAloneSessions: Int = 2
    /// The window sightings count in.
    public var windowHours: Double = 24
    /// How often a tracker's sightings are marked for the rule (and so judged): an alert comes
    /// at most this late.
    public var markSeconds: Double = 60
    /// A scan stopped, or silent, this long begins another scan session.
    public var sessionGapMinutes: Double = 10

    public init(minutes: Double, places: Int) {
        self.minutes = minutes
        self.places = places
    }

    public init(_ sensitivity: TrackerSensitivity) {
        switch sensitivity {
        case .high: self.init(minutes: 30, places: 2)
        case .medium: self.init(minutes: 60, places: 3)
        case .low: self.init(minutes: 120, places: 4)
        }
    }

    /// The rule with every time divided by `factor`, for tests that cannot wait an hour; never shown.
    public func faster(by factor: Double) -> TrackerRule {
        var rule = self
        rule.minutes /= factor
        rule.timeAloneHours /= factor
        rule.windowHours /= factor
        rule.markSeconds /= factor
        // Never under three seconds: a tag advertises a few times a second, and a busy machine's
        // late reports are no new session.
        rule.sessionGapMinutes = max(rule.sessionGapMinutes / factor, 3.0 / 60)
        return rule
    }
}

/// An alert the rule raised: which tracker, since when, for how long and across how many places.
public struct TrackerAlert: Equatable, Sendable {
    public let tracker: String
    public let family: TrackerFamily
    public let kind: TrackerKind
    /// Every address it was heard at, oldest first.
    public let addresses: [DeviceID]
    public let firstSeen: Date
    public let lastSeen: Date
    /// Distinct places it was seen at within the window; 0 when none could be told.
    public let places: Int

    public init(tracker: String, family: TrackerFamily, kind: TrackerKind, addresses: [DeviceID], firstSeen: Date, lastSeen: Date, places: Int) {
        self.tracker = tracker
        self.family = family
        self.kind = kind
        self.addresses = addresses
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.places = places
    }

    /// How long it has been moving with you, in whole minutes.
    public var minutes: Int { Int(lastSeen.timeIntervalSince(firstSeen) / 60) }
}
