// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The home page: the user's favorites, and the rename, remove and undo flows.
@MainActor
public final class FavoritesViewModel {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The device.
        public let id: DeviceID
        /// Nickname, else name, else address.
        public let title: String
        /// The identifier and its kind.
        public let subtitle: String
        /// "Nearby · −52 dBm" while a running scan hears it, else "Last seen 2 h ago" or "Not seen yet".
        public let presence: String
        /// Whether a running scan hears it now.
        public let isNearby: Bool
    }

    /// A short notice for a toast; `undoable` offers Undo.
    public struct Toast: Equatable, Sendable {
        /// What happened.
        public let text: String
        /// Whether an Undo button goes with it.
        public let undoable: Bool
    }

    // MARK: State
    /// The favorites, sorted by display name.
    public private(set) var rows: [Row] = []
    /// True until the first load finished.
    public private(set) var isLoading = true
    /// Store notices and failures the user must see (a banner), newest last.
    public private(set) var messages: [String]
    /// True when changes will not be saved (memory-only session).
    public let isMemoryOnly: Bool

    /// Shown once after an action; the view turns it into a toast.
    public var onToast: ((Toast) -> Void)?

    // MARK: Owned
    private let useCases: FavoritesUseCases
    private let observers = ChangeObservers()
    private var favorites: [DeviceID: Favorite] = [:]
    private var lastRemoved: Favorite?
    /// The latest stored sighting of each favorite, loaded with the list.
    private var storedLastSeen: [DeviceID: Date] = [:]
    private var liveToken: ObservationToken?

    // MARK: Borrowed
    private weak var live: LiveDevices?
    private let sightings: SightingsRepository?
    private let now: () -> Date

    /// Creates the model over `useCases`; `notices` come from opening the store. With `live`,
    /// each row says whether its device is nearby; `sightings` tell when it was last seen.
    public init(useCases: FavoritesUseCases, notices: [StoreNotice] = [], live: LiveDevices? = nil,
                sightings: SightingsRepository? = nil, now: @escaping () -> Date = { Date() }) {
        self.useCases = useCases
        self.live = live
        self.sightings = sightings
        self.now = now
        messages = notices.map(\.message)
        isMemoryOnly = notices.contains { $0.isMemoryOnly }
        liveToken = live?.observe { [weak self] _ in self?.refreshPresence() }
    }

    /// Recomputes every row's presence (the page calls it now and then, so ages stay true).
    public func refreshPresence() {
        let updated = rows.map { row in favorites[row.id].map(self.row) ?? row }
        guard updated != rows else { return }
        rows = updated
        observers.notify()
    }

    /// Calls `handler` after every change of state.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        observers.observe(handler)
    }

    /// Whether the list is empty (and loaded), for the placeholder page.
    public var isEmpty: Bool { !isLoading && rows.isEmpty }

    /// Whether `id` is a favorite.
    public func isFavorite(_ id: DeviceID) -> Bool { favorites[id] != nil }

    /// The favorite for `id`, if any.
    public func favorite(_ id: DeviceID) -> Favorite? { favorites[id] }

    /// Every favorite by device, as a value to hand to another thread.
    public var snapshot: [DeviceID: Favorite] { favorites }

    /// The text a rename dialog starts with.
    public func currentNickname(_ id: DeviceID) -> String { favorites[id]?.nickname ?? "" }

    /// What is wrong with `text` as a nickname, or nil; the dialog disables Save meanwhile.
    public func nicknameProblem(_ text: String) -> String? { Nickname.problem(with: text) }

    /// The question asked before removing `id`.
    public func removalQuestion(_ id: DeviceID, name: String? = nil) -> String {
        L10n.format("Remove “{}” from favorites?", favorites[id]?.displayName ?? name ?? id.address)
    }

    /// Dismisses the banner messages.
    public func dismissMessages() {
        messages = []
        observers.notify()
    }

    // MARK: Intents

    /// Reads the favorites from the store.
    public func load() async {
        do {
            let list = try await useCases.list()
            favorites = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
            if let sightings {
                for favorite in list where storedLastSeen[favorite.id] == nil {
                    storedLastSeen[favorite.id] = try? await sightings.summary(for: favorite.id)?.lastSeen
                }
            }
            rows = list.map(row)
        } catch {
            report(error)
        }
        isLoading = false
        observers.notify()
    }

    /// Adds `id` with an optional nickname; returns false (with a message) on failure.
    @discardableResult
    public func add(_ id: DeviceID, name: String?, nickname: String) async -> Bool {
        do {
            let favorite = try await useCases.add(id, name: name, nickname: nickname)
            await load()
            onToast?(Toast(text: L10n.format("“{}” added to favorites", favorite.displayName), undoable: false))
            return true
        } catch {
            report(error)
            observers.notify()
            return false
        }
    }

    /// Renames `id`; returns false (with a message) on failure.
    @discardableResult
    public func rename(_ id: DeviceID, to nickname: String) async -> Bool {
        do {
            try await useCases.rename(id, to: nickname)
            await load()
            return true
        } catch {
            report(error)
            observers.notify()
            return false
        }
    }

    /// Removes `id` and offers Undo.
    public func remove(_ id: DeviceID) async {
        do {
            let removed = try await useCases.remove(id)
            lastRemoved = removed
            await load()
            onToast?(Toast(text: L10n.format("“{}” removed", removed.displayName), undoable: true))
        } catch {
            report(error)
            observers.notify()
        }
    }

    /// Puts back the favorite removed last, with its nickname and added time.
    public func undoRemove() async {
        guard let removed = lastRemoved else { return }
        do {
            try await useCases.restore(removed)
            lastRemoved = nil
            await load()
        } catch {
            report(error)
            observers.notify()
        }
    }

    private func report(_ error: Error) {
        let message = (error as? FavoritesError)?.message
            ?? L10n.format("Something went wrong: {}", String(describing: error))
        messages.append(message)
    }

    private func row(_ favorite: Favorite) -> Row {
        let (presence, nearby) = presence(of: favorite.id)
        return Row(id: favorite.id, title: favorite.displayName, subtitle: favorite.id.identifierLine,
                   presence: presence, isNearby: nearby)
    }

    private func presence(of id: DeviceID) -> (String, Bool) {
        let at = now()
        let device = live?[id]
        if let live, let device, live.isRunning, !live.isStale(device, at: at) {
            if let rssi = device.smoothed { return (L10n.format("Nearby · {}", SignalText.dBm(rssi)), true) }
            return (L10n.tr("Nearby"), true)
        }
        let seen = [device?.lastSeen, storedLastSeen[id]].compactMap { $0 }.max()
        guard let seen else { return (L10n.tr("Not seen yet"), false) }
        return (L10n.format("Last seen {} ago", Formats.age(seconds: at.timeIntervalSince(seen))), false)
    }
}
