// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The home page's window on Domain's `Favorites`: rows in words, the banner, and the toasts
/// of the rename, remove and undo flows. The list and its rules live in `Favorites`.
@MainActor
public final class FavoritesViewModel {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The device.
        public let id: DeviceID
        /// Nickname, else name, else "Unknown device" (the address is on the line under it).
        public let title: String
        /// The device's own name where a nickname stands in the title, then the identifier and its
        /// kind: "Kitchen Speaker · AA:BB:CC:DD:EE:FF".
        public let subtitle: String
        /// "Nearby · −52 dBm" while a running scan hears it, else "Last seen 2 h ago" or "Not seen yet".
        public let presence: String
        /// Whether a running scan hears it now.
        public let isNearby: Bool
        /// For a narrow row: where it is on one line and its readings on the next, so that
        /// neither is cut off at 360 px; nil where it sends none.
        public var narrowPresence: String? = nil
        /// "Battery 80 %" where its level is known; nil otherwise.
        public var battery: String? = nil
        /// The battery-level icon for it, in steps of ten.
        public var batteryIcon: String? = nil
        /// The name the device gives itself, shown; nil where the title is that name already.
        public var ownName: String? = nil
        /// Whether it has neither nickname nor name, so the title is a placeholder.
        public var isUnnamed = false
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
    /// Whether the first load is still under way.
    public var isLoading: Bool { favorites.isLoading }
    /// In the demo: that these are the demo's favorites, and where the user's own went.
    public var demoNote: String? {
        favorites.isDemo ? L10n.tr("These are the demo’s favorites. Yours are kept as they were, and are back when FavBlue starts without the demo.") : nil
    }

    /// Store notices and failures the user must see (a banner), newest last.
    public var messages: [String] { notices + favorites.problems }
    /// True when changes will not be saved (memory-only session).
    public let isMemoryOnly: Bool

    /// Shown once after an action; the view turns it into a toast.
    public var onToast: ((Toast) -> Void)?

    // MARK: Borrowed
    private let favorites: Favorites
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var notices: [String]
    private var shownMessages: [String] = []
    private var tokens: [ObservationToken] = []

    /// A window on `favorites`; `notices` come from opening the store.
    public init(favorites: Favorites, notices: [StoreNotice] = [], now: @escaping () -> Date = { Date() }) {
        self.favorites = favorites
        self.now = now
        self.notices = notices.map(\.message)
        isMemoryOnly = notices.contains { $0.isMemoryOnly }
        tokens = [favorites.observe { [weak self] in self?.refresh() },
                  favorites.observePresence { [weak self] in self?.refresh() }]
        refresh(force: true)
    }

    /// The favorites as Export Favorites… writes them.
    public func exportRecords() -> [DeviceRecord] { favorites.exportRecords() }

    /// Recomputes the rows; observers hear of it only when something shown changed (a fold of
    /// the live devices comes four times a second, a changed presence far less often).
    public func refreshPresence() { refresh() }

    private func refresh(force: Bool = false) {
        let updated = favorites.list.map(row)
        let messages = self.messages
        guard force || updated != rows || messages != shownMessages || favorites.isLoading != wasLoading else { return }
        rows = updated
        shownMessages = messages
        wasLoading = favorites.isLoading
        observers.notify()
    }
    private var wasLoading = true

    /// Calls `handler` after every change of state.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        observers.observe(handler)
    }

    /// Whether the list is empty (and loaded), for the placeholder page.
    public var isEmpty: Bool { !isLoading && rows.isEmpty }

    /// Whether `id` is a favorite.
    public func isFavorite(_ id: DeviceID) -> Bool { favorites.isFavorite(id) }

    /// The favorite for `id`, if any.
    public func favorite(_ id: DeviceID) -> Favorite? { favorites.favorite(id) }

    /// The text a rename dialog starts with.
    public func currentNickname(_ id: DeviceID) -> String { favorites.favorite(id)?.nickname ?? "" }

    /// What is wrong with `text` as a nickname, or nil; the dialog disables Save meanwhile.
    public func nicknameProblem(_ text: String) -> String? { favorites.nicknameProblem(text) }

    /// The question asked before removing `id`.
    public func removalQuestion(_ id: DeviceID, name: String? = nil) -> String {
        L10n.format("Remove “{}” from favorites?", DeviceText.isolated(favorites.favorite(id)?.displayName ?? name ?? id.address))
    }

    /// Dismisses the banner messages.
    public func dismissMessages() {
        notices = []
        favorites.dismissProblems()
        refresh(force: true)
    }

    // MARK: Intents

    /// Reads the favorites from the store.
    public func load() async { await favorites.load() }

    /// Adds `id` with an optional nickname; returns false (with a message) on failure.
    @discardableResult
    public func add(_ id: DeviceID, name: String?, nickname: String) async -> Bool {
        guard let favorite = await favorites.add(id, name: name, nickname: nickname) else { return false }
        onToast?(Toast(text: L10n.format("“{}” added to favorites", DeviceText.isolated(favorite.displayName)), undoable: false))
        return true
    }

    /// Renames `id`; returns false (with a message) on failure.
    @discardableResult
    public func rename(_ id: DeviceID, to nickname: String) async -> Bool {
        await favorites.rename(id, to: nickname)
    }

    /// Removes `id` and offers Undo.
    public func remove(_ id: DeviceID) async {
        guard let removed = await favorites.remove(id) else { return }
        onToast?(Toast(text: L10n.format("“{}” removed", DeviceText.isolated(removed.displayName)), undoable: true))
    }

    /// Puts back the favorite removed last, with its nickname and added time.
    /// Returns its device once it is back.
    @discardableResult
    public func undoRemove() async -> DeviceID? { await favorites.undoRemove() }

    private func row(_ favorite: Favorite) -> Row {
        var (presence, nearby) = presenceText(favorites.presence(of: favorite.id))
        // Several sources: the nearest one's room, "Kitchen · −61 dBm". A room's name is a name,
        // never a noun to put "the" before.
        if let room = favorites.room(of: favorite.id) {
            let name = DeviceText.shown(room.name)
            presence = nearby ? room.rssi.map { L10n.format("{} · {}", name, SignalText.dBm($0)) } ?? name
                : lastSeen(in: name, favorites.presence(of: favorite.id))
        }
        // A sensor's main readings beside where it is: "Nearby · −52 dBm · 21.40 °C · 48.00 %".
        var narrow: String?
        if let readings = ReadingText.summary(favorites.sensor(of: favorite.id), limit: 2) {
            narrow = presence + "\n" + readings
            presence = L10n.format("{} · {}", presence, readings)
        }
        // A nickname hides what the device calls itself; the line under it says so.
        let ownName = favorite.lastKnownName.map(DeviceText.shown).flatMap { name in
            name.trimmingCharacters(in: .whitespaces).isEmpty || name == favorite.displayName ? nil : name
        }
        // No name at all: a placeholder, as on the Scanner, rather than the address twice.
        let named = DisplayName.name(nickname: favorite.nickname, advertisedName: favorite.lastKnownName)
        var row = Row(id: favorite.id, title: named ?? L10n.tr("Unknown device"),
                      subtitle: ownName.map { L10n.format("{} · {}", $0, favorite.id.identifierLine) } ?? favorite.id.identifierLine,
                      presence: presence, isNearby: nearby)
        row.ownName = ownName
        row.narrowPresence = narrow
        row.isUnnamed = named == nil
        if let level = favorites.battery(of: favorite.id) {
            row.battery = L10n.format("Battery {} %", Formats.number(level))
            row.batteryIcon = "battery-level-\(min(100, level / 10 * 10))-symbolic"
        }
        return row
    }

    /// "Last seen in Kitchen · 2 h ago": where a favorite no longer heard was heard last, and when.
    private func lastSeen(in room: String, _ presence: Favorites.Presence) -> String {
        guard case .lastSeen(let seen) = presence else { return L10n.format("Last seen in {}", room) }
        let seconds = now().timeIntervalSince(seen)
        if Formats.isJustNow(seconds) { return L10n.format("Last seen in {} · just now", room) }
        // Translators: a room's name, then how long ago: "Last seen in Kitchen · 2 h ago".
        return L10n.format("Last seen in {} · {} ago", room, Formats.age(seconds: seconds))
    }

    private func presenceText(_ presence: Favorites.Presence) -> (String, Bool) {
        switch presence {
        case .nearby(let rssi?): return (L10n.format("Nearby · {}", SignalText.dBm(rssi)), true)
        case .nearby(nil): return (L10n.tr("Nearby"), true)
        case .lastSeen(let seen):
            let seconds = now().timeIntervalSince(seen)
            // The moment rule: a favorite heard a few seconds before the scan closed was seen just now.
            if Formats.isJustNow(seconds) { return (L10n.tr("Last seen just now"), false) }
            return (L10n.format("Last seen {} ago", Formats.age(seconds: seconds)), false)
        case .notSeen: return (L10n.tr("Not seen yet"), false)
        }
    }
}
