// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Shares favorites' nicknames with the rest of the desktop: while on, every nickname set,
/// changed or cleared in FavBlue is written as the system's name for that device (BlueZ's
/// alias), so GNOME Settings shows the same name. Off by default; only the BlueZ route can.
@MainActor
public final class NicknameSharing {
    // MARK: State
    /// Whether nicknames are shared; turning it on shares every nickname there is.
    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            onChange?(isOn)
            if isOn { shareAll() }
        }
    }
    /// Whether this source can share at all (BlueZ); the switch is greyed out otherwise.
    public var isAvailable: Bool { writer != nil }
    /// Hears every change of `isOn`, to keep it.
    public var onChange: (@MainActor (Bool) -> Void)?
    /// Hears a write the system refused, in plain words.
    public var onProblem: (@MainActor (String) -> Void)?

    // MARK: Borrowed
    private let writer: SystemAliasWriter?
    private let favorites: Favorites

    // MARK: Owned
    /// Each favorite's nickname as last seen, so only changes are written.
    private var known: [DeviceID: String?] = [:]
    private var token: ObservationToken?
    /// Writes in the order the nicknames changed, so the last one wins.
    private var queue: Task<Void, Never>?

    /// Shares through `writer` (nil where the source cannot) the nicknames of `favorites`.
    public init(writer: SystemAliasWriter?, favorites: Favorites, isOn: Bool) {
        self.writer = writer
        self.favorites = favorites
        self.isOn = isOn
        known = favorites.snapshot.mapValues(\.nickname)
        token = favorites.observe { [weak self] in self?.favoritesChanged() }
    }

    /// Waits for the writes asked for so far (for tests and quitting).
    public func finishWriting() async { await queue?.value }

    private func favoritesChanged() {
        let current = favorites.snapshot.mapValues(\.nickname)
        guard current != known else { return }
        var changes: [(DeviceID, String)] = []
        // Favorites read from the store count too: the system learns them again at each start.
        for (id, nickname) in current where known[id] != .some(nickname) { changes.append((id, nickname ?? "")) }
        // No longer a favorite: the device gets its own name back.
        for id in known.keys where current[id] == nil { changes.append((id, "")) }
        known = current
        if isOn { write(changes) }
    }

    private func shareAll() {
        write(favorites.snapshot.compactMap { id, favorite in favorite.nickname.map { (id, $0) } })
    }

    private func write(_ changes: [(DeviceID, String)]) {
        guard let writer, !changes.isEmpty else { return }
        let previous = queue
        queue = Task { [weak self] in
            await previous?.value
            for (id, alias) in changes {
                do throws(AliasWriteError) {
                    _ = try await writer.setAlias(alias, for: id)
                } catch {
                    self?.onProblem?(error.message)
                }
            }
        }
    }
}
