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
        // Later, not here: this runs under the stream's own lock, which a yield under ours waits
        // for, so a listener going away while a state was set deadlocked both.
        feed.onTermination = { [weak self] in DispatchQueue.global().async { [weak self] in self?.forget(id) } }
        return feed
    }

    private func forget(_ id: UUID) { lock.withLock { observers[id] = nil } }

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
