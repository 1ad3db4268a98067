// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Tells the desktop when a favorite that asks for it comes near or leaves.
///
/// It must not flap at the edge of range, so it reads the smoothed signal, asks for a few
/// reports before "nearby", and has a weaker threshold for leaving than for arriving; a
/// device that goes silent has left only once the list drops it (its remove time) or the
/// source says it went. While no scan runs nothing is decided: not hearing is not leaving.
@MainActor
public final class PresenceAlertsWatch {
    /// Where a watched favorite stands.
    enum Presence { case near, away }

    /// The smoothed signal a device must reach to count as nearby, dBm.
    public static let arriveRSSI = -85
    /// The smoothed signal below which a nearby device counts as gone, dBm.
    public static let leaveRSSI = -95
    /// Reports needed, after it was away, before it counts as nearby.
    public static let reportsToArrive = 3

    private let live: LiveDevices
    private let favorites: Favorites
    private let notifier: DesktopNotifier
    private var presence: [DeviceID: Presence] = [:]
    /// The report count a device had when it went away, so arriving needs fresh reports.
    private var reportsWhenAway: [DeviceID: Int] = [:]
    private var tokens: [ObservationToken] = []

    public init(live: LiveDevices, favorites: Favorites, notifier: DesktopNotifier) {
        self.live = live
        self.favorites = favorites
        self.notifier = notifier
        tokens.append(live.observe { [weak self] _ in self?.evaluate() })
        tokens.append(favorites.observe { [weak self] in self?.evaluate() })
        evaluate()
    }

    /// Looks at every watched favorite once.
    public func evaluate() {
        let watched = favorites.snapshot.values.filter { !$0.alerts.isEmpty }
        let ids = Set(watched.map(\.id))
        for id in presence.keys where !ids.contains(id) {
            presence[id] = nil
            reportsWhenAway[id] = nil
        }
        for favorite in watched {
            let id = favorite.id
            let now = assess(id, was: presence[id])
            guard let was = presence[id] else {
                // Newly watched: where it stands now is no news.
                presence[id] = now
                if now == .away { reportsWhenAway[id] = live[id]?.reports ?? 0 }
                continue
            }
            guard now != was else { continue }
            presence[id] = now
            if now == .away { reportsWhenAway[id] = live[id]?.reports ?? 0 }
            tell(favorite, now)
        }
    }

    private func assess(_ id: DeviceID, was: Presence?) -> Presence {
        // Without a scan nothing is heard either way: keep what was known.
        guard live.isRunning || live.isReplayOver else { return was ?? .away }
        guard let device = live[id], !device.departed, let smoothed = device.smoothed else { return .away }
        switch was ?? .away {
        case .near:
            return smoothed < Self.leaveRSSI ? .away : .near
        case .away:
            // A device dropped and heard again starts its count afresh.
            let base = reportsWhenAway[id] ?? 0
            let since = device.reports >= base ? device.reports - base : device.reports
            return smoothed >= Self.arriveRSSI && since >= Self.reportsToArrive ? .near : .away
        }
    }

    private func tell(_ favorite: Favorite, _ presence: Presence) {
        let name = DeviceText.isolated(favorites.name(of: favorite.id))
        // One notification per device: arriving replaces leaving, so they never pile up.
        let id = "presence-" + favorite.id.storageKey
        switch presence {
        case .near where favorite.alerts.contains(.arrive):
            // Where several sources hear it, the room it came into.
            let title = live[favorite.id]?.room.room.map { L10n.format("{} is in {}", name, DeviceText.isolated($0)) }
                ?? L10n.format("{} is nearby", name)
            notifier.send(id: id, title: title, body: L10n.tr("Your favorite came into range."), opening: favorite.id)
        case .away where favorite.alerts.contains(.leave):
            notifier.send(id: id, title: L10n.format("{} left", name),
                          body: L10n.tr("Your favorite is out of range."), opening: favorite.id)
        default:
            break
        }
    }
}
