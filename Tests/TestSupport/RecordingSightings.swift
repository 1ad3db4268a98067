// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A sightings store that keeps each recorded batch, so tests can see how readings were batched.
public final class RecordingSightings: SightingsRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[Sighting]] = []

    public init() {}

    /// Every batch handed to `record`, in order.
    public var batches: [[Sighting]] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    public func record(_ sightings: [Sighting]) async throws {
        lock.withLock { recorded.append(sightings) }
    }

    public func summary(for id: DeviceID) async throws -> SightingSummary? {
        let mine = batches.joined().filter { $0.id == id }
        guard let first = mine.first, let last = mine.last else { return nil }
        return SightingSummary(firstSeen: first.time, lastSeen: last.time, count: mine.count)
    }

    public func history(for id: DeviceID, since: Date) async throws -> [Sighting] {
        batches.joined().filter { $0.id == id && $0.time >= since }
    }

    public func prune(_ retention: SightingRetention, now: Date) async throws -> Int { 0 }
}
