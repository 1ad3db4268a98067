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

    func replaceAll(_ change: (Sighting) -> Sighting) { sightings = sightings.map(change) }

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
        InMemoryRetention.prune(&sightings, time: \.time, retention, now: now)
    }
}

/// Hidden devices and the "Only New Devices" mark for a session that must not write.
public actor InMemoryBondsRepository: BondsRepository {
    private var bonds: [DeviceID: Bond] = [:]

    /// Creates an empty repository.
    public init() {}

    public func all() -> BondsReading { BondsReading(bonds: bonds.values.sorted { $0.identity < $1.identity }, unreadable: []) }
    public func save(_ bond: Bond) { bonds[bond.identity] = bond }
    public func forget(_ identity: DeviceID) {
        bonds[identity] = nil
        served[identity] = nil
    }
    private var served: [DeviceID: Data] = [:]
    public func servedClients() -> [DeviceID: Data] { served }
    public func keepServed(_ memory: Data, for identity: DeviceID) { served[identity] = memory }
    private var local: LocalIdentity?
    public func localIdentity(orKeep made: LocalIdentity) -> LocalIdentity {
        if local == nil { local = made }
        return local!
    }
}

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

/// Chat messages kept only for this session.
public actor InMemoryChatRepository: ChatRepository {
    /// A message and its insertion number, which orders equal times as SQLite's `seq` does.
    private struct Entry {
        var message: ChatMessage
        let seq: Int

        func precedes(_ other: Entry) -> Bool {
            message.time != other.message.time ? message.time < other.message.time : seq < other.seq
        }
    }

    /// Each device's messages, kept sorted by time then insertion, so a page is a slice.
    private var histories: [DeviceID: [Entry]] = [:]
    private var deviceOf: [UUID: DeviceID] = [:]
    private var nextSeq = 0

    /// Creates an empty repository.
    public init() {}

    /// Re-keys `old`'s history to `new`, merged in time order with what `new` has.
    func move(from old: DeviceID, to new: DeviceID) {
        guard let moving = histories.removeValue(forKey: old) else { return }
        var history = histories[new] ?? []
        for entry in moving {
            deviceOf[entry.message.id] = new
            Self.insert(Entry(message: entry.message.moved(to: new), seq: entry.seq), into: &history)
        }
        histories[new] = history
    }

    public func append(_ messages: [ChatMessage]) {
        for message in messages {
            var seq = nextSeq
            nextSeq += 1
            // A stored id is replaced but keeps its insertion number, as in SQLite.
            if let old = deviceOf[message.id], let index = histories[old]?.firstIndex(where: { $0.message.id == message.id }) {
                seq = histories[old]![index].seq
                histories[old]!.remove(at: index)
            }
            Self.insert(Entry(message: message, seq: seq), into: &histories[message.device, default: []])
            deviceOf[message.id] = message.device
        }
    }

    /// Binary search for the place after every entry that precedes or ties `entry`; messages
    /// mostly arrive in time order, so this is nearly always the end.
    private static func insert(_ entry: Entry, into history: inout [Entry]) {
        var low = 0
        var high = history.count
        while low < high {
            let mid = (low + high) / 2
            if entry.precedes(history[mid]) { high = mid } else { low = mid + 1 }
        }
        history.insert(entry, at: low)
    }

    public func setDelivery(_ delivery: ChatDelivery, of id: UUID) {
        guard let device = deviceOf[id], let index = histories[device]?.firstIndex(where: { $0.message.id == id }) else { return }
        histories[device]![index].message.delivery = delivery
    }

    public func page(for device: DeviceID, offset: Int, limit: Int) -> [ChatMessage] {
        let history = histories[device] ?? []
        let start = min(max(0, offset), history.count)
        let end = start + min(max(0, limit), history.count - start)
        return history[start..<end].map(\.message)
    }

    public func count(for device: DeviceID) -> Int { histories[device]?.count ?? 0 }

    @discardableResult
    public func prune(_ retention: ChatRetention, now: Date) -> Int {
        let cutoff = retention.days.map { now.addingTimeInterval(-Double($0) * 86_400) }
        let keep = max(0, retention.maxPerDevice)
        var deleted = 0
        for (device, var history) in histories {
            // Both rules drop the oldest, and the history is sorted, so together they drop a prefix.
            var drop = history.count - keep
            if let cutoff { drop = max(drop, history.firstIndex { $0.message.time >= cutoff } ?? history.count) }
            guard drop > 0 else { continue }
            for entry in history[..<drop] { deviceOf[entry.message.id] = nil }
            history.removeFirst(drop)
            histories[device] = history.isEmpty ? nil : history
            deleted += drop
        }
        return deleted
    }
}

/// Characteristic labels for a session that must not write.
public actor InMemoryCharacteristicLabelsRepository: CharacteristicLabelsRepository {
    private var kept: [DeviceID: [String: CharacteristicLabel]] = [:]

    /// Creates an empty repository.
    public init() {}

    public func labels(of device: DeviceID) -> [String: CharacteristicLabel] { kept[device] ?? [:] }
    public func save(_ label: CharacteristicLabel, for device: DeviceID) { kept[device, default: [:]][label.uuid] = label }
    public func remove(uuid: String, for device: DeviceID) { kept[device]?[uuid] = nil }

    /// Re-keys `old`'s labels to `new`; a label `new` has already is kept.
    func move(from old: DeviceID, to new: DeviceID) {
        guard let moving = kept.removeValue(forKey: old) else { return }
        kept[new] = moving.merging(kept[new] ?? [:]) { _, kept in kept }
    }
}

/// Retention for the in-memory readings: by days, then the oldest beyond the row limit.
enum InMemoryRetention {
    static func prune<T>(_ items: inout [T], time: KeyPath<T, Date>, _ retention: SightingRetention, now: Date) -> Int {
        let before = items.count
        let cutoff = now.addingTimeInterval(-Double(retention.days) * 86_400)
        items.removeAll { $0[keyPath: time] < cutoff }
        if items.count > retention.maxRows {
            items.sort { $0[keyPath: time] < $1[keyPath: time] }
            items.removeFirst(items.count - retention.maxRows)
        }
        return before - items.count
    }
}
