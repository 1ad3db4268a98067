// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A scanner that reports what the test feeds it.
public final class FakeScanner: DeviceScanner, @unchecked Sendable {
    private let lock = NSLock()
    private var observationContinuations: [AsyncStream<Observation>.Continuation] = []
    private var stateContinuations: [AsyncStream<ScannerState>.Continuation] = []
    private var current: ScannerState = .idle
    private let (departureStream, departureSink) = AsyncStream<DeviceID>.makeStream()
    /// How often start() was called.
    public private(set) var starts = 0

    public init() {}

    public var observations: AsyncStream<Observation> {
        AsyncStream { continuation in
            lock.lock(); observationContinuations.append(continuation); lock.unlock()
        }
    }

    public var states: AsyncStream<ScannerState> {
        AsyncStream { continuation in
            lock.lock(); continuation.yield(current); stateContinuations.append(continuation); lock.unlock()
        }
    }

    public var departures: AsyncStream<DeviceID> { departureStream }

    public func start() {
        lock.lock(); starts += 1; lock.unlock()
        set(.scanning)
    }

    public func stop() { set(.paused) }

    /// Delivers an observation as if the radio heard it.
    public func feed(_ observation: Observation) {
        lock.lock(); let targets = observationContinuations; lock.unlock()
        targets.forEach { $0.yield(observation) }
    }

    /// Says `id` went out of range, as BlueZ does when it drops a device.
    public func depart(_ id: DeviceID) { departureSink.yield(id) }

    /// Moves to `state` (a failure, say).
    public func set(_ state: ScannerState) {
        lock.lock(); current = state; let targets = stateContinuations; lock.unlock()
        targets.forEach { $0.yield(state) }
    }
}
