// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where signal readings are kept.
public protocol SightingsRepository: Sendable {
    /// Stores a batch of readings in one transaction.
    func record(_ sightings: [Sighting]) async throws
    /// First and last reading and their count, or nil if the device was never stored.
    func summary(for id: DeviceID) async throws -> SightingSummary?
    /// The readings since `since`, oldest first.
    func history(for id: DeviceID, since: Date) async throws -> [Sighting]
    /// Deletes readings beyond `retention` as of `now`; returns how many were deleted.
    @discardableResult
    func prune(_ retention: SightingRetention, now: Date) async throws -> Int
}
