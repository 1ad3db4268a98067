// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Observations and departures received off the main thread, waiting for the next fold.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Observation] = []
    private var departures: [(DeviceID, Date)] = []

    func add(_ o: Observation) {
        lock.lock()
        items.append(o)
        lock.unlock()
    }

    func depart(_ id: DeviceID, at time: Date) {
        lock.lock()
        departures.append((id, time))
        lock.unlock()
    }

    func drain() -> ([Observation], [(DeviceID, Date)]) {
        lock.lock()
        defer { lock.unlock() }
        let out = (items, departures)
        items = []
        departures = []
        return out
    }
}
