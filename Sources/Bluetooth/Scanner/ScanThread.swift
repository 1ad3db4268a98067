// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The one thread a scanner reads its source on, and the stop flag that thread polls.
/// A second `start` while a session runs is ignored.
final class ScanThread: @unchecked Sendable {
    private let name: String
    /// Guards the flags; a pause waits on it, so a stop request ends the pause at once.
    private let lock = NSCondition()
    private var running = false
    private var stopRequested = false

    init(name: String) {
        self.name = name
    }

    /// Runs `session` on a new thread, unless one is running; the session calls `finished()` when done.
    func start(_ session: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        stopRequested = false
        let thread = Thread.named(name, session)
        thread.start()
    }

    /// Asks the session to end at its next check.
    func requestStop() {
        lock.lock()
        stopRequested = true
        lock.broadcast()
        lock.unlock()
    }

    /// Waits `seconds` on the session's thread, or less when a stop is requested meanwhile
    /// (a paced replay would otherwise hold a stopped scanner for the gap to its next packet).
    func pause(_ seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        while !stopRequested, lock.wait(until: deadline) {}
        lock.unlock()
    }

    /// Whether the session has been asked to end.
    var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    /// Marks the session over, so `start` may run a new one.
    func finished() {
        lock.lock()
        running = false
        lock.unlock()
    }
}
