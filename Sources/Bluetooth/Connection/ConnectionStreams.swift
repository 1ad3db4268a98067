// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Fans connection events out to every subscriber; safe from any thread. Events are yielded
/// under the lock, so those from the read thread and the worker keep one order for everyone.
final class ConnectionStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [UUID: Feed<ConnectionEvent>] = [:]
    private var current: ConnectionState = .idle

    /// A new stream, starting with the current state. Unbounded, so no message is dropped.
    var events: Feed<ConnectionEvent> {
        let feed = Feed<ConnectionEvent>()
        let id = UUID()
        lock.withLock {
            feed.yield(.state(current))
            observers[id] = feed
        }
        feed.onTermination = { [weak self] in
            self?.lock.withLock { self?.observers[id] = nil }
        }
        return feed
    }

    /// The state last set.
    var state: ConnectionState { lock.withLock { current } }

    /// Changes the state and tells everyone, unless it is unchanged.
    func set(_ state: ConnectionState) {
        lock.withLock {
            guard state != current else { return }
            current = state
            for observer in observers.values { observer.yield(.state(state)) }
        }
    }

    /// Tells everyone of `event`.
    func emit(_ event: ConnectionEvent) {
        lock.withLock {
            for observer in observers.values { observer.yield(event) }
        }
    }
}
