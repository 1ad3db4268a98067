// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Re-keys a device in a session that keeps everything in memory, by the same rule as SQLite.
public struct InMemoryRecordsMover: RecordsMover {
    let favorites: InMemoryFavoritesRepository
    let sightings: InMemorySightingsRepository
    let hidden: InMemoryHiddenDevicesRepository
    let chats: InMemoryChatRepository
    let bonds: InMemoryBondsRepository
    let labels: InMemoryCharacteristicLabelsRepository
    let readings: InMemorySensorReadingsRepository

    public init(favorites: InMemoryFavoritesRepository, sightings: InMemorySightingsRepository,
                hidden: InMemoryHiddenDevicesRepository, chats: InMemoryChatRepository, bonds: InMemoryBondsRepository,
                labels: InMemoryCharacteristicLabelsRepository = InMemoryCharacteristicLabelsRepository(),
                readings: InMemorySensorReadingsRepository = InMemorySensorReadingsRepository()) {
        self.labels = labels
        self.readings = readings
        self.favorites = favorites
        self.sightings = sightings
        self.hidden = hidden
        self.chats = chats
        self.bonds = bonds
    }

    public func moveRecords(from old: DeviceID, to new: DeviceID) async throws {
        guard old != new else { return }
        await favorites.move(from: old, to: new)
        await sightings.move(from: old, to: new)
        await hidden.move(from: old, to: new)
        await chats.move(from: old, to: new)
        await bonds.move(from: old, to: new)
        await labels.move(from: old, to: new)
        await readings.move(from: old, to: new)
    }
}

extension InMemoryFavoritesRepository {
    func move(from old: DeviceID, to new: DeviceID) {
        guard let moving = favorite(old) else { return }
        remove(old)
        if var kept = favorite(new) {
            if kept.nickname?.isEmpty ?? true { kept.nickname = moving.nickname }
            if kept.lastKnownName == nil { kept.lastKnownName = moving.lastKnownName }
            if kept.readingLimits.isEmpty { kept.readingLimits = moving.readingLimits }
            save(kept)
        } else {
            save(Favorite(id: new, nickname: moving.nickname, lastKnownName: moving.lastKnownName,
                          addedAt: moving.addedAt, updatedAt: moving.updatedAt, alerts: moving.alerts,
                          readingLimits: moving.readingLimits))
        }
    }
}

extension InMemorySightingsRepository {
    func move(from old: DeviceID, to new: DeviceID) {
        replaceAll { $0.id == old ? Sighting(id: new, time: $0.time, rssi: $0.rssi) : $0 }
    }
}

extension InMemoryHiddenDevicesRepository {
    func move(from old: DeviceID, to new: DeviceID) {
        guard let moving = all().first(where: { $0.id == old }) else { return }
        unhide(old)
        if !all().contains(where: { $0.id == new }) {
            hide(HiddenDevice(id: new, name: moving.name, hiddenAt: moving.hiddenAt))
        }
    }
}

extension InMemoryBondsRepository {
    func move(from old: DeviceID, to new: DeviceID) {
        guard let moving = all().bonds.first(where: { $0.identity == old }) else { return }
        forget(old)
        guard !all().bonds.contains(where: { $0.identity == new }) else { return }
        save(Bond(identity: new, irk: moving.irk, ltk: moving.ltk, ediv: moving.ediv, rand: moving.rand,
                  keySize: moving.keySize, authenticated: moving.authenticated,
                  secureConnections: moving.secureConnections, createdAt: moving.createdAt))
    }
}
