// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The user's favorites, the owner of their state: the list, the nickname rules, the name a
/// device goes by, and whether each favorite is nearby.
///
/// Pages read it (Favorites, Scanner, Detail, Hidden Devices, nickname sharing) and never each
/// other; the Favorites page's model adds words and toasts on top. Store failures are kept as
/// plain-words problems until dismissed, never dropped.
@MainActor
public final class Favorites {
    /// Where a favorite is, as the nearby rule sees it.
    public enum Presence: Equatable, Sendable {
        /// A running scan hears it now; its smoothed signal, dBm, when it has one.
        case nearby(rssi: Int?)
        /// Last heard at this time, in this session or an earlier one.
        case lastSeen(Date)
        /// Never heard.
        case notSeen
    }

    // MARK: State
    /// The favorites, sorted by display name as the user's language orders names.
    public private(set) var list: [Favorite] = []
    /// True until the first load finished.
    public private(set) var isLoading = true
    /// Store failures the user must see, in plain words, newest last.
    public private(set) var problems: [String] = []
    /// The favorite removed last, for Undo.
    public private(set) var lastRemoved: Favorite?
    /// Whether the list is the demo's own favorites, kept beside the user's, which stay as they were.
    public private(set) var isDemo: Bool

    // MARK: Owned
    private var useCases: FavoritesUseCases
    private let observers = ChangeObservers()
    private let presenceObservers = ChangeObservers()
    private var byID: [DeviceID: Favorite] = [:]
    /// The latest stored sighting of each favorite, loaded with the list.
    private var storedLastSeen: [DeviceID: Date] = [:]
    private var liveToken: ObservationToken?

    // MARK: Borrowed
    private weak var live: LiveDevices?
    private let sightings: SightingsRepository?
    private let now: () -> Date

    /// Owns the favorites in `useCases`' store. With `live`, presence follows the running scan;
    /// `sightings` tell when a favorite was last seen in an earlier session.
    /// `demo` says the store is the demo's own.
    public init(useCases: FavoritesUseCases, demo: Bool = false, live: LiveDevices? = nil, sightings: SightingsRepository? = nil,
                now: @escaping () -> Date = { Date() }) {
        self.useCases = useCases
        self.isDemo = demo
        self.live = live
        self.sightings = sightings
        self.now = now
        liveToken = live?.observe { [weak self] _ in self?.presenceObservers.notify() }
    }

    /// Calls `handler` after every change of the list or the problems.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Calls `handler` whenever presence may have changed (each fold of the live devices, a few
    /// times a second), for the one page that shows it.
    public func observePresence(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        presenceObservers.observe(handler)
    }

    // MARK: Reading

    /// Whether `id` is a favorite.
    public func isFavorite(_ id: DeviceID) -> Bool { byID[id] != nil }

    /// The favorite for `id`, if any.
    public func favorite(_ id: DeviceID) -> Favorite? { byID[id] }

    /// Every favorite by device, as a value to hand to another thread.
    public var snapshot: [DeviceID: Favorite] { byID }

    /// The name `id` goes by: nickname, else advertised name, else the name it was saved with,
    /// else its address. The one rule every page uses.
    public func name(of id: DeviceID) -> String {
        let advertised = live?[id]?.advertised
        // A tag sends no name: it goes by its kind ("AirTag").
        let tag = advertised.flatMap(TrackerTable.read).flatMap { $0.kind.isTag ? $0.kind.name : nil }
        return DisplayName.of(id: id, favorite: byID[id], advertisedName: advertised?.name ?? tag)
    }

    /// What is wrong with `text` as a nickname, or nil.
    public func nicknameProblem(_ text: String) -> String? { Nickname.problem(with: text) }

    /// The nearby rule: nearby while a running scan hears `id` within the fade time; otherwise
    /// the newest of this session's and the stored sightings.
    public func presence(of id: DeviceID) -> Presence {
        let at = now()
        let device = live?[id]
        // Remote sources listen while this computer's radio is off: what they hear now is near too.
        if let live, let device, live.isRunning || live.isListening, !live.isStale(device, at: at) {
            return .nearby(rssi: device.smoothed)
        }
        guard let seen = [device?.lastSeen, storedLastSeen[id]].compactMap({ $0 }).max() else { return .notSeen }
        return .lastSeen(seen)
    }

    /// The room `id` is in and its signal there, where several sources hear it; nil otherwise.
    public func room(of id: DeviceID) -> (name: String, rssi: Int?)? {
        guard let live, let device = live[id], let room = device.room.room else { return nil }
        return (live.roomName(room), device.heardBy.first { $0.source == room }?.smoothed.map { Int($0.rounded()) })
    }

    /// The battery level of `id` in percent, as last read while it was listed; nil when unknown.
    public func battery(of id: DeviceID) -> Int? { live?[id]?.battery }

    /// What `id` last said as a sensor while it was listed; nil for none.
    public func sensor(of id: DeviceID) -> SensorData? { live?.sensor(of: id) }

    /// The favorites as export records, in list order: what a running scan knows of each, else
    /// its last known name and when it was last seen (or added, if never).
    public func exportRecords() -> [DeviceRecord] {
        list.map { favorite in
            let device = live?[favorite.id]
            let seen = [device?.lastSeen, storedLastSeen[favorite.id]].compactMap { $0 }.max() ?? favorite.addedAt
            var record = DeviceRecord(id: favorite.id, advertised: device?.advertised ?? AdvertisedData(), rssi: device?.rssi,
                                      rssiMax: device?.rssiMax, reports: device?.reports ?? 0,
                                      firstSeen: device?.firstSeen ?? seen, lastSeen: seen,
                                      addresses: device?.addresses ?? [], nickname: favorite.nickname, favorite: true,
                                      sensor: .some(live?.sensor(of: favorite.id)))
            if record.name == nil { record.name = favorite.lastKnownName }
            return record
        }
    }

    // MARK: Intents

    /// Reads the favorites (and when each was last seen) from the store.
    public func load() async {
        do {
            let loaded = try await useCases.list()
            if let sightings {
                for favorite in loaded where storedLastSeen[favorite.id] == nil {
                    storedLastSeen[favorite.id] = try? await sightings.summary(for: favorite.id)?.lastSeen
                }
            }
            list = loaded
            byID = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        } catch {
            report(error)
        }
        isLoading = false
        observers.notify()
    }

    /// Shows the demo's favorites from `useCases` from now on (Try the Demo). The user's own
    /// store is not written, so their favorites are as they were when FavBlue next starts.
    public func showDemo(_ useCases: FavoritesUseCases) async {
        guard !isDemo else { return }
        self.useCases = useCases
        isDemo = true
        lastRemoved = nil
        storedLastSeen = [:]
        await load()
    }

    /// Adds `id` with an optional nickname; nil (and a problem) on failure.
    @discardableResult
    public func add(_ id: DeviceID, name: String?, nickname: String) async -> Favorite? {
        do {
            let favorite = try await useCases.add(id, name: name, nickname: nickname)
            await load()
            return favorite
        } catch {
            report(error)
            observers.notify()
            return nil
        }
    }

    /// Renames `id`; false (and a problem) on failure.
    @discardableResult
    public func rename(_ id: DeviceID, to nickname: String) async -> Bool {
        await change { try await $0.rename(id, to: nickname) }
    }

    /// Sets which notifications `id` sends; false (and a problem) on failure.
    @discardableResult
    public func setAlerts(_ id: DeviceID, _ alerts: PresenceAlerts) async -> Bool {
        await change { try await $0.setAlerts(id, alerts) }
    }

    /// Sets the limits of one of `id`'s readings; false (and a problem) on failure.
    @discardableResult
    public func setReadingLimit(_ id: DeviceID, _ limit: ReadingLimit) async -> Bool {
        await change { try await $0.setReadingLimit(id, limit) }
    }

    /// Runs one change of a favorite, then reads the list again; false (and a problem) on failure.
    private func change(_ body: (FavoritesUseCases) async throws -> Favorite) async -> Bool {
        do {
            _ = try await body(useCases)
            await load()
            return true
        } catch {
            report(error)
            observers.notify()
            return false
        }
    }

    /// Removes `id`, kept for Undo; nil (and a problem) on failure.
    @discardableResult
    public func remove(_ id: DeviceID) async -> Favorite? {
        do {
            let removed = try await useCases.remove(id)
            lastRemoved = removed
            await load()
            return removed
        } catch {
            report(error)
            observers.notify()
            return nil
        }
    }

    /// Puts back the favorite removed last, with its nickname and added time.
    /// Returns the favorite's device once it is back; nil when there was none or it failed.
    @discardableResult
    public func undoRemove() async -> DeviceID? {
        guard let removed = lastRemoved else { return nil }
        do {
            try await useCases.restore(removed)
            lastRemoved = nil
            await load()
            return removed.id
        } catch {
            report(error)
            observers.notify()
            return nil
        }
    }

    /// Forgets the problems said so far (the user dismissed them).
    public func dismissProblems() {
        problems = []
        observers.notify()
    }

    private func report(_ error: Error) {
        problems.append((error as? FavoritesError)?.message
            ?? L10n.format("Something went wrong: {}", String(describing: error)))
    }
}
