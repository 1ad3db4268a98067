// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Fans observations and states out to every subscriber; safe from any thread.
public final class ScanStreams: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var observers: [UUID: Feed<Observation>] = [:]
    private var stateObservers: [UUID: Feed<ScannerState>] = [:]
    public private(set) var state: ScannerState = .idle
    private var ended = false
    /// Called on the setting thread after each change of state has been told; set before scanning starts.
    public var didChange: (@Sendable (ScannerState) -> Void)?

    /// A new stream of observations. Unbounded, so nothing is dropped; consumers coalesce.
    public var observations: Feed<Observation> {
        let feed = Feed<Observation>()
        let id = UUID()
        lock.lock()
        if ended { feed.finish() } else { observers[id] = feed }
        lock.unlock()
        // Later, not under the stream's own lock, which a yield under ours may wait for.
        feed.onTermination = { [weak self] in DispatchQueue.global().async { [weak self] in self?.forget(observer: id) } }
        return feed
    }

    /// A new stream of states, starting with the current one.
    public var states: Feed<ScannerState> {
        let feed = Feed<ScannerState>()
        let id = UUID()
        lock.lock()
        feed.yield(state)
        if ended { feed.finish() } else { stateObservers[id] = feed }
        lock.unlock()
        // Later, not under the stream's own lock, which a yield under ours may wait for.
        feed.onTermination = { [weak self] in DispatchQueue.global().async { [weak self] in self?.forget(stateObserver: id) } }
        return feed
    }

    private func forget(observer id: UUID) { lock.withLock { observers[id] = nil } }
    private func forget(stateObserver id: UUID) { lock.withLock { stateObservers[id] = nil } }

    public func emit(_ observation: Observation) {
        lock.lock()
        let targets = observers.values
        lock.unlock()
        for target in targets { target.yield(observation) }
    }

    /// Emits `observation` only while the state is `.scanning`, checked and told in one step,
    /// so a source of its own (the demo device) says nothing once the scan has stopped.
    @discardableResult
    public func emitWhileScanning(_ observation: Observation) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state == .scanning else { return false }
        for target in observers.values { target.yield(observation) }
        return true
    }

    public func set(_ newState: ScannerState) {
        lock.lock()
        guard newState != state else { lock.unlock(); return }
        state = newState
        let targets = stateObservers.values
        lock.unlock()
        for target in targets { target.yield(newState) }
        didChange?(newState)
    }

    /// Ends every stream (a replay that ran out).
    public func finish() {
        lock.lock()
        ended = true
        let a = observers.values
        let b = stateObservers.values
        observers = [:]
        stateObservers = [:]
        lock.unlock()
        a.forEach { $0.finish() }
        b.forEach { $0.finish() }
    }
}
