// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A scanner that reports what the test feeds it.
public final class FakeScanner: DeviceScanner, @unchecked Sendable {
    private let lock = NSLock()
    private var observationFeeds: [Feed<Observation>] = []
    private var stateFeeds: [Feed<ScannerState>] = []
    private var current: ScannerState = .idle
    private let departureFeed = Feed<DeviceID>()
    /// How often start() was called.
    public private(set) var starts = 0

    public init() {}

    public var observations: Feed<Observation> {
        let feed = Feed<Observation>()
        lock.withLock { observationFeeds.append(feed) }
        return feed
    }

    public var states: Feed<ScannerState> {
        let feed = Feed<ScannerState>()
        lock.withLock {
            feed.yield(current)
            stateFeeds.append(feed)
        }
        return feed
    }

    public var departures: Feed<DeviceID> { departureFeed }

    public func start() {
        lock.withLock { starts += 1 }
        set(.scanning)
    }

    public func stop() { set(.paused) }

    /// Delivers an observation as if the radio heard it.
    public func feed(_ observation: Observation) {
        lock.withLock { observationFeeds }.forEach { $0.yield(observation) }
    }

    /// Says `id` went out of range, as BlueZ does when it drops a device.
    public func depart(_ id: DeviceID) { departureFeed.yield(id) }

    /// Moves to `state` (a failure, say).
    public func set(_ state: ScannerState) {
        let targets = lock.withLock {
            current = state
            return stateFeeds
        }
        targets.forEach { $0.yield(state) }
    }
}
