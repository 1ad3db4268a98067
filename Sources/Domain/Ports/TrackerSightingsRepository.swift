// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where the tracker guard keeps what it saw, so that the rule's 24 hours and its scan
/// sessions outlast a restart. Kept 14 days, then deleted; it never leaves the machine.
public protocol TrackerSightingsRepository: Sendable {
    /// Stores a batch of sightings in one transaction.
    func record(_ sightings: [TrackerSighting]) async throws
    /// Every sighting since `since`, oldest first.
    func sightings(since: Date) async throws -> [TrackerSighting]
    /// Keeps that `alert` was raised, so that a restart does not raise it again.
    func recordAlert(_ alert: TrackerAlert) async throws
    /// The alerts raised since `since`.
    func alerts(since: Date) async throws -> [TrackerAlert]
    /// Not a Threat: no alert for `tracker` until `until`.
    func silence(_ tracker: String, until: Date) async throws
    /// The silences still running at `now`, by tracker.
    func silences(at now: Date) async throws -> [String: Date]
    /// Deletes everything older than `cutoff`; returns how many rows went.
    @discardableResult
    func prune(before cutoff: Date) async throws -> Int
}

/// One sighting of a tracker, marked at most once a minute: which tracker, at which address,
/// when, how strong, where (a salted place hash) and in which scan session.
public struct TrackerSighting: Equatable, Sendable {
    /// The tracker, as `TrackerWatch` keys it across its addresses.
    public let tracker: String
    public let family: TrackerFamily
    public let kind: TrackerKind
    public let state: TrackerState
    public let address: DeviceID
    public let time: Date
    public let rssi: Int?
    /// The place's salted hash; nil where none could be told.
    public let place: String?
    /// The scan session it was heard in; unique across runs.
    public let session: Int

    public init(tracker: String, family: TrackerFamily, kind: TrackerKind, state: TrackerState, address: DeviceID,
                time: Date, rssi: Int?, place: String?, session: Int) {
        self.tracker = tracker
        self.family = family
        self.kind = kind
        self.state = state
        self.address = address
        self.time = time
        self.rssi = rssi
        self.place = place
        self.session = session
    }

    /// How long tracker sightings are kept.
    public static let keptDays = 14
}
