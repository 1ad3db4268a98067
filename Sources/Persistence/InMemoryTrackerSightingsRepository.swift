// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The tracker guard's sightings, alerts and silences for one session (the demo's).
public actor InMemoryTrackerSightingsRepository: TrackerSightingsRepository {
    private var kept: [TrackerSighting] = []
    private var raised: [String: TrackerAlert] = [:]
    private var quiet: [String: Date] = [:]

    public init() {}

    public func record(_ sightings: [TrackerSighting]) { kept += sightings }

    public func sightings(since: Date) -> [TrackerSighting] {
        kept.filter { $0.time >= since }.sorted { $0.time < $1.time }
    }

    public func recordAlert(_ alert: TrackerAlert) { raised[alert.tracker] = alert }

    public func alerts(since: Date) -> [TrackerAlert] {
        raised.values.filter { $0.lastSeen >= since }.sorted { $0.lastSeen < $1.lastSeen }
    }

    public func silence(_ tracker: String, until: Date) { quiet[tracker] = until }

    public func silences(at now: Date) -> [String: Date] { quiet.filter { $0.value > now } }

    @discardableResult
    public func prune(before cutoff: Date) -> Int {
        let before = kept.count + raised.count + quiet.count
        kept.removeAll { $0.time < cutoff }
        raised = raised.filter { $0.value.lastSeen >= cutoff }
        quiet = quiet.filter { $0.value >= cutoff }
        return before - kept.count - raised.count - quiet.count
    }
}
