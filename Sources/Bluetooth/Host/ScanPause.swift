// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Lets a client of a host have LE scanning off for a moment, and the scanner take it up again:
/// the resolving list cannot change while the controller scans with address resolution on
/// (Core v5.4, Vol 4, Part E, §7.8.38). The scan loop looks in at least every 0.2 s.
public final class ScanPause: @unchecked Sendable {
    private let condition = NSCondition()
    private var requests = 0
    /// A scan loop runs and will look in.
    private var scanning = false
    /// The scan loop has scanning off for the requests.
    private var paused = false

    /// Runs `body` with LE scanning off, waiting up to `timeout` seconds for the scan loop (if
    /// any) to turn it off; scanning resumes when the last such call returns.
    public func whilePaused<T>(timeout: Double = 2, _ body: () throws -> T) rethrows -> T {
        condition.lock()
        requests += 1
        let deadline = Date().addingTimeInterval(timeout)
        while scanning, !paused, condition.wait(until: deadline) {}
        condition.unlock()
        defer {
            condition.lock()
            requests -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    // MARK: The scanner's side

    /// The scan loop runs (true) or ended (false).
    func scanner(running: Bool) {
        condition.withLock {
            scanning = running
            condition.broadcast()
        }
    }

    /// Called by the scan loop between waits: when a pause is asked for, turns scanning off,
    /// waits until nobody needs it off, and turns it on again.
    func checkpoint(off: () throws(ScanFailure) -> Void, on: () throws(ScanFailure) -> Void) throws(ScanFailure) {
        guard condition.withLock({ requests > 0 }) else { return }
        try off()
        condition.lock()
        paused = true
        condition.broadcast()
        while requests > 0 { condition.wait() }
        paused = false
        condition.unlock()
        try on()
    }
}
