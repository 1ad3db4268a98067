// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import Synchronization

/// Where this session keeps what it hears: its favorites' signal and sensor history and the
/// tracker guard's sightings go to the user's store, until the demo runs. The demo's favorites
/// and its AirTag are kept in memory, and so is what FavBlue hears of them, so the user's store
/// holds nothing of the demo when FavBlue next starts.
final class SessionHistory: Sendable {
    let sightings: SessionKept<any SightingsRepository>
    let readings: SessionKept<any SensorReadingsRepository>
    /// Nil where the store keeps no trackers (the memory store).
    let trackers: SessionKept<any TrackerSightingsRepository>?

    init(store: Store, demo: Bool) {
        sightings = SessionKept(store.sightings) { InMemorySightingsRepository() }
        readings = SessionKept(store.readings) { InMemorySensorReadingsRepository() }
        trackers = store.trackers.map { SessionKept($0) { InMemoryTrackerSightingsRepository() } }
        if demo { keepInMemory() }
    }

    /// From now on, in memory (Try the Demo).
    func keepInMemory() {
        sightings.keepInMemory()
        readings.keepInMemory()
        trackers?.keepInMemory()
    }
}

/// A repository that is the store's until `keepInMemory()`, then a memory one's for the session.
final class SessionKept<Repository: Sendable>: Sendable {
    private let kept: Mutex<(repository: Repository, inMemory: Bool)>
    private let memory: @Sendable () -> Repository

    init(_ store: Repository, memory: @escaping @Sendable () -> Repository) {
        kept = Mutex((store, false))
        self.memory = memory
    }

    func keepInMemory() {
        kept.withLock { kept in
            guard !kept.inMemory else { return }
            kept = (memory(), true)
        }
    }

    var current: Repository { kept.withLock { $0.repository } }
}

extension SessionKept: SightingsRepository where Repository == any SightingsRepository {
    func record(_ sightings: [Sighting]) async throws { try await current.record(sightings) }
    func summary(for id: DeviceID) async throws -> SightingSummary? { try await current.summary(for: id) }
    func history(for id: DeviceID, since: Date) async throws -> [Sighting] { try await current.history(for: id, since: since) }
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int { try await current.prune(retention, now: now) }
}

extension SessionKept: TrackerSightingsRepository where Repository == any TrackerSightingsRepository {
    func record(_ sightings: [TrackerSighting]) async throws { try await current.record(sightings) }
    func sightings(since: Date) async throws -> [TrackerSighting] { try await current.sightings(since: since) }
    func recordAlert(_ alert: TrackerAlert) async throws { try await current.recordAlert(alert) }
    func alerts(since: Date) async throws -> [TrackerAlert] { try await current.alerts(since: since) }
    func silence(_ tracker: String, until: Date) async throws { try await current.silence(tracker, until: until) }
    func silences(at now: Date) async throws -> [String: Date] { try await current.silences(at: now) }
    func prune(before cutoff: Date) async throws -> Int { try await current.prune(before: cutoff) }
}

extension SessionKept: SensorReadingsRepository where Repository == any SensorReadingsRepository {
    func record(_ samples: [SensorSample]) async throws { try await current.record(samples) }
    func history(for id: DeviceID, since: Date) async throws -> [SensorSample] { try await current.history(for: id, since: since) }
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int { try await current.prune(retention, now: now) }
}
