// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Favorites kept only for this session (storage backend "memory", or a fallback).
public actor InMemoryFavoritesRepository: FavoritesRepository {
    private var favorites: [DeviceID: Favorite] = [:]

    /// Creates an empty repository, or one holding `initial`.
    public init(_ initial: [Favorite] = []) {
        for favorite in initial { favorites[favorite.id] = favorite }
    }

    public func all() -> [Favorite] { Array(favorites.values) }
    public func favorite(_ id: DeviceID) -> Favorite? { favorites[id] }
    public func save(_ favorite: Favorite) { favorites[favorite.id] = favorite }
    public func remove(_ id: DeviceID) { favorites[id] = nil }
}

/// Signal readings kept only for this session.
public actor InMemorySightingsRepository: SightingsRepository {
    private var sightings: [Sighting] = []

    /// Creates an empty repository.
    public init() {}

    public func record(_ batch: [Sighting]) { sightings.append(contentsOf: batch) }

    public func summary(for id: DeviceID) -> SightingSummary? {
        let mine = sightings.filter { $0.id == id }
        guard let first = mine.map(\.time).min(), let last = mine.map(\.time).max() else { return nil }
        return SightingSummary(firstSeen: first, lastSeen: last, count: mine.count)
    }

    public func history(for id: DeviceID, since: Date) -> [Sighting] {
        sightings.filter { $0.id == id && $0.time >= since }.sorted { $0.time < $1.time }
    }

    @discardableResult
    public func prune(_ retention: SightingRetention, now: Date) -> Int {
        let before = sightings.count
        let cutoff = now.addingTimeInterval(-Double(retention.days) * 86_400)
        sightings.removeAll { $0.time < cutoff }
        if sightings.count > retention.maxRows {
            sightings.sort { $0.time < $1.time }
            sightings.removeFirst(sightings.count - retention.maxRows)
        }
        return before - sightings.count
    }
}

/// Hidden devices and the "Only New Devices" mark for a session that must not write.
public actor InMemoryHiddenDevicesRepository: HiddenDevicesRepository {
    private var hidden: [DeviceID: HiddenDevice] = [:]
    private var mark: NewDevicesMark?

    /// Creates an empty repository.
    public init() {}

    public func all() -> [HiddenDevice] { Array(hidden.values) }
    public func hide(_ device: HiddenDevice) { hidden[device.id] = device }
    public func unhide(_ id: DeviceID) { hidden[id] = nil }
    public func newDevicesMark() -> NewDevicesMark? { mark }
    public func setNewDevicesMark(_ mark: NewDevicesMark?) { self.mark = mark }
}
