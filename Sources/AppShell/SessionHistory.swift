// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import Synchronization

/// Where this session keeps its favorites' signal and sensor history: the user's store, until
/// the demo runs. The demo's favorites are kept in memory, and so is what FavBlue hears of them,
/// so the user's store holds nothing of the demo when FavBlue next starts.
final class SessionHistory: Sendable {
    let sightings: SessionKept<any SightingsRepository>
    let readings: SessionKept<any SensorReadingsRepository>

    init(store: Store, demo: Bool) {
        sightings = SessionKept(store.sightings) { InMemorySightingsRepository() }
        readings = SessionKept(store.readings) { InMemorySensorReadingsRepository() }
        if demo { keepInMemory() }
    }

    /// From now on, in memory (Try the Demo).
    func keepInMemory() {
        sightings.keepInMemory()
        readings.keepInMemory()
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

extension SessionKept: SensorReadingsRepository where Repository == any SensorReadingsRepository {
    func record(_ samples: [SensorSample]) async throws { try await current.record(samples) }
    func history(for id: DeviceID, since: Date) async throws -> [SensorSample] { try await current.history(for: id, since: since) }
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int { try await current.prune(retention, now: now) }
}
