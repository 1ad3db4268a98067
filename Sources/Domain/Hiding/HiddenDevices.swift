// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Devices the user hid from the Scanner, and the "Only New Devices" mark: the owner of both.
///
/// The rules live here: a favorite cannot be hidden, and a hidden device that becomes a
/// favorite (added from its detail page) is shown again. Hide has one Undo, for the device
/// hidden last. Changes apply at once and are written in the background; a failed write is
/// reported, never dropped in silence.
@MainActor
public final class HiddenDevices {
    // MARK: State
    public private(set) var hidden: [DeviceID: HiddenDevice] = [:]
    /// The mark while Only New Devices is on.
    public private(set) var newDevicesMark: NewDevicesMark?
    /// Says what failed to be saved ("… will be hidden until FavBlue quits").
    public var onProblem: ((String) -> Void)?

    // MARK: Borrowed
    private var repository: HiddenDevicesRepository
    private let favorites: Favorites
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var favoritesToken: ObservationToken?
    private var lastHidden: HiddenDevice?

    public init(repository: HiddenDevicesRepository, favorites: Favorites, now: @escaping () -> Date = { Date() }) {
        self.repository = repository
        self.favorites = favorites
        self.now = now
        favoritesToken = favorites.observe { [weak self] in self?.unhideFavorites() }
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Reads what was hidden and the mark from the store.
    public func load() async {
        do {
            let devices = try await repository.all()
            let mark = try await repository.newDevicesMark()
            hidden = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            newDevicesMark = mark
        } catch {
            onProblem?(L10n.format("Hidden devices could not be read: {}", "\(error)"))
        }
        unhideFavorites()
        observers.notify()
    }

    /// The demo: what it hides, and its Only New Devices, go to `repository` (the session's
    /// own), so the user's hidden devices are as they were when FavBlue starts without it.
    public func showDemo(_ repository: HiddenDevicesRepository) async {
        self.repository = repository
        lastHidden = nil
        await load()
    }

    public func isHidden(_ id: DeviceID) -> Bool { hidden[id] != nil }

    /// Whether Hide Device is offered: never for a favorite.
    public func canHide(_ id: DeviceID) -> Bool { !favorites.isFavorite(id) && hidden[id] == nil }

    /// Hides `id` at once; false (and nothing changes) for a favorite.
    @discardableResult
    public func hide(_ id: DeviceID, name: String?) -> Bool {
        guard canHide(id) else { return false }
        let device = HiddenDevice(id: id, name: name, hiddenAt: now())
        hidden[id] = device
        lastHidden = device
        observers.notify()
        write(L10n.format("“{}” is hidden until FavBlue quits, but could not be saved", DeviceText.isolated(name ?? id.address))) {
            try await $0.hide(device)
        }
        return true
    }

    /// Undoes the last Hide Device.
    public func undoHide() {
        guard let device = lastHidden else { return }
        lastHidden = nil
        unhide(device.id)
    }

    /// Shows `id` again.
    public func unhide(_ id: DeviceID) {
        guard let device = hidden.removeValue(forKey: id) else { return }
        observers.notify()
        write(L10n.format("“{}” is shown again until FavBlue quits, but could not be saved", DeviceText.isolated(device.name ?? id.address))) {
            try await $0.unhide(id)
        }
    }

    /// Turns Only New Devices on, marking `known` (every device seen so far) as not new, or off.
    public func setOnlyNewDevices(_ on: Bool, known: Set<DeviceID>) {
        guard on != (newDevicesMark != nil) else { return }
        let mark = on ? NewDevicesMark(since: now(), known: known) : nil
        newDevicesMark = mark
        observers.notify()
        write(L10n.tr("Only New Devices could not be saved; it applies until FavBlue quits")) {
            try await $0.setNewDevicesMark(mark)
        }
    }

    /// A favorite is never hidden: one added while hidden is shown again.
    private func unhideFavorites() {
        for id in hidden.keys where favorites.isFavorite(id) { unhide(id) }
    }

    /// Writes in the background, in order; `problem` is said if it fails.
    private func write(_ problem: String, _ change: @escaping @Sendable (HiddenDevicesRepository) async throws -> Void) {
        let repository = repository
        let previous = pending
        pending = Task { [weak self] in
            await previous?.value
            do {
                try await change(repository)
            } catch {
                self?.onProblem?(problem)
            }
        }
    }

    private var pending: Task<Void, Never>?

    /// Waits until every change so far is written (for tests and quitting).
    public func flush() async { await pending?.value }
}
